// The validation conformance data (test/conformance/recorded/validation.jsonl) and the comparison rules of
// its test/conformance/recorded/README.md §1.1: a product result is reduced to (family, path, line) triples and compared with the
// case's `expect`. Pure functions, so the comparator itself can be tested on synthetic results.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CONFORMANCE_DIR } from "./shared";

const VALIDATION_JSONL = resolve(CONFORMANCE_DIR, "validation.jsonl");

export interface ExpectedTriple {
  readonly code_family: string;
  /** null only for family `yaml`: any path matches. */
  readonly path: string | null;
  /** A list means any of these lines is accepted. */
  readonly line: number | readonly number[];
}

interface ReferenceError {
  readonly success: boolean;
  readonly error_type: string;
  readonly path?: string;
  readonly message: string;
  readonly suggestion?: string;
}

export interface ValidationCase {
  readonly name: string;
  readonly description: string;
  readonly yaml: string;
  readonly reference: { readonly valid: boolean; readonly errors: readonly ReferenceError[] };
  readonly expect: {
    readonly valid: boolean;
    readonly errors: readonly ExpectedTriple[];
    readonly warnings?: readonly ExpectedTriple[];
  };
  readonly divergence?: string;
  readonly divergence_note?: string;
}

export function loadValidationCases(file: string = VALIDATION_JSONL): ValidationCase[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== "object" || parsed === null || !("name" in parsed) || !("expect" in parsed)) {
        throw new Error(`${file}:${i + 1}: not a validation case`);
      }
      return parsed as ValidationCase;
    });
}

/** What the comparison needs of one product diagnostic. */
export interface ProductDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly error_type: string;
  readonly path: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

export interface ProductResult {
  readonly valid: boolean;
  readonly diagnostics: readonly ProductDiagnostic[];
}

export const STRUCTURAL_FAMILIES: ReadonlySet<string> = new Set([
  "yaml",
  "version",
  "schema",
  "unknown-key",
  "unsupported",
]);

const ERROR_TYPES: ReadonlySet<string> = new Set([
  "ir_parse_error",
  "ir_validation_error",
  "ir_semantic_error",
]);

interface Triple {
  readonly family: string;
  readonly path: string;
  readonly line: number;
  readonly d: ProductDiagnostic;
}

function matches(t: Triple, e: ExpectedTriple): boolean {
  if (t.family !== e.code_family) return false;
  if (e.path !== null && t.path !== e.path) return false;
  return typeof e.line === "number" ? t.line === e.line : e.line.includes(t.line);
}

export function showExpected(e: ExpectedTriple): string {
  const line = typeof e.line === "number" ? String(e.line) : `one of ${e.line.join("/")}`;
  return `(${e.code_family}, ${e.path === null ? "<any path>" : e.path}, line ${line})`;
}

function showTriple(t: Triple): string {
  return `(${t.family}, ${t.path}, line ${t.line}) [${t.d.code}] ${t.d.message}`;
}

/**
 * The test/conformance/recorded/README.md §1.1 comparison. `familyOf` maps a code and path to a conformance family (undefined for a
 * code outside the catalogue, itself a failure). Returns the problems; empty means the case passes.
 */
export function compareWithExpect(
  c: ValidationCase,
  result: ProductResult,
  familyOf: (code: string, path: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  if (result.valid !== c.expect.valid) {
    problems.push(`valid: expected ${c.expect.valid}, got ${result.valid}`);
  }
  const triples: Triple[] = [];
  for (const d of result.diagnostics) {
    const family = familyOf(d.code, d.path);
    if (family === undefined) {
      problems.push(`diagnostic code ${d.code} has no conformance family (not in the catalogue)`);
      continue;
    }
    triples.push({ family, path: d.path, line: d.line, d });
  }
  const errors = triples.filter((t) => t.d.severity === "error");
  const warnings = triples.filter((t) => t.d.severity === "warning");

  for (const e of c.expect.errors) {
    if (!errors.some((t) => matches(t, e))) problems.push(`missing expected error ${showExpected(e)}`);
  }
  // Structural exception: with a structural family expected, only structural triples must match.
  const structural = c.expect.errors.some((e) => STRUCTURAL_FAMILIES.has(e.code_family));
  for (const t of errors) {
    if (structural && !STRUCTURAL_FAMILIES.has(t.family)) continue;
    if (!c.expect.errors.some((e) => matches(t, e))) problems.push(`unexpected error ${showTriple(t)}`);
  }
  for (const e of c.expect.warnings ?? []) {
    if (!warnings.some((t) => matches(t, e))) problems.push(`missing expected warning ${showExpected(e)}`);
  }
  return problems;
}

/** One line per product diagnostic, for failure reports. */
export function listDiagnostics(result: ProductResult): string {
  if (result.diagnostics.length === 0) return "    (no diagnostics)";
  return result.diagnostics
    .map(
      (d) => `    ${d.line}:${d.column} ${d.severity} ${d.code} at ${JSON.stringify(d.path)}: ${d.message}`,
    )
    .join("\n");
}

export interface MessageMismatch {
  readonly name: string;
  readonly path: string;
  readonly reference: string;
  readonly ours: readonly string[];
}

/**
 * The optional stricter check of test/conformance/recorded/README.md §1.1 item 5: where we report at the reference error's path, one
 * of our diagnostics there must carry the reference's message. Also checks every error_type.
 */
export function messageMismatches(c: ValidationCase, result: ProductResult): MessageMismatch[] {
  const out: MessageMismatch[] = [];
  for (const d of result.diagnostics) {
    if (!ERROR_TYPES.has(d.error_type)) {
      out.push({ name: c.name, path: d.path, reference: "(an allowed error_type)", ours: [d.error_type] });
    }
  }
  for (const ref of c.reference.errors) {
    if (ref.path === undefined) continue;
    // A note (info) is never our version of the reference's error, even at the same path.
    const here = result.diagnostics.filter((d) => d.path === ref.path && d.severity !== "info");
    if (here.length === 0 || here.some((d) => d.message === ref.message)) continue;
    out.push({ name: c.name, path: ref.path, reference: ref.message, ours: here.map((d) => d.message) });
  }
  return out;
}

/**
 * Cases whose recorded `expect` applied a divergence that has since been retired: the rows of
 * divergences.md that reject a reference feature retire when the feature lands (principle
 * "scope"). Such a case is compared with the reference's own result instead (valid, no errors).
 */
export const RETIRED_DIVERGENCES: ReadonlyMap<string, string> = new Map([
  // `reasoning_template` is supported as 0.2.50 implements it (DIV-BEYOND-FIELDS row).
  ["unsupported_reasoning_template", "reasoning_template supported"],
  // The run-budget keys are supported as 0.2.69 enforces them (DIV-BEYOND-FIELDS row, docs/reference/runtime.md §11.4).
  ["unsupported_budget_dispatches", "max_agent_dispatches supported"],
  // `score_expr` is supported as 0.2.69 (and 0.2.50) implement it (docs/reference/language.md §11.2).
  ["unsupported_score_expr", "score_expr supported"],
  // The ensure helpers of 0.2.69 are builtins (docs/reference/language.md §10.9).
  ["ensure_beyond_surface_builtin", "plan_completion supported"],
]);
