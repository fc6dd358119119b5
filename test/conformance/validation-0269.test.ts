// How far our validator is from the reference's at version 0.2.69: every spec of the reference's
// own test suite (recorded by scripts/record-0269-validation.py into
// recorded/validation-0269.jsonl) is validated here and `valid` compared with the reference's.
// The specs on which we differ are listed below with their cause. The list may only shrink: the
// test fails when a new disagreement appears and when a listed one goes away (then remove it).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validate } from "../../interpreter/flow/validate";

interface RecordedCase {
  readonly name: string;
  readonly source: string;
  readonly yaml: string;
  readonly reference: { readonly valid: boolean; readonly errors: readonly { readonly message: string }[] };
}

const recorded = readFileSync(new URL("recorded/validation-0269.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as RecordedCase | { header: true })
  .filter((c): c is RecordedCase => !("header" in c));

// Causes, in our words. "D1"/"D3"/"D6" are the divergence ids of test/conformance/recorded/README.md §3.
const TEST_BUILTINS =
  "D3/D6: names the reference's test injects into its ensure environment (`_passthrough_violations`, `_mock_plan_completion`) are unknown to our static check";
const INLINE_CONTRACT =
  "D3: inline `output_contract` naming an undefined contract (the reference does not check it)";
const FIELD_TYPES =
  "D3: `exit_criterion` reads a field its contract does not declare (type checking of expressions)";
const SCORE_BOOL =
  "D3: `score_expr` reads a boolean field; a bool is not a score (the reference records score_error at run time)";
const SCORE_FIELD =
  "D3: `score_expr` reads a field its contract does not declare (the reference records score_error at run time)";
const SOURCE_TYPE =
  "D3: parallel_dispatch `source` is `$.input.x` of type string, not a list (type checking)";

/** Every recorded spec whose `valid` differs from the reference's, with its cause. */
const DISAGREEMENTS: Readonly<Record<string, string>> = {
  "mcp.integration.test_ensure_violation_passthrough-1": TEST_BUILTINS,
  "mcp.integration.test_ensure_violation_passthrough-2": TEST_BUILTINS,
  "mcp.contracts.test_ir_v02_extensions-7": INLINE_CONTRACT,
  "mcp.integration.test_iterations-5": FIELD_TYPES,
  "mcp.integration.test_score_expr-11": SCORE_BOOL,
  "mcp.integration.test_score_expr-12": SCORE_FIELD,
  "mcp.test_workflow_bg_e2e-2": SOURCE_TYPE,
};

/**
 * Specs both validators reject, where ours rejects only because it does not know a 0.2.69 key
 * (an unknown key the reference accepts) while the reference rejects them for a
 * rule about that key. They agree on `valid` today by accident: once the key is supported, each
 * must still be invalid, for the reference's reason (given here).
 */
const AGREE_BY_ACCIDENT: Readonly<Record<string, string>> = {};

interface OurAnswer {
  readonly valid: boolean;
  readonly errors: readonly { readonly code: string }[];
}

function ours(yaml: string): OurAnswer {
  return validate({ spec: yaml }) as unknown as OurAnswer;
}

function oursValid(yaml: string): boolean {
  return ours(yaml).valid;
}

/** Rejected by both, ours through a key it does not know and the reference through a rule. */
function agreesByAccident(c: RecordedCase): boolean {
  if (c.reference.valid) return false;
  const referenceSchemaKey = /Additional properties are not allowed/.test(
    c.reference.errors[0]?.message ?? "",
  );
  return ours(c.yaml).errors.some((e) => e.code === "SCHEMA-UNKNOWN-KEY" && !referenceSchemaKey);
}

describe("stratum_validate against the 0.2.69 reference on its own test specs", () => {
  it("holds the recorded cases, with unique names", () => {
    expect(recorded.length).toBe(197);
    expect(new Set(recorded.map((c) => c.name)).size).toBe(recorded.length);
    for (const name of Object.keys(DISAGREEMENTS)) expect(recorded.map((c) => c.name)).toContain(name);
  });

  it("differs in `valid` exactly on the listed specs", () => {
    const differing = recorded.filter((c) => oursValid(c.yaml) !== c.reference.valid).map((c) => c.name);
    expect(differing.sort()).toEqual(Object.keys(DISAGREEMENTS).sort());
  });

  it("agrees by accident exactly on the listed specs (ours rejects an unknown 0.2.69 key)", () => {
    const accidental = recorded.filter(agreesByAccident).map((c) => c.name);
    expect(accidental.sort()).toEqual(Object.keys(AGREE_BY_ACCIDENT).sort());
  });
});
