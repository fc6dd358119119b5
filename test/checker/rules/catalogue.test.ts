// SEMANTIC_RULES: every rule this module owns, in catalogue order (docs/reference/language.md §9.5.3 then docs/reference/language.md §9.5.4), with its
// severity, family (docs/reference/language.md §9.5.6), error type and documentation.
import { describe, expect, it } from "vitest";
import { SEMANTIC_RULES } from "../../../checker/rules/index";

const ORDER: readonly [code: string, severity: "error" | "warning" | "info", family: string][] = [
  ["SPEC-GATE-FN-ENSURE", "error", "gate"],
  ["SPEC-GATE-FN-BUDGET", "error", "gate"],
  ["SPEC-GATE-FN-RETRIES", "error", "gate"],
  ["SPEC-GATE-FN-GUARDRAILS", "error", "gate"],
  ["SPEC-FN-OUTPUT-CONTRACT-UNDEFINED", "error", "reference"],
  ["SPEC-FN-INTENT-REQUIRED", "warning", "schema"],
  ["SPEC-FN-INPUT-REQUIRED", "warning", "schema"],
  ["SPEC-FN-TIMEOUT-NOT-GATE", "warning", "gate"],
  ["SPEC-WORKFLOW-NO-ENTRY", "error", "workflow"],
  ["SPEC-WORKFLOW-INPUT-MISMATCH", "error", "workflow"],
  ["SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED", "error", "reference"],
  ["SPEC-CONTRACT-FIELD-TYPE-UNKNOWN", "error", "contract"],
  ["SPEC-CONTRACT-VALUES-TYPE", "error", "contract"],
  ["SPEC-CONTRACT-ITEMS-NOT-ARRAY", "warning", "contract"],
  ["SPEC-CONTRACT-FIELD-UNKNOWN-KEY", "warning", "contract"],
  ["SPEC-CONTRACT-SHORTHAND", "info", "contract"],
  ["SPEC-STEP-MODE", "error", "step-mode"],
  ["SPEC-STEP-FUNCTION-UNDEFINED", "error", "reference"],
  ["SPEC-FN-STEP-FIELD", "error", "step-mode"],
  ["SPEC-GATE-OUTPUT-SCHEMA", "error", "gate"],
  ["SPEC-GATE-MAX-ITERATIONS", "error", "gate"],
  ["SPEC-GATE-EXIT-CRITERION", "warning", "gate"],
  ["SPEC-GATE-ACCUMULATE", "error", "gate"],
  ["SPEC-GATE-SCORE-EXPR", "error", "gate"],
  ["SPEC-GATE-ROUTE-UNDECLARED", "error", "gate"],
  ["SPEC-GATE-ON-REVISE-MISSING", "error", "gate"],
  ["SPEC-GATE-ON-REVISE-SELF", "error", "gate"],
  ["SPEC-ROUTE-UNKNOWN-STEP", "error", "reference"],
  ["SPEC-STEP-FLOW-UNDEFINED", "error", "reference"],
  ["SPEC-FLOW-STEP-AGENT", "error", "step-mode"],
  ["SPEC-FLOW-STEP-FIELD", "error", "step-mode"],
  ["SPEC-NONGATE-GATE-ROUTE", "error", "gate"],
  ["SPEC-NONGATE-GATE-ROUTE-NULL", "warning", "gate"],
  ["SPEC-ON-FAIL-NO-VALIDATION", "error", "routing"],
  ["SPEC-REASONING-TEMPLATE-STEP-KIND", "error", "step-mode"],
  ["SPEC-REASONING-TEMPLATE-SECTIONS", "error", "schema"],
  ["SPEC-NONGATE-POLICY", "error", "gate"],
  ["SPEC-CACHE-INELIGIBLE", "error", "step-mode"],
  ["SPEC-EXIT-CRITERION-NO-MAX", "error", "iteration"],
  ["SPEC-ACCUMULATE-NO-MAX", "error", "iteration"],
  ["SPEC-ACCUMULATE-KEY-NO-ACCUMULATE", "error", "iteration"],
  ["SPEC-SCORE-EXPR-NO-MAX", "error", "iteration"],
  ["SPEC-GATE-ON-FAIL", "error", "gate"],
  ["SPEC-GATE-NEXT", "error", "gate"],
  ["SPEC-GATE-POLICY-FALLBACK-NO-POLICY", "error", "gate"],
  ["SPEC-OUTPUT-CONTRACT-UNDEFINED", "error", "reference"],
  ["SPEC-GUARDRAIL-REGEX", "error", "contract"],
  ["SPEC-GUARDRAIL-REGEX-UNSUPPORTED", "warning", "contract"],
  ["SPEC-DECOMPOSE-MISSING-KEY", "error", "step-mode"],
  ["SPEC-PARALLEL-MISSING-KEY", "error", "step-mode"],
  ["SPEC-PARALLEL-ONLY-KEY", "error", "step-mode"],
  ["SPEC-PARALLEL-REASONING-TEMPLATE", "error", "step-mode"],
  ["SPEC-PARALLEL-UNSUPPORTED-KEY", "error", "iteration"],
  ["SPEC-STEP-KIND-IGNORED-KEY", "warning", "step-mode"],
  ["SPEC-PARALLEL-KEY-IGNORED", "warning", "step-mode"],
  ["SPEC-STEP-TYPE-MISMATCH", "warning", "step-mode"],
  ["SPEC-PARALLEL-MEMBER-CONTRACT-UNDEFINED", "error", "reference"],
  ["SPEC-PIPELINE-MISSING-KEY", "error", "step-mode"],
  ["SPEC-PIPELINE-ONLY-KEY", "error", "step-mode"],
  ["SPEC-PIPELINE-STEP-TEMPLATE", "error", "step-mode"],
  ["SPEC-PIPELINE-FANOUT-SHAPE", "error", "step-mode"],
  ["SPEC-PIPELINE-FANOUT-ROUTE", "error", "step-mode"],
  ["SPEC-PIPELINE-TEMPLATE-PLACEHOLDER", "warning", "reference"],
  ["SPEC-QUORUM-MISSING-KEY", "error", "step-mode"],
  ["SPEC-QUORUM-ONLY-KEY", "error", "step-mode"],
  ["SPEC-QUORUM-THRESHOLD-INVALID", "error", "schema"],
  ["SPEC-QUORUM-THRESHOLD-UNREACHABLE", "error", "step-mode"],
  ["SPEC-RACE-MISSING-KEY", "error", "step-mode"],
  ["SPEC-RACE-ONLY-KEY", "error", "step-mode"],
  ["SPEC-MEMBER-DUPLICATE-ID", "error", "step-mode"],
  ["SPEC-DEBATE-MISSING-KEY", "error", "step-mode"],
  ["SPEC-DEBATE-ONLY-KEY", "error", "step-mode"],
  ["SPEC-DEBATE-CONTRACT-UNDEFINED", "error", "reference"],
  ["SPEC-PROPERTY-NAME", "error", "schema"],
  ["SPEC-PROPERTY-KIND", "error", "schema"],
  ["SPEC-PROPERTY-FLOW-UNDEFINED", "error", "reference"],
];

describe("SEMANTIC_RULES", () => {
  it("lists every owned rule once, in catalogue order, with severity and family", () => {
    expect(SEMANTIC_RULES.map((r) => [r.code, r.severity, r.family])).toEqual(ORDER);
  });

  it("every rule is a semantic error type with a title and a 1–4 sentence doc", () => {
    for (const rule of SEMANTIC_RULES) {
      expect(rule.errorType, rule.code).toBe("ir_semantic_error");
      expect(rule.title.length, rule.code).toBeGreaterThan(0);
      const sentences = rule.doc.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, `${rule.code}: ${rule.doc}`).toBeGreaterThanOrEqual(1);
      expect(sentences, `${rule.code}: ${rule.doc}`).toBeLessThanOrEqual(4);
    }
  });
});
