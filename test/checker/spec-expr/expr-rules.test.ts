// The rule objects used to report the expression checker's diagnostics agree with the catalogue,
// and the reference rules are in it with their families (docs/reference/language.md §9.5.6).
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../checker/catalogue";
import { MESSAGES } from "../../../checker/messages";
import { exprRule } from "../../../checker/spec-expr/expr-rules";
import { REFERENCE_RULES } from "../../../checker/spec-expr/index";

describe("expression rule objects", () => {
  for (const code of Object.keys(MESSAGES)) {
    it(`${code} matches the catalogue`, () => {
      const mine = exprRule(code);
      const theirs = CATALOGUE.get(code);
      expect(theirs).toBeDefined();
      expect({
        code: mine.code,
        severity: mine.severity,
        family: mine.family,
        errorType: mine.errorType,
      }).toEqual({
        code: theirs?.code,
        severity: theirs?.severity,
        family: theirs?.family,
        errorType: theirs?.errorType,
      });
    });
  }

  it("the reference rules are catalogued with their severities and families", () => {
    expect(
      REFERENCE_RULES.map((r) => [r.code, r.severity, r.family, r.errorType, CATALOGUE.get(r.code) === r]),
    ).toEqual([
      ["SPEC-REF-UNKNOWN-STEP", "error", "reference", "ir_semantic_error", true],
      ["SPEC-REF-UNDECLARED-INPUT", "error", "reference", "ir_semantic_error", true],
      ["SPEC-REF-UNKNOWN-FIELD", "error", "expr-type", "ir_semantic_error", true],
      ["SPEC-REF-MAY-NOT-HAVE-RUN", "warning", "reference", "ir_semantic_error", true],
      ["SPEC-PARALLEL-SOURCE-NOT-REFERENCE", "error", "reference", "ir_semantic_error", true],
      ["SPEC-PARALLEL-SOURCE-NOT-LIST", "error", "reference", "ir_semantic_error", true],
      ["SPEC-PARALLEL-TEMPLATE-FIELD", "warning", "reference", "ir_semantic_error", true],
      ["SPEC-PARALLEL-REQUIRE-EXCEEDS-TASKS", "error", "reference", "ir_semantic_error", true],
      ["SPEC-PIPELINE-PREDICATE-PATH", "error", "reference", "ir_semantic_error", true],
      ["SPEC-QUORUM-AGREE-ON-UNHASHABLE", "error", "expr-type", "ir_semantic_error", true],
      ["SPEC-PROPERTY-NOT-BOOL", "error", "expr-type", "ir_semantic_error", true],
    ]);
    for (const r of REFERENCE_RULES) {
      expect(r.title.length).toBeGreaterThan(0);
      expect(r.doc.split(/(?<=\.)\s/).length).toBeLessThanOrEqual(4);
    }
  });
});
