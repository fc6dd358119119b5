// One built `stratum-mcp` process over stdio, driven by the MCP SDK client, for the ported
// reference tests: `call(tool, args)` answers the tool's response as plain JSON values (floats as
// numbers), the way the reference's tests read the dicts its async tool functions return.
// Protocol deviations (isError, structuredContent) are collected by `callTool` and reported by
// `close`, together with unexpected standard error and a non-zero exit.

import { wireToPlain } from "../../../interpreter/wire/encode";
import { callTool } from "../../mcp/support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "../../mcp/support/server";

export type Plain = Record<string, unknown>;

export class ReferenceSession {
  private readonly problems: string[] = [];

  private constructor(
    private readonly server: RunningServer,
    private readonly home: { readonly path: string; dispose(): void },
  ) {}

  /** A server in a fresh STRATUM_HOME, whose working directory is that directory too. */
  static async start(): Promise<ReferenceSession> {
    const home = tempDir("stratum-ref-v03-");
    const server = await startServer({ cwd: home.path, home: home.path });
    return new ReferenceSession(server, home);
  }

  async call(tool: string, args: Readonly<Record<string, unknown>>): Promise<Plain> {
    const answer = await callTool(this.server.client, tool, args, this.problems);
    return wireToPlain(answer.response) as Plain;
  }

  /** Ends the session; returns what went wrong outside the responses (empty when all is well). */
  async close(): Promise<string[]> {
    const problems = [...this.problems];
    try {
      const code = await this.server.closeInput();
      if (code !== 0) problems.push(`the server exited with code ${code}`);
      const stderr = unexpectedStderr(this.server.stderr());
      if (stderr !== "") problems.push(`the server wrote to stderr:\n${stderr}`);
    } finally {
      this.home.dispose();
    }
    return problems;
  }
}

/** The reference's `violations` read as `result.get("violations", [])`, each as `str(v)`. */
export function violationsOf(response: Plain): string[] {
  const v = response.violations;
  return Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))) : [];
}
