// SPEC-DECOMPOSE-MISSING-KEY and SPEC-PARALLEL-MISSING-KEY (the reference's D1–D3, P1–P2): the keys
// a decompose step (agent, intent, output_contract) and a parallel_dispatch step (source,
// intent_template) cannot run without.
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { type NamedStep, namedSteps, stepEntity, stepPath } from "../support";
import { missingOrEmpty } from "./keys";

const DECOMPOSE_KEYS = ["agent", "intent", "output_contract"] as const;
const PARALLEL_KEYS = ["source", "intent_template"] as const;

const EXAMPLE_VALUES: Readonly<Record<string, string>> = {
  agent: "claude",
  intent: '"Break the work into tasks"',
  output_contract: "TaskGraph",
  source: '"$.steps.<decompose step>.output.tasks"',
  intent_template: '"Implement {task.description}"',
};

export const SPEC_DECOMPOSE_MISSING_KEY = defineRule({
  code: "SPEC-DECOMPOSE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A decompose step lacks agent, intent or output_contract",
  doc: "A decompose step (type: decompose) asks an agent to break the work into a task graph: it needs the agent that does it, the intent that says what to decompose, and the output_contract of the graph (usually a TaskGraph contract with a tasks list). Add the missing key with a non-empty value.",
  example: {
    bad: "- {id: plan, type: decompose, agent: claude, intent: Plan the work}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan the work, output_contract: TaskGraph}",
  },
  message: (step: string, key: string) => `Decompose step '${step}' must have '${key}'`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (step.kind !== "decompose") continue;
      for (const key of DECOMPOSE_KEYS) {
        if (!missingOrEmpty(step, key)) continue;
        reporter.report(SPEC_DECOMPOSE_MISSING_KEY, {
          message: SPEC_DECOMPOSE_MISSING_KEY.message(step.id, key),
          ...where(model, step, key),
        });
      }
    }
  },
});

export const SPEC_PARALLEL_MISSING_KEY = defineRule({
  code: "SPEC-PARALLEL-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch step lacks source or intent_template",
  doc: "A parallel_dispatch step runs one task per item of its source list, each with the instruction its intent_template gives. Without a source there are no tasks, without an intent_template nothing to tell them. Add the missing key with a non-empty value.",
  example: {
    bad: '- {id: run, type: parallel_dispatch, intent_template: "Do {task.description}"}',
    good: '- {id: run, type: parallel_dispatch, source: "$.steps.plan.output.tasks", intent_template: "Do {task.description}", depends_on: [plan]}',
  },
  message: (step: string, key: string) => `parallel_dispatch step '${step}' must have '${key}'`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (step.kind !== "parallel_dispatch") continue;
      for (const key of PARALLEL_KEYS) {
        if (!missingOrEmpty(step, key)) continue;
        reporter.report(SPEC_PARALLEL_MISSING_KEY, {
          message: SPEC_PARALLEL_MISSING_KEY.message(step.id, key),
          ...where(model, step, key),
        });
      }
    }
  },
});

/** The path names the key (as the reference does); the range is its empty value, or the step. */
function where(model: SpecModel, step: NamedStep, key: string) {
  const entry = step.entry(key);
  return {
    path: stepPath(step, key),
    range: entry === undefined ? stepEntity(model, step) : valueRange(model.source, entry),
    suggestion: `Add ${key}: ${EXAMPLE_VALUES[key] ?? "<value>"} to step '${step.id}'`,
  };
}
