// The validation.jsonl cases, run through the real loader, structure phase and SEMANTIC_RULES
// only. Of each case's expected triples (family, path, line), those that these rules produce —
// every triple of the gate, step-mode, iteration, workflow and contract families and the
// reference triples of names (function, flow, contract, route), except the ones another phase
// owns (listed below) — must be reported. In a case without structural errors, our error
// triples must all be expected (test/conformance/recorded/README.md §1.1: a structurally broken document may get more).
import { describe, expect, it } from "vitest";
import { familyOf } from "../../../checker/catalogue";
import type { Diagnostic } from "../../../checker/diagnostic";
import { SEMANTIC_RULES } from "../../../checker/rules/index";
import {
  type ExpectedTriple,
  loadValidationCases,
  STRUCTURAL_FAMILIES,
} from "../../support/spec-conformance";
import { runPhases } from "./support";

const OWNED = new Set(SEMANTIC_RULES.map((r) => r.code));
const NAME_FIELDS = /\.(function|flow|output|output_contract|on_approve|on_revise|on_kill|on_fail|next)$/;

/** Expected triples that other phases report (graph rules, SPEC-OUTPUT-SCHEMA-INVALID). */
const OTHER_PHASES: ReadonlySet<string> = new Set([
  "gate_forward_revise flows.f.steps.r.on_revise", // SPEC-GATE-ON-REVISE-EARLIER (graph)
]);

function ours(caseName: string, t: ExpectedTriple, warning: boolean): boolean {
  if (t.path === null || OTHER_PHASES.has(`${caseName} ${t.path}`)) return false;
  switch (t.code_family) {
    case "gate":
    case "step-mode":
    case "iteration":
    case "workflow":
      return true;
    case "contract":
      return !t.path.endsWith(".output_schema");
    case "reference":
      return NAME_FIELDS.test(t.path);
    case "routing":
      return t.path.endsWith(".on_fail"); // SPEC-STEP-UNREACHABLE is a graph rule
    case "schema":
      return warning && /^functions\.[^.]+$/.test(t.path); // SPEC-FN-INTENT/INPUT-REQUIRED
    default:
      return false;
  }
}

function matches(t: ExpectedTriple, d: Diagnostic): boolean {
  const lines = typeof t.line === "number" ? [t.line] : t.line;
  return familyOf(d.code, d.path) === t.code_family && d.path === t.path && lines.includes(d.line);
}

const show = (d: Diagnostic) => `${d.code} ${d.path} line ${d.line}`;

describe("validation.jsonl through the semantic rules", () => {
  const cases = loadValidationCases();

  it("the filter keeps the 43 expected triples these rules own (one per case)", () => {
    const owned = cases.flatMap((c) => [
      ...c.expect.errors.filter((t) => ours(c.name, t, false)),
      ...(c.expect.warnings ?? []).filter((t) => ours(c.name, t, true)),
    ]);
    expect(owned).toHaveLength(43);
  });

  for (const c of cases) {
    it(c.name, () => {
      const run = runPhases(c.yaml);
      for (const d of run.rules) expect(OWNED.has(d.code), d.code).toBe(true);
      const errors = run.rules.filter((d) => d.severity === "error");
      const warnings = run.rules.filter((d) => d.severity !== "error");
      const missing = [
        ...c.expect.errors.filter((t) => ours(c.name, t, false) && !errors.some((d) => matches(t, d))),
        ...(c.expect.warnings ?? []).filter(
          (t) => ours(c.name, t, true) && !warnings.some((d) => matches(t, d)),
        ),
      ];
      expect(missing, `ours: ${run.rules.map(show).join("; ")}`).toEqual([]);
      const structural = c.expect.errors.some((t) => STRUCTURAL_FAMILIES.has(t.code_family));
      if (!structural) {
        const unexpected = errors.filter((d) => !c.expect.errors.some((t) => matches(t, d)));
        expect(unexpected.map(show)).toEqual([]);
      }
    });
  }
});
