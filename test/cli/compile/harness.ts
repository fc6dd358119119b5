// Test support for `compile` and the stratum-mcp command line: the CLI run in process (runCli with
// an injected host, so the working directory and standard input are the test's), temporary task
// directories, and the recorded reference answers of the compile_speckit_ok scenario.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { CliHost } from "../../../cli/command-context";
import { runCli } from "../../../cli/program";
import { CONFORMANCE_DIR } from "../../support/shared";

const SCENARIOS_DIR = resolve(CONFORMANCE_DIR, "scenarios");
/** The directory holding `tasks/` of the compile_speckit_ok scenario (four task files and a .txt). */
export const FIXTURE_ROOT = join(SCENARIOS_DIR, "fixtures/compile_speckit_ok");

export interface CliAnswer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd: string;
  readonly program?: "stratumc" | "stratum-mcp";
  readonly stdin?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export async function cli(args: readonly string[], options: CliOptions): Promise<CliAnswer> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io = { out: (t: string) => void stdout.push(t), err: (t: string) => void stderr.push(t) };
  const host: CliHost = {
    cwd: options.cwd,
    env: options.env ?? {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new TextEncoder().encode(options.stdin ?? ""),
  };
  const code = await runCli(args, io, options.program ?? "stratumc", host);
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

export function mcp(args: readonly string[], options: Omit<CliOptions, "program">): Promise<CliAnswer> {
  return cli(args, { ...options, program: "stratum-mcp" });
}

/** A fresh temporary directory; `files` (relative path → text) are written into it. */
export class TempDir {
  readonly path = mkdtempSync(join(tmpdir(), "stratumc-compile-"));

  constructor(files: Readonly<Record<string, string>> = {}) {
    for (const [name, text] of Object.entries(files)) this.write(name, text);
  }

  write(name: string, text: string): void {
    const file = join(this.path, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }

  read(name: string): string {
    return readFileSync(join(this.path, name), "utf8");
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

interface RecordedAnswer {
  readonly op: string;
  readonly response: { readonly yaml?: string; readonly flow_name?: string };
}

/** The reference's YAML for the fixture tasks, compiled with the given flow name ("tasks" or "build"). */
export function referenceYaml(flowName: "tasks" | "build"): string {
  const scenario = JSON.parse(readFileSync(join(SCENARIOS_DIR, "compile_speckit_ok.json"), "utf8")) as {
    reference: RecordedAnswer[];
  };
  const answer = scenario.reference.find(
    (r) => r.op === "compile_speckit" && r.response.flow_name === flowName,
  );
  if (answer?.response.yaml === undefined) throw new Error(`no recorded compile for flow ${flowName}`);
  return answer.response.yaml;
}

export { EXAMPLE_TASK, EXAMPLE_YAML } from "../../support/speckit-example";
