// The test/conformance/recorded/README.md §1.1 comparator on synthetic results, so that the conformance harness itself can fail.

import { describe, expect, it } from "vitest";
import {
  compareWithExpect,
  messageMismatches,
  type ProductDiagnostic,
  type ValidationCase,
} from "../support/spec-conformance";

const FAMILIES: Readonly<Record<string, string>> = {
  "YAML-SYNTAX": "yaml",
  "SCHEMA-REQUIRED": "schema",
  "SCHEMA-UNKNOWN-KEY": "unknown-key",
  "SPEC-DEPENDS-ON-UNKNOWN": "reference",
  "SPEC-STEP-MODE": "step-mode",
  "SPEC-STEP-UNREACHABLE": "routing",
};
const familyOf = (code: string) => FAMILIES[code];

function d(code: string, path: string, line: number, severity = "error", message = "m"): ProductDiagnostic {
  return { code, severity, error_type: "ir_semantic_error", path, message, line, column: 1 };
}

function kase(
  expect: ValidationCase["expect"],
  reference: ValidationCase["reference"] = { valid: true, errors: [] },
) {
  return { name: "t", description: "t", yaml: "", reference, expect } satisfies ValidationCase;
}

describe("compareWithExpect", () => {
  const semantic = kase({
    valid: false,
    errors: [{ code_family: "reference", path: "flows.f.steps.a.depends_on", line: 7 }],
  });

  it("accepts an exact match, and several diagnostics on one triple", () => {
    const one = [d("SPEC-DEPENDS-ON-UNKNOWN", "flows.f.steps.a.depends_on", 7)];
    expect(compareWithExpect(semantic, { valid: false, diagnostics: one }, familyOf)).toEqual([]);
    const two = [...one, d("SPEC-DEPENDS-ON-UNKNOWN", "flows.f.steps.a.depends_on", 7, "error", "other")];
    expect(compareWithExpect(semantic, { valid: false, diagnostics: two }, familyOf)).toEqual([]);
  });

  it("reports validity, missing, extra and wrongly placed errors", () => {
    expect(compareWithExpect(semantic, { valid: true, diagnostics: [] }, familyOf)).toEqual([
      "valid: expected false, got true",
      "missing expected error (reference, flows.f.steps.a.depends_on, line 7)",
    ]);
    const wrongLine = [d("SPEC-DEPENDS-ON-UNKNOWN", "flows.f.steps.a.depends_on", 8)];
    expect(compareWithExpect(semantic, { valid: false, diagnostics: wrongLine }, familyOf)).toEqual([
      "missing expected error (reference, flows.f.steps.a.depends_on, line 7)",
      "unexpected error (reference, flows.f.steps.a.depends_on, line 8) [SPEC-DEPENDS-ON-UNKNOWN] m",
    ]);
    const extra = [
      d("SPEC-DEPENDS-ON-UNKNOWN", "flows.f.steps.a.depends_on", 7),
      d("SPEC-STEP-MODE", "flows.f.steps.a", 6),
    ];
    expect(compareWithExpect(semantic, { valid: false, diagnostics: extra }, familyOf)).toEqual([
      "unexpected error (step-mode, flows.f.steps.a, line 6) [SPEC-STEP-MODE] m",
    ]);
  });

  it("rejects codes outside the catalogue", () => {
    const odd = [d("SPEC-DEPENDS-ON-UNKNOWN", "flows.f.steps.a.depends_on", 7), d("NOPE", "x", 1)];
    expect(compareWithExpect(semantic, { valid: false, diagnostics: odd }, familyOf)).toEqual([
      "diagnostic code NOPE has no conformance family (not in the catalogue)",
    ]);
  });

  it("accepts line lists and null yaml paths", () => {
    const yaml = kase({ valid: false, errors: [{ code_family: "yaml", path: null, line: [1, 2] }] });
    expect(
      compareWithExpect(yaml, { valid: false, diagnostics: [d("YAML-SYNTAX", "", 2)] }, familyOf),
    ).toEqual([]);
    expect(
      compareWithExpect(yaml, { valid: false, diagnostics: [d("YAML-SYNTAX", "", 3)] }, familyOf),
    ).toHaveLength(2);
  });

  it("applies the structural exception: extra semantic errors allowed, extra structural ones not", () => {
    const structural = kase({
      valid: false,
      errors: [{ code_family: "schema", path: "flows.f.steps.0", line: 6 }],
    });
    const withSemantic = [
      d("SCHEMA-REQUIRED", "flows.f.steps.0", 6),
      d("SPEC-STEP-MODE", "flows.f.steps.a", 6),
    ];
    expect(compareWithExpect(structural, { valid: false, diagnostics: withSemantic }, familyOf)).toEqual([]);
    const withStructural = [
      d("SCHEMA-REQUIRED", "flows.f.steps.0", 6),
      d("SCHEMA-UNKNOWN-KEY", "flows.f.steps.0", 6),
    ];
    expect(compareWithExpect(structural, { valid: false, diagnostics: withStructural }, familyOf)).toEqual([
      "unexpected error (unknown-key, flows.f.steps.0, line 6) [SCHEMA-UNKNOWN-KEY] m",
    ]);
  });

  it("requires expected warnings with severity warning and ignores other warnings", () => {
    const w = kase({
      valid: true,
      errors: [],
      warnings: [{ code_family: "routing", path: "flows.f.steps.z", line: 9 }],
    });
    const ok = [
      d("SPEC-STEP-UNREACHABLE", "flows.f.steps.z", 9, "warning"),
      d("SPEC-STEP-MODE", "x", 1, "warning"),
    ];
    expect(compareWithExpect(w, { valid: true, diagnostics: ok }, familyOf)).toEqual([]);
    const asError = [d("SPEC-STEP-UNREACHABLE", "flows.f.steps.z", 9, "error")];
    expect(compareWithExpect(w, { valid: true, diagnostics: asError }, familyOf)).toEqual([
      "unexpected error (routing, flows.f.steps.z, line 9) [SPEC-STEP-UNREACHABLE] m",
      "missing expected warning (routing, flows.f.steps.z, line 9)",
    ]);
  });
});

describe("messageMismatches", () => {
  const ref = {
    valid: false,
    errors: [{ success: false, error_type: "ir_semantic_error", path: "p", message: "exact" }],
  };
  const c = kase({ valid: false, errors: [] }, ref);

  it("compares messages only where the path agrees", () => {
    expect(messageMismatches(c, { valid: false, diagnostics: [d("X", "q", 1, "error", "other")] })).toEqual(
      [],
    );
    expect(messageMismatches(c, { valid: false, diagnostics: [d("X", "p", 1, "error", "exact")] })).toEqual(
      [],
    );
    expect(messageMismatches(c, { valid: false, diagnostics: [d("X", "p", 1, "error", "other")] })).toEqual([
      { name: "t", path: "p", reference: "exact", ours: ["other"] },
    ]);
  });

  it("flags an error_type outside the three allowed ones", () => {
    const bad = { ...d("X", "q", 1), error_type: "internal_error" };
    expect(messageMismatches(c, { valid: false, diagnostics: [bad] })).toHaveLength(1);
  });
});
