// docs/reference/language.md §9.5.4 step rules: SPEC-STEP-MODE, SPEC-STEP-FUNCTION-UNDEFINED, SPEC-STEP-FLOW-UNDEFINED,
// SPEC-FN-STEP-FIELD, SPEC-FLOW-STEP-AGENT, SPEC-FLOW-STEP-FIELD, SPEC-OUTPUT-CONTRACT-UNDEFINED.
import { describe, expect, it } from "vitest";
import { SPEC_FLOW_STEP_AGENT } from "../../../checker/rules/steps/SPEC-FLOW-STEP-AGENT";
import { SPEC_FLOW_STEP_FIELD } from "../../../checker/rules/steps/SPEC-FLOW-STEP-FIELD";
import { SPEC_FN_STEP_FIELD } from "../../../checker/rules/steps/SPEC-FN-STEP-FIELD";
import { SPEC_OUTPUT_CONTRACT_UNDEFINED } from "../../../checker/rules/steps/SPEC-OUTPUT-CONTRACT-UNDEFINED";
import { SPEC_STEP_FLOW_UNDEFINED } from "../../../checker/rules/steps/SPEC-STEP-FLOW-UNDEFINED";
import { SPEC_STEP_FUNCTION_UNDEFINED } from "../../../checker/rules/steps/SPEC-STEP-FUNCTION-UNDEFINED";
import { SPEC_STEP_MODE } from "../../../checker/rules/steps/SPEC-STEP-MODE";
import { diag, fix, runPhases, runRules, STEP_LINE, span, withLines, withSteps } from "./support";

const L = STEP_LINE;

/** Appends a second flow `g` (after f's steps) that sub-flow steps can call. */
function withChild(text: string): string {
  return `${text}  g:\n    input: {}\n    steps: [{id: x, intent: y}]\n`;
}

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

describe("SPEC-STEP-MODE", () => {
  const msg = (s: string) => `Step '${s}' must have exactly one of function, intent, flow, or judge`;

  it("reports a step with no selector at E (its id on the first line)", () => {
    const text = withSteps("{id: b}");
    expect(runRules(text)).toEqual([diag(SPEC_STEP_MODE, "flows.f.steps.b", msg("b"), span(text, L, "b"))]);
  });

  it("reports a step with several selectors; an empty string counts as absent", () => {
    const text = withLines(
      "      - id: b",
      "        function: work",
      "        intent: x",
      "        flow: f",
      "      - {id: c, function: '', intent: y}",
    );
    expect(runRules(text)).toEqual([diag(SPEC_STEP_MODE, "flows.f.steps.b", msg("b"), span(text, L, "b"))]);
  });

  it("E is the item's first key when the id is on a later line", () => {
    const text = withLines("      - intent: x", "        flow: f", "        id: b");
    expect(runRules(text)).toEqual([
      diag(SPEC_STEP_MODE, "flows.f.steps.b", msg("b"), span(text, L, "intent")),
    ]);
  });

  it("accepts each single selector", () => {
    clean(withChild(withSteps("{id: b, intent: x}", "{id: c, flow: g}", "{id: d, function: work}")));
  });
});

describe("SPEC-STEP-FUNCTION-UNDEFINED", () => {
  const rule = SPEC_STEP_FUNCTION_UNDEFINED;

  it("reports at V:function with a unique did-you-mean fix", () => {
    const text = withSteps("{id: b, function: wrk}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "flows.f.steps.b.function",
        "Step 'b' references undefined function 'wrk'",
        span(text, L, "wrk"),
        {
          suggestion: "Did you mean 'work'?",
          fix: fix("Replace 'wrk' with 'work'", span(text, L, "wrk"), "work"),
        },
      ),
    ]);
  });

  it("gives no suggestion without a close name, and skips a step with several selectors", () => {
    const text = withSteps("{id: b, function: nope}", "{id: c, function: nope, intent: x}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "flows.f.steps.b.function",
        "Step 'b' references undefined function 'nope'",
        span(text, L, "nope"),
      ),
      diag(
        SPEC_STEP_MODE,
        "flows.f.steps.c",
        "Step 'c' must have exactly one of function, intent, flow, or judge",
        span(text, L + 1, "c"),
      ),
    ]);
  });
});

