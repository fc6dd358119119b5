// `replay --server COMMAND`: an MCP client (the MCP SDK's, over stdio) to a server started from a
// command line, for one replay. The server gets the caller's environment with STRATUM_HOME set to
// a fresh temporary directory (unless the environment sets it), removed when the client closes.
// This module is its own bundle (dist/mcp-client.cjs, see scripts/build.mjs and load-client.ts):
// only plain data crosses in and out, and errors are plain Errors the caller words for the user.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EVENTS_META_KEY } from "../../mcp/index";

export type JsonObject = Record<string, unknown>;

/** The `_meta` key that asks a stratumc server for a call's events, and carries them back. */

export interface ServerAnswer {
  /** The JSON object of the result's first text content. */
  readonly response: JsonObject;
  /** The interpreter's events of the call (`_meta`), or null when the server sent none. */
  readonly events: readonly JsonObject[] | null;
}

export interface ServerSession {
  /** Calls a tool, asking for its events (docs/guides/fuzzing.md, "Replaying over a server"). */
  call(tool: string, args: JsonObject): Promise<ServerAnswer>;
  /** Stops the server and removes the temporary STRATUM_HOME. */
  close(): Promise<void>;
}

export interface ServerSetup {
  /** The command line: a program and its arguments, separated by spaces. */
  readonly commandLine: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clientVersion: string;
}

export async function connectServer(setup: ServerSetup): Promise<ServerSession> {
  const [command, ...args] = setup.commandLine.split(" ").filter((w) => w !== "");
  if (command === undefined) throw new Error("the server command is empty");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(setup.env)) if (v !== undefined) env[k] = v;
  const home = env.STRATUM_HOME === undefined ? mkdtempSync(join(tmpdir(), "stratumc-replay-")) : null;
  if (home !== null) env.STRATUM_HOME = home;
  const removeHome = () => {
    if (home !== null) rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  };
  const transport = new StdioClientTransport({ command, args, env, cwd: setup.cwd, stderr: "pipe" });
  // The server's own messages: shown only when it fails to start.
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    stderr = (stderr + String(chunk)).slice(-2000);
  });
  const client = new Client({ name: "stratumc-replay", version: setup.clientVersion });
  try {
    await client.connect(transport);
  } catch (e) {
    await client.close().catch(() => undefined);
    removeHome();
    const said = stderr.trim().split("\n").pop();
    throw new Error(`${message(e)}${said ? ` (the server said: ${said})` : ""}`);
  }
  return {
    async call(tool, args) {
      const result = await client.callTool({
        name: tool,
        arguments: args,
        _meta: { [EVENTS_META_KEY]: true },
      });
      const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
      const text = content.find(isText)?.text;
      if (text === undefined) throw new Error(`the answer to ${tool} has no text content`);
      let response: unknown;
      try {
        response = JSON.parse(text);
      } catch {
        throw new Error(`the answer to ${tool} is not JSON: ${text.slice(0, 80)}`);
      }
      if (response === null || typeof response !== "object" || Array.isArray(response))
        throw new Error(`the answer to ${tool} is not a JSON object`);
      const sent = result._meta?.[EVENTS_META_KEY];
      const events = Array.isArray(sent) ? sent.filter(isObject) : null;
      return { response: response as JsonObject, events };
    },
    async close() {
      try {
        await client.close();
      } finally {
        removeHome();
      }
    },
  };
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isText(c: unknown): c is { type: "text"; text: string } {
  if (c === null || typeof c !== "object") return false;
  const { type, text } = c as { type?: unknown; text?: unknown };
  return type === "text" && typeof text === "string";
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
