// SPEC-PARALLEL-REASONING-TEMPLATE (the reference's P3): a parallel_dispatch step has no answer of
// its own to certify; per-task certificates are what task_reasoning_template is for.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PARALLEL_REASONING_TEMPLATE = defineRule({
  code: "SPEC-PARALLEL-REASONING-TEMPLATE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "reasoning_template on a parallel_dispatch or pipeline step",
  doc: "A parallel_dispatch (or pipeline) step reports the aggregate of its tasks, which no agent writes as one artifact, so a reasoning_template cannot be checked there. Use task_reasoning_template to check each task's certificate, or move the template to an inline or decompose step.",
  example: {
    bad: "- id: run\n  type: parallel_dispatch\n  source: $.steps.plan.output.tasks\n  intent_template: Do {task.description}\n  reasoning_template: {require_citations: true}",
    good: "- id: run\n  type: parallel_dispatch\n  source: $.steps.plan.output.tasks\n  intent_template: Do {task.description}\n  task_reasoning_template: {require_citations: true}",
  },
  message: (step: string, flow: string) =>
    `Step '${step}' in flow '${flow}' has 'reasoning_template' which is not valid on parallel_dispatch steps. Use 'task_reasoning_template' for per-task cert validation, or move the template to an inline/decompose step.`,
  /** The reference's wording on a pipeline step. */
  pipelineMessage: (step: string, flow: string) =>
    `Step '${step}' in flow '${flow}' has 'reasoning_template' which is not valid on pipeline steps. Use 'task_reasoning_template' for per-task cert validation.`,
  visit(on: RuleVisitor): void {
    on.onStep(["parallel_dispatch", "pipeline"], (step, { reporter }) => {
      const entry = step.entry("reasoning_template");
      if (entry === undefined || !step.valid("reasoning_template")) return;
      reporter.report(SPEC_PARALLEL_REASONING_TEMPLATE, {
        message:
          step.kind === "pipeline"
            ? SPEC_PARALLEL_REASONING_TEMPLATE.pipelineMessage(step.id, step.flow.name)
            : SPEC_PARALLEL_REASONING_TEMPLATE.message(step.id, step.flow.name),
        path: stepPath(step, "reasoning_template"),
        range: keyRange(entry),
        suggestion: "Rename reasoning_template to task_reasoning_template to check each task's certificate",
      });
    });
  },
});
