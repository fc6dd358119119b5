// Test support for `fuzz`, `replay` and `check --deep`: the CLI run in process (runCli with an
// injected host whose working directory is the repository), and the specs the tests fuzz.
import type { CliHost } from "../../../cli/command-context";
import { runCli } from "../../../cli/program";
import { REPO } from "../run-cli";

/** A seeded defect: FUZZ-ENSURE-RAISES at line 23 (flow main, step describe). */
export const DEFECT = "test/fuzzer/corpus/ensure-raises-1.stratum.yaml";
export const DEFECT_LINE = 23;
/** An example the fuzzer finds nothing wrong with. */
export const CLEAN_EXAMPLE = "examples/feature-build.stratum.yaml";
/** A spec with checker errors. */
export const BROKEN_EXAMPLE = "examples/broken/unknown-step-id.stratum.yaml";

export interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export function testHost(overrides: Partial<CliHost> = {}): CliHost {
  return {
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new Uint8Array(),
    ...overrides,
  };
}

export async function run(args: readonly string[], host: CliHost = testHost()): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (s) => void out.push(s), err: (s) => void err.push(s) },
    "stratumc",
    host,
  );
  return { code, out: out.join(""), err: err.join("") };
}
