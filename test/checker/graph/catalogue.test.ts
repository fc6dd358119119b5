// The graph rules' catalogue entries: order of docs/reference/language.md §9.5.4, severities, families of docs/reference/language.md §9.5.6, docs.
import { describe, expect, it } from "vitest";
import { GRAPH_RULES } from "../../../checker/graph/index";

describe("GRAPH_RULES", () => {
  it("lists the graph rules in catalogue order with their severity and family", () => {
    expect(GRAPH_RULES.map((r) => [r.code, r.severity, r.family, r.errorType])).toEqual([
      ["SPEC-STEP-DUPLICATE-ID", "error", "duplicate", "ir_semantic_error"],
      ["SPEC-DEPENDS-ON-UNKNOWN", "error", "reference", "ir_semantic_error"],
      ["SPEC-DEPENDS-ON-DUPLICATE", "warning", "duplicate", "ir_semantic_error"],
      ["SPEC-GATE-ON-REVISE-EARLIER", "error", "gate", "ir_semantic_error"],
      ["SPEC-FLOW-RECURSION", "error", "recursion", "ir_semantic_error"],
      ["SPEC-DEPENDENCY-CYCLE", "error", "cycle", "ir_semantic_error"],
      ["SPEC-STEP-UNREACHABLE", "warning", "routing", "ir_semantic_error"],
    ]);
  });

  it("each has a one-line title and a doc of one to four sentences", () => {
    for (const r of GRAPH_RULES) {
      expect(r.title).not.toMatch(/\n/);
      const sentences = r.doc.split(/(?<=\.)\s+/).filter((s) => s !== "");
      expect(sentences.length, r.code).toBeGreaterThanOrEqual(1);
      expect(sentences.length, r.code).toBeLessThanOrEqual(4);
    }
  });
});
