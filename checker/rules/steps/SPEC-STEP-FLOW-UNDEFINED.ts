// SPEC-STEP-FLOW-UNDEFINED: a sub-flow step names a flow of the document.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";
import { soleSelector } from "./selectors";

export const SPEC_STEP_FLOW_UNDEFINED = defineRule({
  code: "SPEC-STEP-FLOW-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A step references an undefined flow",
  doc: "flow: names an entry of the flows section that runs as a child flow, with the step's inputs as its inputs. Declare the flow, or correct the name (a close match is suggested).",
  example: {
    bad: "- {id: triage, flow: triage_issue}",
    good: "- {id: triage, flow: triage_issues}",
  },
  fix: "Replaces the name with the one flow name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, flow: string) => `Step '${step}' references undefined flow '${flow}'`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      if (soleSelector(model, step) !== "flow") return;
      const flow = step.string("flow");
      if (flow === null || model.flowByName.has(flow.value)) return;
      reporter.report(SPEC_STEP_FLOW_UNDEFINED, {
        message: SPEC_STEP_FLOW_UNDEFINED.message(step.id, flow.value),
        path: stepPath(step, "flow"),
        range: valueRange(model.source, flow.entry),
        ...suggestName(flow.entry, flow.value, model.flowByName.keys()),
      });
    });
  },
});
