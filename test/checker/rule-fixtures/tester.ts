// The rule tester (typescript-eslint's RuleTester, for whole specs): every diagnostic code has a
// folder of fixture specs named after it. `valid*.stratum.yaml` must check with no diagnostic at
// all; `invalid*.stratum.yaml` must report exactly the diagnostics its annotation comments name,
// code and range; `<name>.fixed.stratum.yaml` is the text after the fixes of the folder's code.
// The annotation syntax is in README.md next to this file.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkSpec } from "../../../checker/check-spec";
import type { Diagnostic, LocatedRange } from "../../../checker/diagnostic";
import { offsetOf } from "../../../checker/fix";
import { LineMap } from "../../../checker/location";

const FIXTURES_DIR = join(import.meta.dirname);

export interface ExpectedDiagnostic extends LocatedRange {
  readonly code: string;
}

interface Fixture {
  /** File name inside the code's folder. */
  readonly name: string;
  readonly text: string;
  /** Annotated diagnostics (empty for a valid fixture). */
  readonly expected: readonly ExpectedDiagnostic[];
  /** The expected text after the folder code's fixes (`<name>.fixed.stratum.yaml`), if present. */
  readonly fixed: string | null;
}

export interface RuleFixtures {
  readonly code: string;
  readonly valid: readonly Fixture[];
  readonly invalid: readonly Fixture[];
}

const CARETS =
  /^(?<lead>\s*#(?<pad>\s*))(?<carets>\^+)\s+(?<code>[A-Z][A-Z0-9-]*)(?:\s+to\s+(?<el>\d+):(?<ec>\d+))?\s*$/;
const EXPLICIT = /^\s*#\s*@(?<l>\d+):(?<c>\d+)-(?<el>\d+):(?<ec>\d+)\s+(?<code>[A-Z][A-Z0-9-]*)\s*$/;

/** The code-point column (1-based) of UTF-16 index `i` of `line`. */
function column(line: string, i: number): number {
  return [...line.slice(0, i)].length + 1;
}

/** The expected diagnostics an annotated fixture names. */
export function parseAnnotations(text: string, file: string): ExpectedDiagnostic[] {
  const lines = text.split(/\r\n|\n|\r/);
  const out: ExpectedDiagnostic[] = [];
  let target = -1; // index of the last line that is not an annotation
  lines.forEach((line, i) => {
    const explicit = EXPLICIT.exec(line)?.groups;
    if (explicit !== undefined) {
      out.push({
        code: explicit.code as string,
        line: Number(explicit.l),
        column: Number(explicit.c),
        end_line: Number(explicit.el),
        end_column: Number(explicit.ec),
      });
      return;
    }
    const carets = CARETS.exec(line)?.groups;
    if (carets === undefined) {
      target = i;
      return;
    }
    if (target < 0) throw new Error(`${file}:${i + 1}: an annotation needs a spec line above it`);
    const above = lines[target] as string;
    const start = (carets.lead as string).length;
    const end = start + (carets.carets as string).length;
    if (end > above.length && carets.el === undefined)
      throw new Error(`${file}:${i + 1}: the carets reach past the end of line ${target + 1}`);
    out.push({
      code: carets.code as string,
      line: target + 1,
      column: column(above, start),
      end_line: carets.el === undefined ? target + 1 : Number(carets.el),
      end_column: carets.ec === undefined ? column(above, end) : Number(carets.ec),
    });
  });
  return out;
}

function fixtureNames(dir: string, prefix: "valid" | "invalid"): string[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".stratum.yaml") && !f.endsWith(".fixed.stratum.yaml"))
    .sort();
}

function readFixture(dir: string, name: string, annotated: boolean): Fixture {
  const text = readFileSync(join(dir, name), "utf8");
  const fixedName = name.replace(/\.stratum\.yaml$/, ".fixed.stratum.yaml");
  let fixed: string | null = null;
  try {
    fixed = readFileSync(join(dir, fixedName), "utf8");
  } catch {
    fixed = null;
  }
  return { name, text, expected: annotated ? parseAnnotations(text, join(dir, name)) : [], fixed };
}

/** The fixture folders, by code. */
export function loadRuleFixtures(): RuleFixtures[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => {
      const dir = join(FIXTURES_DIR, e.name);
      return {
        code: e.name,
        valid: fixtureNames(dir, "valid").map((n) => readFixture(dir, n, false)),
        invalid: fixtureNames(dir, "invalid").map((n) => readFixture(dir, n, true)),
      };
    })
    .sort((a, b) => (a.code < b.code ? -1 : 1));
}

/** A diagnostic as the annotations write it: `CODE L:C-L:C`. */
export function notation(d: ExpectedDiagnostic): string {
  return `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column}`;
}

export function diagnosticsOf(text: string): readonly Diagnostic[] {
  return checkSpec(text).diagnostics;
}

/** The text after every fix the diagnostics of `code` carry (machine-applicable or not). */
export function applyFixesOf(text: string, code: string, diagnostics: readonly Diagnostic[]): string {
  const lines = new LineMap(text);
  const edits = diagnostics
    .filter((d) => d.code === code && d.fix !== undefined)
    .flatMap((d) => d.fix?.edits ?? [])
    .map((e) => ({
      start: offsetOf(lines, e.line, e.column),
      end: offsetOf(lines, e.end_line, e.end_column),
      newText: e.new_text,
    }))
    .filter(
      (e, i, all) =>
        all.findIndex((f) => f.start === e.start && f.end === e.end && f.newText === e.newText) === i,
    )
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const e of edits) {
    if (e.end > limit) throw new Error(`overlapping fix edits of ${code}`);
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    limit = e.start;
  }
  return out;
}
