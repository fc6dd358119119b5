// The validation conformance cases (test/conformance/recorded/validation.jsonl) through the YAML front
// end alone: cases that expect a `yaml` family error get exactly those (by line), and every other
// case loads without a YAML error (our loader accepts everything the reference's PyYAML accepts).
import { describe, expect, it } from "vitest";
import { loadValidationCases } from "../../support/spec-conformance";
import { load } from "./support";

const cases = loadValidationCases();

describe("validation cases through the YAML loader", () => {
  it("has the recorded cases", () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  for (const c of cases) {
    const expected = c.expect.errors.filter((e) => e.code_family === "yaml");
    it(`${c.name}: ${expected.length > 0 ? "YAML error" : "no YAML error"}`, () => {
      const l = load(c.yaml);
      const errors = l.diagnostics.filter((d) => d.severity === "error");
      expect(errors.length).toBe(expected.length);
      expected.forEach((e, i) => {
        const d = errors[i];
        if (d === undefined) throw new Error("missing diagnostic");
        const line = l.src.lineOf(d.range.start);
        expect(Array.isArray(e.line) ? e.line : [e.line]).toContain(line);
        // Where the reference reports the same problem, the message keeps its first line's wording.
        const ref = c.reference.errors[0];
        if (d.code === "YAML-EMPTY") expect(d.message).toBe(ref?.message);
        expect(d.suggestion).toBe(ref?.suggestion);
        expect(d.errorType).toBe(ref?.error_type);
      });
      expect(l.ok).toBe(expected.length === 0);
    });
  }
});
