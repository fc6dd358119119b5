// Starts the built `stratum-mcp` (node bin/stratum-mcp.cjs) as a child process and connects the
// SDK's Client to it over stdio. Run `npm run build` first: the suite tests the bundle, not the
// sources (a missing bundle is built once, a stale one is not detected). The client lists the tools
// first, so that it validates every answer's structuredContent against its tool's outputSchema.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ensureBundle, REPO } from "../../cli/run-cli";
import { KindPreservingStdioTransport } from "./kind-preserving-transport";

export const MCP_BIN = join(REPO, "bin/stratum-mcp.cjs");
const WALL_CLOCK_PRELOAD = resolve(import.meta.dirname, "wall-clock-offset.cjs");

export interface ServerOptions {
  /** The server's working directory. */
  readonly cwd: string;
  /** STRATUM_HOME (the flow store). */
  readonly home: string;
  /** A file holding the wall-clock offset in ms (see wall-clock-offset.cjs); none: the real clock. */
  readonly wallOffsetFile?: string;
  /** More environment variables (the OTEL_* ones of the tracing suite, for instance). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Called with the client before it connects: handlers set here see the notifications the server
   * sends at once (the start-up warnings follow `initialized`, before the tools are listed).
   */
  readonly beforeConnect?: (client: Client) => void;
}

export interface RunningServer {
  readonly client: Client;
  readonly transport: KindPreservingStdioTransport;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Everything the server wrote to standard error so far. */
  stderr(): string;
  /** SIGKILL (a crash: nothing is flushed or closed), then waits for the exit. */
  kill(): Promise<void>;
  /** Closes standard input (how a client ends a stdio session) and waits for the exit code. */
  closeInput(): Promise<number | null>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  ensureBundle();
  const preload = options.wallOffsetFile === undefined ? [] : ["--require", WALL_CLOCK_PRELOAD];
  const transport = new KindPreservingStdioTransport({
    command: process.execPath,
    args: [...preload, MCP_BIN],
    cwd: options.cwd,
    env: {
      STRATUM_HOME: options.home,
      ...(options.wallOffsetFile === undefined
        ? {}
        : { STRATUMC_TEST_WALL_OFFSET_FILE: options.wallOffsetFile }),
      ...options.env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "stratumc-e2e", version: "0.0.0" });
  options.beforeConnect?.(client);
  await client.connect(transport);
  // The SDK's Client validates every later answer against its tool's outputSchema once it has
  // listed the tools (a mismatch throws), so every suite that starts a server checks the schemas.
  await client.listTools();
  const child = transport.child;
  const exited = new Promise<number | null>((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit(child.exitCode);
    else child.once("exit", (code) => resolveExit(code));
  });
  return {
    client,
    transport,
    child,
    exited,
    stderr: () => stderr,
    async kill() {
      child.kill("SIGKILL");
      await exited;
      await client.close();
    },
    async closeInput() {
      child.stdin?.end();
      const code = await exited;
      await client.close();
      return code;
    },
  };
}

/**
 * Standard error without the informational notices a server may write (the hook-script
 * refresh of docs/reference/runtime.md §21.1, on the first start in a fresh STRATUM_HOME; a model
 * the run-budget pricing lacks, docs/reference/runtime.md §11.4): what remains is unexpected (engine errors,
 * stray output).
 */
export function unexpectedStderr(text: string): string {
  return text
    .split(/(?<=\n)/)
    .filter(
      (line) => !/^stratum-mcp: (refreshed the hook scripts in |run budget: no price for model )/.test(line),
    )
    .join("");
}

/** A fresh temporary directory (STRATUM_HOME and the like); `dispose` removes it. */
export function tempDir(prefix: string): { readonly path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}
