// Test support for `install` / `uninstall`: a temporary directory holding a project (with `.git`),
// a home directory (HOME), a PATH folder `bin` holding an executable `stratum-mcp` (remove it, or
// set PATH, to test the local-scope registration) and, by default, STRATUM_HOME unset (so the
// refreshed hooks and the install records go to ~/.stratum); the commands run in process with an
// injected host, with runCli's handling of errors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Command, CommanderError } from "commander";
import type { CliHost, CommandContext } from "../../cli/command-context";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE } from "../../cli/exit-codes";
import { registerInstall } from "../../cli/install/command";

export interface CliAnswer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const SCRIPTS = [
  "stratum-session-start.sh",
  "stratum-session-stop.sh",
  "stratum-post-tool-failure.sh",
];

export class Sandbox {
  readonly root = mkdtempSync(join(tmpdir(), "stratum-install-"));
  readonly project = join(this.root, "project");
  readonly home = join(this.root, "home");
  /** The host's PATH: a folder with an executable `stratum-mcp`. */
  readonly bin = join(this.root, "bin");
  /** Extra environment of the host (STRATUM_HOME…). */
  env: Record<string, string> = {};
  /** The host's working directory; the project root by default. */
  cwd = this.project;

  constructor() {
    mkdirSync(join(this.project, ".git"), { recursive: true });
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.bin);
    writeFileSync(join(this.bin, "stratum-mcp"), "#!/bin/sh\n", { mode: 0o755 });
  }

  get claudeJson(): string {
    return join(this.home, ".claude.json");
  }

  get hooksDir(): string {
    return join(this.home, ".stratum", "hooks");
  }

  get skillsDir(): string {
    return join(this.home, ".claude", "skills");
  }

  host(): CliHost {
    return {
      cwd: this.cwd,
      env: { HOME: this.home, PATH: this.bin, ...this.env },
      stdoutIsTTY: false,
      stderrIsTTY: false,
      readStdin: async () => new Uint8Array(),
    };
  }

  async cli(args: readonly string[], programName = "stratumc"): Promise<CliAnswer> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    let exitCode = EXIT_OK;
    const io = { out: (t: string) => void stdout.push(t), err: (t: string) => void stderr.push(t) };
    const program = new Command(programName)
      .exitOverride()
      .configureOutput({ writeOut: io.out, writeErr: io.err });
    const ctx: CommandContext = {
      io,
      host: this.host(),
      programName,
      setExitCode: (code) => {
        exitCode = code;
      },
    };
    registerInstall(program, ctx);
    try {
      await program.parseAsync([...args], { from: "user" });
    } catch (e) {
      if (e instanceof CommanderError) exitCode = e.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      else {
        io.err(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
        exitCode = EXIT_INTERNAL;
      }
    }
    return { code: exitCode, stdout: stdout.join(""), stderr: stderr.join("") };
  }

  /** Writes a file under the project (parents created). */
  write(rel: string, text: string): void {
    const path = join(this.project, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }

  read(rel: string): string {
    return readFileSync(join(this.project, rel), "utf8");
  }

  json(rel: string): unknown {
    return JSON.parse(this.read(rel));
  }

  exists(rel: string): boolean {
    try {
      statSync(join(this.project, rel));
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
