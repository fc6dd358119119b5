// Applying the checker's fixes (`stratumc check --fix`): the edits are the diagnostics'
// `fix` edits exactly as the language server offers them as quick fixes, in their public form
// (1-based lines, code-point columns).
//
// - Only machine-applicable fixes are applied (`Fix.machine_applicable` absent): each is the
//   checker's single, certain answer (a did-you-mean with one close candidate, quoting the version,
//   `is` → `==` against a literal, …). A fix marked `machine_applicable: false` is offered in the
//   editor only.
// - One pass applies every fix whose edits overlap no edit already taken (diagnostics in position
//   order; a fix is all its edits or none); fixes that overlap wait for the next pass. Identical
//   fixes of two diagnostics are applied once. After a pass the text is checked again (the fixes
//   of the new text are the checker's answers for it); passes stop when nothing applies, when the
//   text stops changing, or after MAX_FIX_PASSES.
// - Safety: nothing is fixed in a text with YAML errors, and the fixed text is offered for
//   writing (`status: "fixed"`) only when it has no error at all. Otherwise the outcome is
//   `refused` and the caller writes nothing: a file is never left half fixed, and a fix never
//   trades one error for another unnoticed.
import { type CheckResult, checkSpec } from "./check-spec";
import type { Diagnostic, Fix, LocatedRange } from "./diagnostic";
import { LineMap } from "./location";

export const MAX_FIX_PASSES = 10;

/** Whether `check --fix` applies this fix (the language server offers every fix). */
export function isMachineApplicable(fix: Fix | undefined): fix is Fix {
  return fix !== undefined && fix.edits.length > 0 && fix.machine_applicable !== false;
}

interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export interface FixPass {
  /** The text with the pass's edits applied (the input when none applied). */
  readonly text: string;
  /** The diagnostics whose fixes were applied, in position order. */
  readonly applied: readonly Diagnostic[];
  /** Machine-applicable fixes left for a later pass because they overlap an applied one. */
  readonly deferred: readonly Diagnostic[];
}

/** One pass: every machine-applicable fix of `diagnostics` that overlaps none taken before it. */
export function applyFixEdits(text: string, diagnostics: readonly Diagnostic[]): FixPass {
  const lines = new LineMap(text);
  const taken: OffsetEdit[] = [];
  const takenFixes = new Set<string>();
  const applied: Diagnostic[] = [];
  const deferred: Diagnostic[] = [];
  for (const d of diagnostics) {
    if (!isMachineApplicable(d.fix)) continue;
    const edits = d.fix.edits
      .map((e): OffsetEdit => ({ ...offsetRange(lines, e), newText: e.new_text }))
      .sort(compareEdits);
    const key = JSON.stringify(edits);
    if (takenFixes.has(key)) {
      applied.push(d); // the same edits as a fix already taken (one mistake, two diagnostics)
      continue;
    }
    const clash = edits.some((e, i) => edits.slice(i + 1).some((f) => conflict(e, f)));
    if (clash || edits.some((e) => taken.some((t) => conflict(e, t)))) {
      deferred.push(d);
      continue;
    }
    taken.push(...edits);
    takenFixes.add(key);
    applied.push(d);
  }
  taken.sort(compareEdits);
  let out = text;
  for (let i = taken.length - 1; i >= 0; i--) {
    const e = taken[i] as OffsetEdit;
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  }
  return { text: out, applied, deferred };
}

type FixStatus =
  /** No machine-applicable fix: nothing to write. */
  | "unchanged"
  /** Fixes applied and the result has no error: write `text`. */
  | "fixed"
  /** Fixes exist but the file must not be written (see `reason`). */
  | "refused";

export interface FixOutcome {
  readonly status: FixStatus;
  /**
   * Why a spec is refused: `yaml` — the text has YAML errors (nothing is fixed in a text the
   * loader could not read exactly); `errors-remain` — after every fix the text still has errors
   * (those of `fixed`), which --fix cannot fix.
   */
  readonly reason: "yaml" | "errors-remain" | null;
  /** The check of the input text. */
  readonly original: CheckResult;
  /** The check of the text after every pass (the original's when nothing was applied). */
  readonly fixed: CheckResult;
  /** The text to write: `fixed`'s text when the status is `fixed`, else the input unchanged. */
  readonly text: string;
  /** Every applied fix's diagnostic, pass after pass (empty when nothing was applied). */
  readonly applied: readonly Diagnostic[];
  readonly passes: number;
}

export interface FixOptions {
  readonly maxPasses?: number;
  /** The checker (default `checkSpec`); a caller may pass one with other options. */
  readonly check?: (text: string) => CheckResult;
}

/** Applies every machine-applicable fix, pass after pass, re-checking in between. */
export function fixSpec(text: string, options: FixOptions = {}): FixOutcome {
  const check = options.check ?? ((t: string) => checkSpec(t));
  const maxPasses = options.maxPasses ?? MAX_FIX_PASSES;
  const original = check(text);
  const base = { original, applied: [] as Diagnostic[], passes: 0 };
  const hasFix = original.diagnostics.some((d) => isMachineApplicable(d.fix));
  if (!hasFix) return { ...base, status: "unchanged", reason: null, fixed: original, text };
  if (original.errors.some((d) => d.code.startsWith("YAML-"))) {
    return { ...base, status: "refused", reason: "yaml", fixed: original, text };
  }
  let current = original;
  const applied: Diagnostic[] = [];
  let passes = 0;
  while (passes < maxPasses) {
    const pass = applyFixEdits(current.source.text, current.diagnostics);
    if (pass.applied.length === 0 || pass.text === current.source.text) break;
    passes++;
    applied.push(...pass.applied);
    current = check(pass.text);
  }
  if (applied.length === 0) return { ...base, status: "unchanged", reason: null, fixed: original, text };
  if (!current.valid) {
    return { original, fixed: current, text, applied, passes, status: "refused", reason: "errors-remain" };
  }
  return {
    original,
    fixed: current,
    text: current.source.text,
    applied,
    passes,
    status: "fixed",
    reason: null,
  };
}

function compareEdits(a: OffsetEdit, b: OffsetEdit): number {
  return a.start - b.start || a.end - b.end;
}

/** Overlapping ranges, or two edits at the same place (their order would be a guess). */
function conflict(a: OffsetEdit, b: OffsetEdit): boolean {
  return (a.start < b.end && b.start < a.end) || a.start === b.start;
}

function offsetRange(lines: LineMap, r: LocatedRange): { start: number; end: number } {
  const start = offsetOf(lines, r.line, r.column);
  return { start, end: Math.max(start, offsetOf(lines, r.end_line, r.end_column)) };
}

/** The UTF-16 offset of a 1-based line and code-point column (clamped to the line). */
export function offsetOf(lines: LineMap, line: number, column: number): number {
  const index = Math.max(0, Math.min(line - 1, lines.lineCount - 1));
  const text = lines.text;
  const end = lines.lineEnd(index);
  let at = lines.lineStart(index);
  for (let n = 1; n < column && at < end; n++) {
    const c = text.charCodeAt(at);
    const pair = c >= 0xd800 && c <= 0xdbff && at + 1 < end && isLow(text.charCodeAt(at + 1));
    at += pair ? 2 : 1;
  }
  return at;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
