// The scenario harness (test/interpreter/conformance/run-scenario.ts ScenarioHarness) over a real
// server process: `api` calls MCP tools; `restart()` SIGKILLs the server and the next call starts
// a new process on the same STRATUM_HOME; `clock.advanceWall` moves the server's wall clock through
// the offset file its preload reads (wall-clock-offset.cjs), which is what `age_gate` needs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScenarioHarness } from "../../interpreter/conformance/run-scenario";
import { McpStratumApi } from "./mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./server";

export class McpHarness implements ScenarioHarness {
  readonly api: McpStratumApi;
  readonly clock: { advanceWall(ms: number): void };
  /** How many server processes were started. */
  starts = 0;

  private readonly home = tempDir("stratum-mcp-home-");
  private readonly offsetFile: string;
  private offsetMs = 0;
  private server: Promise<RunningServer>;
  private readonly stderrOfKilled: string[] = [];

  /** `env`: more variables of every server process (STRATUM_STORE for the PostgreSQL store). */
  constructor(
    private readonly cwd: string,
    private readonly env: Readonly<Record<string, string>> = {},
  ) {
    this.offsetFile = join(this.home.path, "wall-offset-ms");
    writeFileSync(this.offsetFile, "0");
    this.clock = {
      advanceWall: (ms: number) => {
        this.offsetMs += ms;
        writeFileSync(this.offsetFile, String(this.offsetMs));
      },
    };
    this.server = this.start();
    this.api = new McpStratumApi(async () => (await this.server).client);
  }

  private start(): Promise<RunningServer> {
    this.starts++;
    return startServer({
      cwd: this.cwd,
      home: this.home.path,
      wallOffsetFile: this.offsetFile,
      env: this.env,
    });
  }

  /** Kills the running server (SIGKILL); the next call starts a new one on the same store. */
  restart(): void {
    const old = this.server;
    this.server = old.then(async (s) => {
      await s.kill();
      this.stderrOfKilled.push(s.stderr());
      return this.start();
    });
    // The runner does not await a restart: a failure surfaces on the next call.
    this.server.catch(() => undefined);
  }

  /**
   * Ends the session as a client does (closes standard input), removes the store and returns what
   * went wrong outside the responses: stderr output, a non-zero exit, protocol deviations.
   */
  async dispose(): Promise<string[]> {
    const problems = [...this.api.problems];
    try {
      const server = await this.server;
      const code = await server.closeInput();
      if (code !== 0) problems.push(`the server exited with code ${code} when its input closed`);
      const stderr = unexpectedStderr([...this.stderrOfKilled, server.stderr()].join(""));
      if (stderr !== "") problems.push(`the server wrote to stderr:\n${stderr}`);
    } catch (error) {
      problems.push(`the server could not be started or stopped: ${String(error)}`);
    } finally {
      this.home.dispose();
    }
    return problems;
  }
}
