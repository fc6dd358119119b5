// docs/reference/language.md §9.5.4 iteration and routing rules: SPEC-EXIT-CRITERION-NO-MAX, SPEC-ACCUMULATE-NO-MAX,
// SPEC-ACCUMULATE-KEY-NO-ACCUMULATE, SPEC-ON-FAIL-NO-VALIDATION.
import { describe, expect, it } from "vitest";
import { SPEC_ACCUMULATE_KEY_NO_ACCUMULATE } from "../../../checker/rules/iteration/SPEC-ACCUMULATE-KEY-NO-ACCUMULATE";
import { SPEC_ACCUMULATE_NO_MAX } from "../../../checker/rules/iteration/SPEC-ACCUMULATE-NO-MAX";
import { SPEC_EXIT_CRITERION_NO_MAX } from "../../../checker/rules/iteration/SPEC-EXIT-CRITERION-NO-MAX";
import { SPEC_ON_FAIL_NO_VALIDATION } from "../../../checker/rules/steps/SPEC-ON-FAIL-NO-VALIDATION";
import { diag, runPhases, runRules, STEP_LINE, span, withLines, withSteps } from "./support";

const L = STEP_LINE;

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

describe("iteration fields without their prerequisite", () => {
  it("exit_criterion and accumulate without max_iterations, at their keys", () => {
    const text = withSteps("{id: b, intent: x, exit_criterion: 'True', accumulate: result.items}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_EXIT_CRITERION_NO_MAX,
        "flows.f.steps.b.exit_criterion",
        "Step 'b' has exit_criterion but no max_iterations",
        span(text, L, "exit_criterion"),
      ),
      diag(
        SPEC_ACCUMULATE_NO_MAX,
        "flows.f.steps.b.accumulate",
        "Step 'b' has accumulate but no max_iterations",
        span(text, L, "accumulate"),
      ),
    ]);
  });

  it("accumulate_key without accumulate, on a function step too", () => {
    const text = withLines(
      "      - id: b",
      "        function: work",
      "        max_iterations: 3",
      "        accumulate_key: item.id",
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_ACCUMULATE_KEY_NO_ACCUMULATE,
        "flows.f.steps.b.accumulate_key",
        "Step 'b' has accumulate_key but no accumulate",
        span(text, L + 3, "accumulate_key"),
      ),
    ]);
  });

  it("a present but invalid max_iterations is not 'missing' (only SCHEMA-MINIMUM)", () => {
    const run = runPhases(withSteps("{id: b, intent: x, max_iterations: 0, exit_criterion: 'True'}"));
    expect(run.rules).toEqual([]);
    expect(run.structure.map((d) => d.code)).toEqual(["SCHEMA-MINIMUM"]);
  });

  it("accepts the full iteration set and max_iterations alone", () => {
    clean(
      withSteps(
        "{id: b, intent: x, max_iterations: 3, exit_criterion: 'True', accumulate: result.items, accumulate_key: item}",
        "{id: c, intent: x, max_iterations: 2}",
      ),
    );
  });
});

describe("SPEC-ON-FAIL-NO-VALIDATION", () => {
  const msg = (s: string) => `Step '${s}' has on_fail but no ensure/guardrails — on_fail can never trigger`;

  it("reports on_fail of an inline step without ensure or output_schema at its key", () => {
    const text = withSteps(
      "{id: b, intent: x, on_fail: a}",
      "{id: c, intent: x, ensure: [], output_schema: {}, on_fail: a}",
    );
    expect(runRules(text)).toEqual([
      diag(SPEC_ON_FAIL_NO_VALIDATION, "flows.f.steps.b.on_fail", msg("b"), span(text, L, "on_fail")),
      diag(SPEC_ON_FAIL_NO_VALIDATION, "flows.f.steps.c.on_fail", msg("c"), span(text, L + 1, "on_fail")),
    ]);
  });

  it("reports a function step whose function has no ensure", () => {
    const text = withSteps("{id: b, function: work, on_fail: a}");
    expect(runRules(text)).toEqual([
      diag(SPEC_ON_FAIL_NO_VALIDATION, "flows.f.steps.b.on_fail", msg("b"), span(text, L, "on_fail")),
    ]);
  });

  it("accepts a step ensure, an output_schema, or the function's ensure", () => {
    clean(
      withSteps(
        "{id: b, intent: x, ensure: ['True'], on_fail: a}",
        "{id: c, intent: x, output_schema: {type: object}, on_fail: a}",
      ),
    );
    clean(
      [
        'version: "0.2"',
        "contracts: {Out: {v: {type: string}}}",
        "functions:",
        "  work: {mode: infer, intent: w, input: {}, output: Out, ensure: [\"result.v != ''\"]}",
        "flows:",
        "  f:",
        "    input: {}",
        "    steps:",
        "      - {id: a, intent: x}",
        "      - {id: b, function: work, on_fail: a}",
        "",
      ].join("\n"),
    );
  });

  it("leaves on_fail on a gate to SPEC-GATE-ON-FAIL", () => {
    const text = withSteps(
      "{id: r, function: review, on_approve: null, on_kill: null, on_revise: a, on_fail: a}",
    );
    expect(runRules(text).map((d) => d.code)).toEqual(["SPEC-GATE-ON-FAIL"]);
  });
});
