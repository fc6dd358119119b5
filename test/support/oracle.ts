// Runs test/differential/oracle.py (CPython evaluating our documented semantics) on a batch of
// cases: one python3 process per call, JSONL in, one JSON line out per case.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ORACLE_SCRIPT = fileURLToPath(new URL("../differential/oracle.py", import.meta.url));

export interface OracleCase {
  readonly expr: string;
  /** JSON object text (kept as text so that big integers stay exact). */
  readonly bindings?: string;
}

export type OracleResult = { readonly repr: string } | { readonly error: string };

/** `{"expr": …, "bindings": …}` as one JSONL line, bindings spliced in verbatim. */
export function oracleLine(c: OracleCase): string {
  return `{"expr": ${JSON.stringify(c.expr)}, "bindings": ${c.bindings ?? "{}"}}`;
}

export function runOracle(cases: readonly OracleCase[]): OracleResult[] {
  if (cases.length === 0) return [];
  const input = `${cases.map(oracleLine).join("\n")}\n`;
  const stdout = execFileSync("python3", [ORACLE_SCRIPT], {
    input,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
  });
  const lines = stdout.split("\n").filter((l) => l.length > 0);
  if (lines.length !== cases.length) {
    throw new Error(`oracle answered ${lines.length} lines for ${cases.length} cases`);
  }
  return lines.map((l) => JSON.parse(l) as OracleResult);
}

/** The exception kind of an `<Kind>: <message>` outcome. */
export function errorKind(error: string): string {
  const i = error.indexOf(":");
  return i < 0 ? error : error.slice(0, i);
}

/** The message of an `<Kind>: <message>` outcome. */
export function errorMessage(error: string): string {
  const i = error.indexOf(": ");
  return i < 0 ? "" : error.slice(i + 2);
}

/**
 * Argument-count / keyword errors, whose texts differ from CPython's on purpose
 * (divergences.md DIV-ARITY-MESSAGES): compared by kind only.
 */
export function isArityMessage(message: string): boolean {
  return (
    /^[\w.]+\(\) takes (no arguments|exactly \d+ arguments?|from \d+ to \d+ arguments|at least \d+ arguments?) \(\d+ given\)$/.test(
      message,
    ) ||
    /^[\w.]+\(\) got an unexpected keyword argument '\w+'$/.test(message) ||
    /takes no keyword arguments|is an invalid keyword argument for|expected at (most|least) \d+ arguments?, got \d+|takes (at most|at least|exactly) \w+ arguments? \(\d+ given\)|missing required argument|given by name .* and position/.test(
      message,
    )
  );
}
