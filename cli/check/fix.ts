// `check --fix` and `check --fix-dry-run`: the core's fixSpec on every input, then
//   --fix          writes each file whose fixed text has no error, atomically (a temporary file in
//                  the same directory renamed over it; the file's mode, its line endings — the
//                  edits keep them — and a UTF-8 byte order mark are kept; a symlink's target is
//                  written). A file that changed on disk since it was read is not written.
//   --fix-dry-run  prints a unified diff of each such file (`a/<file>` → `b/<file>`); writes nothing.
// A file with YAML errors, or that would still have errors after every fix, is never written
// ("not fixed" on stderr, with the reason). The report then shows the file as it is on disk; for a
// fixed (or, in a dry run, fixable) file it shows what remains after fixing. Notes go to stderr so
// that stdout stays the chosen format. Standard input cannot be fixed in place: `--fix -` is a
// usage error, `--fix-dry-run -` prints the diff.
import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  type CheckOptions,
  checkSpec,
  type FixOutcome,
  fixSpec,
  isOversized,
  MAX_SPEC_BYTES,
} from "../../checker/index";
import { readRegularFile } from "../../host/index";
import type { Output } from "../output";
import { unifiedDiff } from "./diff";
import type { Input } from "./inputs";
import { decodeSpec } from "./read-spec";
import type { CheckedInput } from "./run";
import { reportOf } from "./run";

export type FixMode = "write" | "dry-run";

const BOM = [0xef, 0xbb, 0xbf];

/** Fixes every checked input (same order); returns what to report for each. */
export function fixInputs(
  inputs: readonly Input[],
  checked: readonly CheckedInput[],
  mode: FixMode,
  io: Output,
  options: CheckOptions = {},
): CheckedInput[] {
  return checked.map((c, k) => {
    const input = inputs[k] as Input;
    if (c.result === null || input.kind === "unreadable") return c;
    // Refused unread for its size (YAML-TOO-LARGE): there is no text to fix.
    if (isOversized(c.result)) return c;
    // Re-checked with the same options, so the report after fixing keeps e.g. --portable's warnings.
    const outcome = fixSpec(c.result.source.text, { check: (text) => checkSpec(text, options) });
    const name = c.report.file;
    if (outcome.status === "unchanged") return c;
    if (outcome.status === "refused") {
      io.err(`${name}: not fixed: ${refusal(outcome)}; nothing written\n`);
      return c;
    }
    const n = outcome.applied.length;
    if (mode === "dry-run") {
      io.out(unifiedDiff(c.result.source.text, outcome.text, `a/${name}`, `b/${name}`));
      io.err(`${name}: ${n} fix(es) would be applied\n`);
    } else {
      if (input.kind !== "file") return c;
      const failed = writeFixed(input.path, c.result.source.text, outcome.text);
      if (failed !== null) {
        io.err(`${name}: not fixed: ${failed}; nothing written\n`);
        return c;
      }
      io.err(`${name}: ${n} fix(es) applied\n`);
    }
    return { report: reportOf(name, outcome.fixed), result: outcome.fixed };
  });
}

function refusal(outcome: FixOutcome): string {
  if (outcome.reason === "yaml") return "the file has YAML errors";
  const n = outcome.fixed.errors.length;
  return `${n} error(s) would remain that --fix cannot fix`;
}

/** Writes the fixed text over the file; null when done, else why not. */
function writeFixed(path: string, readText: string, fixedText: string): string | null {
  let target: string;
  let bytes: Buffer;
  let mode: number;
  try {
    target = realpathSync(path);
    // Bounded: a file that grew past the size limit has changed anyway.
    bytes = readRegularFile(target, MAX_SPEC_BYTES + BOM.length + 1);
    mode = statSync(target).mode & 0o7777;
  } catch (e) {
    return `cannot read it again (${e instanceof Error ? e.message : String(e)})`;
  }
  const now = decodeSpec(bytes);
  if (!now.ok || now.text !== readText) return "it changed on disk while being checked";
  const bom = BOM.every((b, i) => bytes[i] === b) ? "\ufeff" : "";
  const tmp = join(dirname(target), `.${Date.now()}-${process.pid}.stratumc-fix.tmp`);
  try {
    writeFileSync(tmp, bom + fixedText, { mode });
    chmodSync(tmp, mode); // the umask may have removed bits
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    return `cannot write it (${e instanceof Error ? e.message : String(e)})`;
  }
  return null;
}
