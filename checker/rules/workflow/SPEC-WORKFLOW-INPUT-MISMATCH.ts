// SPEC-WORKFLOW-INPUT-MISMATCH: the workflow's declared inputs are the entry flow's inputs.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { pyStringList } from "../repr";
import { comparePython } from "../support";
import type { RuleVisitor } from "../types";
import { entryFlow } from "./entry-flow";

export const SPEC_WORKFLOW_INPUT_MISMATCH = defineRule({
  code: "SPEC-WORKFLOW-INPUT-MISMATCH",
  severity: "error",
  family: "workflow",
  errorType: "ir_semantic_error",
  title: "Workflow inputs differ from the entry flow's inputs",
  doc: "Tools that list workflows show workflow.input as the parameters of the workflow, and those parameters are passed to the entry flow as its inputs. Both must therefore declare the same set of names; add or remove keys so that they match.",
  example: {
    bad: "workflow: {name: triage, description: x, input: {repository: {type: string}}}\nflows:\n  triage: {input: {repo: {type: string}}, steps: [{id: a, intent: x}]}",
    good: "workflow: {name: triage, description: x, input: {repo: {type: string}}}\nflows:\n  triage: {input: {repo: {type: string}}, steps: [{id: a, intent: x}]}",
  },
  message: (workflowKeys: readonly string[], flow: string, flowKeys: readonly string[]) =>
    `Workflow input keys ${pyStringList(workflowKeys)} do not match entry flow '${flow}' input keys ${pyStringList(flowKeys)}`,
  visit(on: RuleVisitor): void {
    on.onSpec(({ model, reporter }) => {
      const wf = model.workflow;
      const name = wf?.string("name") ?? null;
      const input = wf?.entry("input");
      if (wf === null || wf === undefined || name === null || input === undefined) return;
      if (input.value.kind !== "map") return;
      const entry = entryFlow(model, name.value);
      if (entry.kind !== "flow") return;
      const flowInput = entry.flow.entry("input");
      if (flowInput === undefined || flowInput.value.kind !== "map") return;
      const workflowKeys = uniqueSorted(
        input.value.entries.flatMap((e) => (e.name === null ? [] : [e.name])),
      );
      const flowKeys = uniqueSorted(entry.flow.inputNames);
      if (workflowKeys.length === flowKeys.length && workflowKeys.every((k, i) => k === flowKeys[i])) return;
      reporter.report(SPEC_WORKFLOW_INPUT_MISMATCH, {
        message: SPEC_WORKFLOW_INPUT_MISMATCH.message(workflowKeys, entry.flow.name, flowKeys),
        path: "workflow.input",
        range: keyRange(input),
      });
    });
  },
});

function uniqueSorted(keys: readonly string[]): string[] {
  return [...new Set(keys)].sort(comparePython);
}
