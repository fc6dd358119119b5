// The validation conformance cases (test/conformance/recorded/validation.jsonl) as far as the graph
// rules decide them: every expected triple these rules own must be reported, and every error
// they report must be expected. Owned: families cycle, recursion, duplicate; `reference` at a
// `.depends_on` path; `routing` warnings on a whole step (unreachable); and the gate on_revise
// triples of the cases listed in OWNED_GATE (the other on_revise rules belong elsewhere).
import { describe, expect, it } from "vitest";
import { GRAPH_RULES } from "../../../checker/graph/index";
import { DiagnosticSink } from "../../../checker/report";
import {
  type ExpectedTriple,
  loadValidationCases,
  STRUCTURAL_FAMILIES,
  showExpected,
  type ValidationCase,
} from "../../support/spec-conformance";
import { at, specModel } from "./support/model";

const CASES = loadValidationCases();
const OWNED_GATE = new Set(["gate_forward_revise"]);
const FAMILY = new Map(GRAPH_RULES.map((r) => [r.code, r.family]));

function owned(c: ValidationCase, e: ExpectedTriple): boolean {
  switch (e.code_family) {
    case "cycle":
    case "recursion":
    case "duplicate":
      return true;
    case "reference":
      return e.path?.endsWith(".depends_on") === true;
    case "routing":
      return e.path !== null && /^flows\.[^.]+\.steps\.[^.]+$/.test(e.path);
    case "gate":
      return OWNED_GATE.has(c.name) && e.path?.endsWith(".on_revise") === true;
    default:
      return false;
  }
}

interface Triple {
  readonly family: string;
  readonly path: string;
  readonly line: number;
  readonly severity: string;
  readonly text: string;
}

function graphTriples(c: ValidationCase): Triple[] {
  const model = specModel(c.yaml);
  const sink = new DiagnosticSink();
  for (const rule of GRAPH_RULES) rule.check(model, sink);
  return sink.diagnostics.map((d) => ({
    family: FAMILY.get(d.code) ?? "?",
    path: d.path,
    line: at(model.source, d.range).line,
    severity: d.severity,
    text: `${d.code} ${d.path}: ${d.message}`,
  }));
}

function matches(t: Triple, e: ExpectedTriple): boolean {
  if (t.family !== e.code_family || (e.path !== null && t.path !== e.path)) return false;
  return typeof e.line === "number" ? t.line === e.line : e.line.includes(t.line);
}

// Cases with a structural error are not interpreted further (test/conformance/recorded/README.md §1.1): they are not graph cases.
const SEMANTIC = CASES.filter((c) => !c.expect.errors.some((e) => STRUCTURAL_FAMILIES.has(e.code_family)));

describe("validation.jsonl through the graph rules", () => {
  it("has the graph cases", () => {
    const families = new Set(SEMANTIC.flatMap((c) => c.expect.errors.map((e) => e.code_family)));
    for (const f of ["cycle", "recursion", "duplicate"]) expect(families.has(f)).toBe(true);
    expect(SEMANTIC.length).toBeGreaterThan(60);
  });

  for (const c of SEMANTIC) {
    it(c.name, () => {
      const ours = graphTriples(c);
      const problems: string[] = [];
      const expected = [...c.expect.errors, ...(c.expect.warnings ?? [])];
      for (const e of expected) {
        if (owned(c, e) && !ours.some((t) => matches(t, e))) problems.push(`missing ${showExpected(e)}`);
      }
      for (const t of ours) {
        if (t.severity === "error" && !c.expect.errors.some((e) => matches(t, e))) {
          problems.push(`unexpected error (${t.family}, ${t.path}, line ${t.line}) ${t.text}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