describe("SPEC-STEP-FLOW-UNDEFINED", () => {
  it("reports at V:flow with did-you-mean over flow names", () => {
    const text = withLines("  helper:", "    input: {}", "    steps: [{id: h, intent: x}]").replace(
      "      - {id: a, function: work, inputs: {}}",
      "      - {id: a, flow: helpr}",
    );
    // The helper flow is appended after f's steps, so the step stays on line 12.
    expect(runRules(text)).toEqual([
      diag(
        SPEC_STEP_FLOW_UNDEFINED,
        "flows.f.steps.a.flow",
        "Step 'a' references undefined flow 'helpr'",
        span(text, 12, "helpr"),
        {
          suggestion: "Did you mean 'helper'?",
          fix: fix("Replace 'helpr' with 'helper'", span(text, 12, "helpr"), "helper"),
        },
      ),
    ]);
  });
});

describe("SPEC-FN-STEP-FIELD", () => {
  const msg = (field: string) =>
    `Step 'b' uses function 'work' — '${field}' must be on the function, not the step`;

  it("reports each function-level field on a function step at its key", () => {
    const text = withLines(
      "      - id: b",
      "        function: work",
      "        ensure: ['True']",
      "        retries: 2",
      "        output_contract: Out",
      "        model: m",
      "        budget: {ms: 5}",
    );
    expect(runRules(text)).toEqual([
      diag(SPEC_FN_STEP_FIELD, "flows.f.steps.b.ensure", msg("ensure"), span(text, L + 2, "ensure")),
      diag(SPEC_FN_STEP_FIELD, "flows.f.steps.b.retries", msg("retries"), span(text, L + 3, "retries")),
      diag(
        SPEC_FN_STEP_FIELD,
        "flows.f.steps.b.output_contract",
        msg("output_contract"),
        span(text, L + 4, "output_contract"),
      ),
      diag(SPEC_FN_STEP_FIELD, "flows.f.steps.b.model", msg("model"), span(text, L + 5, "model")),
      diag(SPEC_FN_STEP_FIELD, "flows.f.steps.b.budget", msg("budget"), span(text, L + 6, "budget")),
    ]);
  });

  it("applies to gate steps, naming the gate function", () => {
    const text = withSteps(
      "{id: r, function: review, on_approve: null, on_kill: null, on_revise: a, model: m}",
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_FN_STEP_FIELD,
        "flows.f.steps.r.model",
        "Step 'r' uses function 'review' — 'model' must be on the function, not the step",
        span(text, L, "model"),
      ),
    ]);
  });

  it("accepts these fields on inline steps", () => {
    clean(
      withSteps(
        "{id: b, intent: x, ensure: ['True'], retries: 2, output_contract: Out, model: m, budget: {ms: 5}}",
      ),
    );
  });
});

describe("SPEC-FLOW-STEP-AGENT and SPEC-FLOW-STEP-FIELD", () => {
  it("report agent, retries, model and budget on a sub-flow step at their keys", () => {
    const text = withChild(
      withSteps("{id: b, flow: g, agent: claude, retries: 2, model: m, budget: {ms: 5}}"),
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_FLOW_STEP_AGENT,
        "flows.f.steps.b.agent",
        "Step 'b' uses flow 'g' — agent must not be set (sub-flow steps define their own)",
        span(text, L, "agent"),
      ),
      diag(
        SPEC_FLOW_STEP_FIELD,
        "flows.f.steps.b.retries",
        "Step 'b' uses flow 'g' — 'retries' must not be set on flow steps",
        span(text, L, "retries"),
      ),
      diag(
        SPEC_FLOW_STEP_FIELD,
        "flows.f.steps.b.model",
        "Step 'b' uses flow 'g' — 'model' must not be set on flow steps",
        span(text, L, "model"),
      ),
      diag(
        SPEC_FLOW_STEP_FIELD,
        "flows.f.steps.b.budget",
        "Step 'b' uses flow 'g' — 'budget' must not be set on flow steps",
        span(text, L, "budget"),
      ),
    ]);
  });

  it("name the written flow even when it is undefined", () => {
    const text = withSteps("{id: b, flow: gone, agent: claude}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_STEP_FLOW_UNDEFINED,
        "flows.f.steps.b.flow",
        "Step 'b' references undefined flow 'gone'",
        span(text, L, "gone"),
      ),
      diag(
        SPEC_FLOW_STEP_AGENT,
        "flows.f.steps.b.agent",
        "Step 'b' uses flow 'gone' — agent must not be set (sub-flow steps define their own)",
        span(text, L, "agent"),
      ),
    ]);
  });

  it("accept agent on inline steps and ensure/output_contract on sub-flow steps", () => {
    clean(
      withChild(
        withSteps(
          "{id: b, intent: x, agent: claude}",
          "{id: c, flow: g, ensure: ['True'], output_contract: Out}",
        ),
      ),
    );
  });
});

