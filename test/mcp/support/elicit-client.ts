// The built `stratum-mcp` with an SDK Client that declares form elicitation: the test sets what the
// "person" answers (`answer`), and sees every elicitation/create the server sent (`asked`).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { ensureBundle } from "../../cli/run-cli";
import { KindPreservingStdioTransport } from "./kind-preserving-transport";
import { MCP_BIN } from "./server";

export interface ElicitingServer {
  readonly client: Client;
  /** The params of every elicitation/create received, in order. */
  readonly asked: ElicitRequest["params"][];
  /** What the person answers next (called once per elicitation). */
  answer: (params: ElicitRequest["params"]) => Promise<ElicitResult>;
  stderr(): string;
  /** Closes standard input and waits for the server's exit code. */
  close(): Promise<number | null>;
}

export async function startElicitingServer(options: {
  readonly cwd: string;
  readonly home: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Declare the elicitation capability (default true). */
  readonly elicitation?: boolean;
}): Promise<ElicitingServer> {
  ensureBundle();
  const transport = new KindPreservingStdioTransport({
    command: process.execPath,
    args: [MCP_BIN],
    cwd: options.cwd,
    env: { STRATUM_HOME: options.home, ...options.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const withElicitation = options.elicitation ?? true;
  const client = new Client(
    { name: "stratumc-elicit-e2e", version: "0.0.0" },
    { capabilities: withElicitation ? { elicitation: {} } : {} },
  );
  const server: ElicitingServer = {
    client,
    asked: [],
    answer: () => Promise.resolve({ action: "cancel" }),
    stderr: () => stderr,
    async close() {
      const child = transport.child;
      const exited = new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once("exit", (code) => resolve(code));
      });
      child.stdin?.end();
      const code = await exited;
      await client.close();
      return code;
    },
  };
  if (withElicitation) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      server.asked.push(request.params);
      return server.answer(request.params);
    });
  }
  await client.connect(transport);
  return server;
}
