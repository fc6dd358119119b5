// The structural part of the validation conformance data (test/conformance/recorded/README.md §1.1 "structural exception"):
// for every case, the (family, path, line) triples of our YAML and structure phases equal the
// expected triples of the structural families — and are empty when none is expected.
import { describe, expect, it } from "vitest";
import { familyOf } from "../../../checker/catalogue";
import { checkStructure } from "../../../checker/model/check-structure";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { RETIRED_DIVERGENCES } from "../../support/spec-conformance";
import { readValidationCases, STRUCTURAL, type Triple } from "./validation-cases";

interface Ours {
  readonly family: string;
  readonly path: string;
  readonly line: number;
}

function structuralTriples(text: string): Ours[] {
  const src = new SpecSource(text);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(src, sink);
  if (loaded.ok) checkStructure(src, loaded.root, sink);
  return sink.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({
      family: familyOf(d.code, d.path) ?? `?${d.code}`,
      path: d.path,
      line: src.lineOf(d.range.start),
    }));
}

function matches(e: Triple, o: Ours): boolean {
  const lines = typeof e.line === "number" ? [e.line] : e.line;
  return e.code_family === o.family && (e.path === null || e.path === o.path) && lines.includes(o.line);
}

const cases = readValidationCases();

describe("validation.jsonl, structural families", () => {
  it("has the recorded cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(156);
  });

  for (const c of cases) {
    // A retired divergence: the reference's result (valid) is expected instead.
    const expected = RETIRED_DIVERGENCES.has(c.name)
      ? []
      : c.expect.errors.filter((e) => STRUCTURAL.has(e.code_family));
    it(`${c.name}: ${expected.length === 0 ? "no structural error" : expected.map((e) => e.code_family).join(", ")}`, () => {
      const ours = structuralTriples(c.yaml);
      // Every product triple is expected, and every expected triple is produced.
      const unexpected = ours.filter((o) => !expected.some((e) => matches(e, o)));
      const missing = expected.filter((e) => !ours.some((o) => matches(e, o)));
      expect({ unexpected, missing }).toEqual({ unexpected: [], missing: [] });
    });
  }
});
