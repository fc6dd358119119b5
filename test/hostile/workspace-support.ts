// Shared by the FIFO and workspace-confinement suites: temporary trees with real FIFOs and symbolic
// links, the built `stratum-mcp` over stdio with the SDK's own StdioClientTransport (a per-call
// timeout, so a server that blocks fails the test instead of hanging it), and the built `stratumc`
// with a time limit (killed when over it).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUNDLE, ensureBundle, REPO } from "../cli/run-cli";

/** How long one tool call or CLI run may take before the test calls it a hang. */
export const CALL_TIMEOUT_MS = 10_000;

export function tempTree(prefix: string): { readonly path: string; dispose(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

export function mkfifo(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  execFileSync("mkfifo", [path]);
}

export function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export interface McpServer {
  /** Calls a tool and returns the parsed JSON text; rejects when no answer comes in time. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown> & { text: string }>;
  close(): Promise<void>;
}

/** The built stratum-mcp in `cwd` (STRATUM_HOME = `home`, plus `env`), connected over stdio. */
export async function startMcp(
  cwd: string,
  home: string,
  env: Record<string, string> = {},
): Promise<McpServer> {
  ensureBundle();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO, "bin/stratum-mcp.cjs")],
    cwd,
    env: { PATH: process.env.PATH ?? "", STRATUM_HOME: home, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "stratumc-hostile", version: "0.0.0" });
  await client.connect(transport);
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      });
      const content = result.content as { type: string; text: string }[];
      const text = content[0]?.text ?? "";
      return { ...(JSON.parse(text) as Record<string, unknown>), text };
    },
    async close() {
      const pid = transport.pid;
      await client.close().catch(() => undefined);
      // A server stuck in a blocking read does not end with its input: kill it (by its own id).
      if (pid !== null) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  };
}

export interface CliRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built stratumc; a run still going after CALL_TIMEOUT_MS is killed (signal SIGKILL). */
export function stratumc(args: readonly string[], cwd: string, input = ""): CliRun {
  ensureBundle();
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    cwd,
    input,
    encoding: "utf8",
    timeout: CALL_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  return { status: r.status, signal: r.signal, stdout: String(r.stdout), stderr: String(r.stderr) };
}
