// The recorded validation cases (test/conformance/recorded/validation.jsonl, test/conformance/recorded/README.md §1) as far as the
// structure tests need them.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CONFORMANCE_DIR } from "../../support/shared";

export interface Triple {
  readonly code_family: string;
  readonly path: string | null;
  readonly line: number | readonly number[];
}

export interface ValidationCase {
  readonly name: string;
  readonly yaml: string;
  readonly expect: { readonly valid: boolean; readonly errors: readonly Triple[] };
}

export function readValidationCases(): ValidationCase[] {
  const text = readFileSync(resolve(CONFORMANCE_DIR, "validation.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ValidationCase);
}

/** The structural families of test/conformance/recorded/README.md §1.2 (a document failing them is not interpreted further). */
export const STRUCTURAL = new Set(["yaml", "version", "schema", "unknown-key", "unsupported"]);