describe("SPEC-OUTPUT-CONTRACT-UNDEFINED", () => {
  const rule = SPEC_OUTPUT_CONTRACT_UNDEFINED;

  it("reports an inline step's unknown contract at V:output_contract with did-you-mean", () => {
    const text = withSteps(
      "{id: b, intent: x, output_contract: Reprt}",
      "{id: c, intent: x, output_contract: Nope}",
    );
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "flows.f.steps.b.output_contract",
        "Step 'b' output_contract 'Reprt' not defined",
        span(text, L, "Reprt"),
        {
          suggestion: "Did you mean 'Report'?",
          fix: fix("Replace 'Reprt' with 'Report'", span(text, L, "Reprt"), "Report"),
        },
      ),
      diag(
        rule,
        "flows.f.steps.c.output_contract",
        "Step 'c' output_contract 'Nope' not defined",
        span(text, L + 1, "Nope"),
      ),
    ]);
  });

  it("does not resolve output_contract on a function step (SPEC-FN-STEP-FIELD instead)", () => {
    const text = withSteps("{id: b, function: work, output_contract: Nope}");
    expect(runRules(text).map((d) => d.code)).toEqual(["SPEC-FN-STEP-FIELD"]);
  });

  it("accepts a declared contract", () => {
    clean(withSteps("{id: b, intent: x, output_contract: Report}"));
  });
});

describe("cascade avoidance (docs/reference/language.md §9.3)", () => {
  it("a broken selector leaves the mode unknown: no SPEC-STEP-MODE", () => {
    const run = runPhases(withSteps("{id: b, function: 5}"));
    expect(run.rules).toEqual([]);
    expect(run.structure.map((d) => d.code)).toEqual(["SCHEMA-TYPE"]);
  });

  it("a step without a valid id takes no part in the step rules", () => {
    const run = runPhases(withSteps("{function: review}", "{id: 7, intent: x, policy: skip}"));
    expect(run.rules).toEqual([]);
    expect(run.structure.map((d) => d.code)).toEqual(["SCHEMA-REQUIRED", "SCHEMA-TYPE"]);
  });

  it("0.2-only keys in a 0.1 document are unknown keys, never rule input", () => {
    const text = [
      'version: "0.1"',
      "contracts: {Out: {v: {type: string}}}",
      "functions:",
      "  work: {mode: infer, intent: w, input: {}, output: Out}",
      "flows:",
      "  f:",
      "    input: {}",
      "    output: Out",
      "    steps:",
      "      - {id: a, function: work, inputs: {}, intent: x, on_approve: b, ensure: [x], accumulate_key: k, policy: skip}",
      "      - {id: b, function: wrk, inputs: {}}",
      "",
    ].join("\n");
    const run = runPhases(text);
    expect(run.structure.map((d) => d.code)).toEqual(Array(5).fill("SCHEMA-UNKNOWN-KEY"));
    expect(run.rules).toEqual([
      diag(
        SPEC_STEP_FUNCTION_UNDEFINED,
        "flows.f.steps.b.function",
        "Step 'b' references undefined function 'wrk'",
        span(text, 11, "wrk"),
        {
          suggestion: "Did you mean 'work'?",
          fix: fix("Replace 'wrk' with 'work'", span(text, 11, "wrk"), "work"),
        },
      ),
    ]);
  });
});
