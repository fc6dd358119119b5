// checker/rules/walk.ts: the one walk of the model for every visiting rule. Each callback sees what
// it asked for (steps by kind, functions, flows, contract field definitions, the spec once), in
// declaration order; and running all the rules in one walk hands the reporter exactly the sequence
// of reports that running them one after another does.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { checkStructure } from "../../../checker/model/check-structure";
import type { SpecModel } from "../../../checker/model/types";
import { DiagnosticSink } from "../../../checker/report";
import { defineRule } from "../../../checker/rule";
import { SEMANTIC_RULES } from "../../../checker/rules/index";
import { OUTPUT_SCHEMA_RULES } from "../../../checker/rules/output-schema/index";
import type { RuleContext, RuleVisitor, VisitingRule } from "../../../checker/rules/types";
import { runVisitingRules } from "../../../checker/rules/walk";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { brokenExamples, cleanExamples } from "../../support/spec-examples";
import { mutatedSpecArb } from "../../support/spec-mutate";
import { modelOf } from "./support";

/** A rule that reports one diagnostic per visit (its message says what), so the sink records the visits. */
function recorder(
  code: string,
  register: (on: RuleVisitor, seen: (context: RuleContext, what: string) => void) => void,
) {
  const rule: VisitingRule = defineRule({
    code,
    severity: "info",
    family: "step-mode",
    errorType: "ir_semantic_error",
    title: "test",
    doc: "test",
    message: (what: string) => what,
    visit(on: RuleVisitor): void {
      register(on, (context, what) =>
        context.reporter.report(rule, { message: what, path: "", range: { start: 0, end: 0 } }),
      );
    },
  });
  return rule;
}

/** The visits the rules recorded, as `<code> <what>`, in the order the reporter received them. */
function record(rules: readonly VisitingRule[], model: SpecModel): string[] {
  const sink = new DiagnosticSink();
  runVisitingRules(rules, model, sink);
  return sink.diagnostics.map((d) => `${d.code} ${d.message}`);
}

const SPEC = `version: "0.3"
contracts:
  Out:
    items: {type: array, items: {type: array, items: {type: string}}}
    name: {type: string}
functions:
  work: {mode: infer, intent: x, input: {}, output: Out}
  review: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - {id: a, function: work, inputs: {}}
      - {id: g, function: review, on_approve: null, on_revise: a, on_kill: null}
      - {id: i, intent: think}
      - {function: work}
      - {id: u, function: nope}
      - {id: q, type: quorum, intent: vote, runs: 3, agree_on: result.name}
  other:
    input: {}
    steps:
      - {id: b, function: review, on_approve: null, on_revise: b, on_kill: null}
`;

describe("runVisitingRules", () => {
  const model = modelOf(SPEC);

  it("calls each callback for what it asked, in declaration order", () => {
    const r = recorder("T-ALL", (on, seen) => {
      on.onSpec((c) => seen(c, "spec"));
      on.onFlow((flow, c) => seen(c, `flow ${flow.name}`));
      on.onStep((step, c) => seen(c, `step ${step.id}:${step.kind}`));
      on.onFunction((fn, c) => seen(c, `function ${fn.name}`));
      on.onContractField((site, c) => seen(c, `field ${site.label}`));
    });
    expect(record([r], model).map((s) => s.slice("T-ALL ".length))).toEqual([
      "spec",
      "flow main",
      // The step without an id is not visited; the step of unknown kind is.
      "step a:function",
      "step g:gate",
      "step i:inline",
      "step u:null",
      "step q:quorum",
      "flow other",
      "step b:gate",
      "function work",
      "function review",
      "field items",
      "field items[]",
      "field items[][]",
      "field name",
    ]);
  });

  it("gives a callback with kinds only the steps of those kinds, never one of unknown kind", () => {
    const gates = recorder("T-GATES", (on, seen) => on.onStep(["gate", "quorum"], (s, c) => seen(c, s.id)));
    expect(record([gates], model)).toEqual(["T-GATES g", "T-GATES q", "T-GATES b"]);
    const none = recorder("T-NONE", (on, seen) => on.onStep([], (s, c) => seen(c, s.id)));
    expect(record([none], model)).toEqual([]);
  });

  it("hands on the reports rule by rule, in list order, whatever order the walk met them in", () => {
    const steps = recorder("T-STEPS", (on, seen) => on.onStep((s, c) => seen(c, s.id)));
    const flows = recorder("T-FLOWS", (on, seen) => on.onFlow((f, c) => seen(c, f.name)));
    expect(record([steps, flows], model)).toEqual([
      "T-STEPS a",
      "T-STEPS g",
      "T-STEPS i",
      "T-STEPS u",
      "T-STEPS q",
      "T-STEPS b",
      "T-FLOWS main",
      "T-FLOWS other",
    ]);
  });
});

/** Seeds for mutants: the examples, and the rule fixtures that reach the semantic rules. */
function seeds(): string[] {
  const dir = join(__dirname, "..", "rule-fixtures");
  const fixtures = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith("SPEC-"))
    .flatMap((e) =>
      readdirSync(join(dir, e.name))
        .filter((f) => f.startsWith("invalid") && !f.includes(".fixed."))
        .map((f) => readFileSync(join(dir, e.name, f), "utf8")),
    );
  return [...cleanExamples(), ...brokenExamples()].map((e) => e.text).concat(fixtures);
}

function modelOrNull(text: string): SpecModel | null {
  const source = new SpecSource(text);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(source, sink);
  return loaded.ok ? checkStructure(source, loaded.root, sink) : null;
}

function oneWalk(rules: readonly VisitingRule[], model: SpecModel): SpecDiagnostic[] {
  const sink = new DiagnosticSink();
  runVisitingRules(rules, model, sink);
  return sink.diagnostics;
}

function ruleByRule(rules: readonly VisitingRule[], model: SpecModel): SpecDiagnostic[] {
  return rules.flatMap((rule) => oneWalk([rule], model));
}

describe("one walk for all the rules", () => {
  const rules: readonly VisitingRule[] = [...SEMANTIC_RULES, ...OUTPUT_SCHEMA_RULES];
  const texts = seeds();

  it("reports what the rules report one after another, in the same order (seeds)", () => {
    let reported = 0;
    for (const text of texts) {
      const model = modelOrNull(text);
      if (model === null) continue;
      const walked = oneWalk(rules, model);
      reported += walked.length;
      expect(walked).toEqual(ruleByRule(rules, model));
    }
    // The seeds do reach the rules.
    expect(reported).toBeGreaterThan(50);
  });

  it("reports what the rules report one after another, in the same order (mutants)", () => {
    fc.assert(
      fc.property(mutatedSpecArb(texts), (text) => {
        const model = modelOrNull(text);
        if (model === null) return;
        expect(oneWalk(rules, model)).toEqual(ruleByRule(rules, model));
      }),
      { numRuns: 150 },
    );
  });
});
