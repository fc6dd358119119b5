// SPEC-STEP-FLOW-UNDEFINED: a sub-flow step names a flow of the document.
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { namedSteps, stepPath, suggestName } from "../support";
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
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (soleSelector(model, step) !== "flow") continue;
      const flow = step.string("flow");
      if (flow === null || model.flowByName.has(flow.value)) continue;
      reporter.report(SPEC_STEP_FLOW_UNDEFINED, {
        message: SPEC_STEP_FLOW_UNDEFINED.message(step.id, flow.value),
        path: stepPath(step, "flow"),
        range: valueRange(model.source, flow.entry),
        ...suggestName(flow.entry, flow.value, model.flowByName.keys()),
      });
    }
  },
});
