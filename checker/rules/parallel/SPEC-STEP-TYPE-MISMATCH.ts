// SPEC-STEP-TYPE-MISMATCH (warning): `type: function | inline | flow` never decides a step's kind
// (function / intent / flow do); a value that contradicts them is misleading. The reference never
// compares the two.
import { valueRange } from "../../anchors";
import type { StepKind } from "../../model/types";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

const MATCHING: Readonly<Record<string, readonly StepKind[]>> = {
  function: ["function", "gate"],
  inline: ["inline"],
  flow: ["flow"],
};

/** How the message names a kind: a gate is a function step whose function is a gate. */
function kindText(kind: StepKind): string {
  return kind === "gate" ? "gate (function)" : kind;
}

export const SPEC_STEP_TYPE_MISMATCH = defineRule({
  code: "SPEC-STEP-TYPE-MISMATCH",
  severity: "warning",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A step's type contradicts its function, intent or flow",
  doc: "Only type: decompose and type: parallel_dispatch select a step kind. type: function, inline or flow is documentation: the kind still follows function (a function or gate step), intent (inline) or flow (sub-flow), so a type that names another kind misleads the reader. Correct the type, or remove it.",
  example: {
    bad: "- {id: draft, type: function, intent: Write the draft}",
    good: "- {id: draft, type: inline, intent: Write the draft}",
  },
  message: (step: string, type: string, kind: string) =>
    `Step '${step}' has type '${type}' but is a ${kind} step (the kind follows function, intent or flow)`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      const type = step.string("type");
      const matching = type === null ? undefined : MATCHING[type.value];
      if (type === null || matching === undefined || step.kind === null || matching.includes(step.kind))
        return;
      reporter.report(SPEC_STEP_TYPE_MISMATCH, {
        message: SPEC_STEP_TYPE_MISMATCH.message(step.id, type.value, kindText(step.kind)),
        path: stepPath(step, "type"),
        range: valueRange(model.source, type.entry),
        suggestion: `Write type: ${step.kind === "gate" ? "function" : step.kind}, or remove type`,
      });
    });
  },
});
