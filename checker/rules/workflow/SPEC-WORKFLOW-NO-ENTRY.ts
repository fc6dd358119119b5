// SPEC-WORKFLOW-NO-ENTRY: a workflow must be able to tell which flow it runs.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { entryFlow } from "./entry-flow";

export const SPEC_WORKFLOW_NO_ENTRY = defineRule({
  code: "SPEC-WORKFLOW-NO-ENTRY",
  severity: "error",
  family: "workflow",
  errorType: "ir_semantic_error",
  title: "The workflow's entry flow cannot be determined",
  doc: "A workflow runs the flow whose name equals workflow.name, or the document's only flow. With several flows and none named like the workflow, there is no entry flow. Rename the entry flow to the workflow's name (or the workflow to the flow's).",
  example: {
    bad: "workflow: {name: release-notes, description: x, input: {}}\nflows:\n  main: {input: {}, steps: [{id: a, intent: x}]}\n  collect: {input: {}, steps: [{id: b, intent: y}]}",
    good: "workflow: {name: release-notes, description: x, input: {}}\nflows:\n  release-notes: {input: {}, steps: [{id: a, intent: x}]}\n  collect: {input: {}, steps: [{id: b, intent: y}]}",
  },
  message: (name: string, flowCount: number) =>
    `Workflow '${name}' has no matching flow and spec has ${flowCount} flows — cannot determine entry flow`,
  visit(on: RuleVisitor): void {
    on.onSpec(({ model, reporter }) => {
      const name = model.workflow?.string("name") ?? null;
      if (name === null) return;
      const entry = entryFlow(model, name.value);
      if (entry.kind !== "none") return;
      reporter.report(SPEC_WORKFLOW_NO_ENTRY, {
        message: SPEC_WORKFLOW_NO_ENTRY.message(name.value, entry.count),
        path: "workflow.name",
        range: valueRange(model.source, name.entry),
      });
    });
  },
});
