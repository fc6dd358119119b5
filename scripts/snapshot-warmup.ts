// The warm-up run while a V8 startup snapshot is built (scripts/snapshot-entry.ts,
// scripts/snapshot-check-entry.ts): commands run once on in-memory inputs, output discarded, so
// that the lazily built singletons (Chevrotain lexer and parser, catalogues) exist and the
// functions of the common paths are compiled to bytecode, which the snapshot keeps.
import type { CliHost } from "../cli/command-context";
import type { Output } from "../cli/output";

declare const STRATUMC_WARMUP_SPEC: string;

export const BROKEN_SPEC = `version: "0.2"
contracts:
  Out: {score: {type: number}, tags: {type: array, items: {type: string}}}
functions:
  work: {mode: infer, intent: "Work", input: {}, output: Out, ensure: ["result.scroe > 0.5", "len(result.tags) > '1'"]}
flows:
  main:
    input: {}
    steps:
      - {id: a, function: work, inputs: {x: "$.steps.nope.output"}, depend_on: [b]}
      - {id: a, function: wrok}
`;

export const WARMUP_SPECS: readonly string[] = [STRATUMC_WARMUP_SPEC, BROKEN_SPEC];

export type RunCliIn = (
  args: readonly string[],
  io: Output,
  programName: string,
  host: CliHost,
) => Promise<number>;

const silent: Output = { out: () => undefined, err: () => undefined };

function stdinHost(text: string): CliHost {
  return {
    cwd: "/",
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new TextEncoder().encode(text),
  };
}

/** Runs each command line on its standard input; a failing warm-up only makes the snapshot slower. */
export async function warmUp(
  run: RunCliIn,
  runs: readonly { readonly args: readonly string[]; readonly stdin: string }[],
): Promise<void> {
  try {
    for (const r of runs) await run(r.args, silent, "stratumc", stdinHost(r.stdin));
  } catch {
    // never different, only slower
  }
}
