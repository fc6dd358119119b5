// docs/reference/language.md §9.5.3 workflow rules: SPEC-WORKFLOW-NO-ENTRY and SPEC-WORKFLOW-INPUT-MISMATCH, and the flow
// rule SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED.
import { describe, expect, it } from "vitest";
import { SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED } from "../../../checker/rules/flows/SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED";
import { SPEC_WORKFLOW_INPUT_MISMATCH } from "../../../checker/rules/workflow/SPEC-WORKFLOW-INPUT-MISMATCH";
import { SPEC_WORKFLOW_NO_ENTRY } from "../../../checker/rules/workflow/SPEC-WORKFLOW-NO-ENTRY";
import { diag, fix, runPhases, runRules, span } from "./support";

function doc(...lines: string[]): string {
  return ['version: "0.2"', ...lines, ""].join("\n");
}

const FLOW_A = ["  a:", "    input: {x: {type: string}}", "    steps: [{id: s, intent: go}]"];
const FLOW_B = ["  b:", "    input: {}", "    steps: [{id: s, intent: go}]"];

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

describe("SPEC-WORKFLOW-NO-ENTRY", () => {
  it("reports at V:name when no flow has the name and there are several flows", () => {
    const text = doc("workflow: {name: wf, description: d, input: {}}", "flows:", ...FLOW_A, ...FLOW_B);
    expect(runRules(text)).toEqual([
      diag(
        SPEC_WORKFLOW_NO_ENTRY,
        "workflow.name",
        "Workflow 'wf' has no matching flow and spec has 2 flows — cannot determine entry flow",
        span(text, 2, "wf"),
      ),
    ]);
  });

  it("counts zero flows", () => {
    const text = doc("workflow:", "  name: release-notes", "  description: d", "  input: {}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_WORKFLOW_NO_ENTRY,
        "workflow.name",
        "Workflow 'release-notes' has no matching flow and spec has 0 flows — cannot determine entry flow",
        span(text, 3, "release-notes"),
      ),
    ]);
  });

  it("accepts a flow named like the workflow, or a single flow", () => {
    clean(doc("workflow: {name: b, description: d, input: {}}", "flows:", ...FLOW_A, ...FLOW_B));
    clean(doc("workflow: {name: other, description: d, input: {}}", "flows:", ...FLOW_B));
  });
});

describe("SPEC-WORKFLOW-INPUT-MISMATCH", () => {
  it("reports at K:input with both key lists sorted", () => {
    const text = doc(
      "workflow:",
      "  name: a",
      "  description: d",
      "  input:",
      "    zeta: {type: string}",
      "    Alpha: {type: string}",
      "flows:",
      ...FLOW_A,
      ...FLOW_B,
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_WORKFLOW_INPUT_MISMATCH,
        "workflow.input",
        "Workflow input keys ['Alpha', 'zeta'] do not match entry flow 'a' input keys ['x']",
        span(text, 5, "input"),
      ),
    ]);
  });

  it("uses the single flow as the entry flow", () => {
    const text = doc("workflow: {name: wf, description: d, input: {x: {type: string}}}", "flows:", ...FLOW_B);
    expect(runRules(text)).toEqual([
      diag(
        SPEC_WORKFLOW_INPUT_MISMATCH,
        "workflow.input",
        "Workflow input keys ['x'] do not match entry flow 'b' input keys []",
        span(text, 2, "input"),
      ),
    ]);
  });

  it("accepts the same keys in another order, with extra keys in the definitions", () => {
    clean(
      doc(
        "workflow:",
        "  name: wf",
        "  description: d",
        "  input:",
        "    q: {type: string, required: false, default: x, note: n}",
        "    p: {type: integer}",
        "flows:",
        "  wf:",
        "    input: {p: {type: integer}, q: {type: string}}",
        "    steps: [{id: s, intent: go}]",
      ),
    );
  });
});

describe("SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED", () => {
  const rule = SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED;
  const flow = (output: string) =>
    doc(
      "contracts: {Summary: {}}",
      "flows:",
      "  f:",
      "    input: {}",
      `    output: ${output}`,
      "    steps: [{id: s, intent: go}]",
    );

  it("reports at V:output with a did-you-mean fix", () => {
    const text = flow("Sumary");
    expect(runRules(text)).toEqual([
      diag(rule, "flows.f.output", "Flow 'f' output contract 'Sumary' not defined", span(text, 6, "Sumary"), {
        suggestion: "Did you mean 'Summary'?",
        fix: fix("Replace 'Sumary' with 'Summary'", span(text, 6, "Sumary"), "Summary"),
      }),
    ]);
  });

  it("reports a name without a close match without suggestion", () => {
    const text = flow("Nope");
    expect(runRules(text)).toEqual([
      diag(rule, "flows.f.output", "Flow 'f' output contract 'Nope' not defined", span(text, 6, "Nope")),
    ]);
  });

  it("accepts a declared contract and an empty output", () => {
    clean(flow("Summary"));
    clean(flow('""'));
  });
});
