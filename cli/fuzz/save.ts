// `fuzz --save DIR`: one counterexample file per finding that has one, named
// `<spec name>-<code in lower case>-<line>.json` (`-2`, `-3` … added when two findings of one run
// would get the same name, e.g. two specs with the same name in different directories).
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { FuzzFinding } from "../../fuzzer/index";
import { STDIN_NAME } from "../check/inputs";
import { ioReason } from "../check/read-spec";
import { UsageError } from "../exit-codes";
import { counterexampleFile, counterexampleText } from "./counterexample-file";
import type { FuzzRun } from "./run";

/** Writes the files; answers the path of each finding's file, as shown (`DIR/<name>`). */
export function saveCounterexamples(run: FuzzRun, dir: string, cwd: string): Map<FuzzFinding, string> {
  const saved = new Map<FuzzFinding, string>();
  const taken = new Set<string>();
  try {
    mkdirSync(resolve(cwd, dir), { recursive: true });
    for (const { report, fuzz } of run.files) {
      for (const f of fuzz?.findings ?? []) {
        if (f.counterexample === null) continue;
        const name = uniqueName(`${specName(report.file)}-${f.code.toLowerCase()}-${f.line}`, taken);
        const shown = join(dir, name);
        writeFileSync(
          resolve(cwd, shown),
          counterexampleText(counterexampleFile(report.file, f, f.counterexample)),
        );
        saved.set(f, shown);
      }
    }
  } catch (e) {
    throw new UsageError(`--save: cannot write to '${dir}': ${ioReason(e)}`);
  }
  return saved;
}

function specName(file: string): string {
  if (file === STDIN_NAME) return "stdin";
  return basename(file).replace(/\.stratum\.ya?ml$/, "");
}

function uniqueName(stem: string, taken: Set<string>): string {
  let name = `${stem}.json`;
  for (let i = 2; taken.has(name); i++) name = `${stem}-${i}.json`;
  taken.add(name);
  return name;
}
