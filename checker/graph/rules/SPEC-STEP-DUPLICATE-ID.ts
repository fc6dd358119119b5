// SPEC-STEP-DUPLICATE-ID: a step id declared twice in one flow (docs/reference/language.md §9.5.4). The repeated
// step cannot be named by its id, so the path uses its index (docs/reference/language.md §9.1).
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { flowPath } from "./paths";

export const SPEC_STEP_DUPLICATE_ID = defineRule({
  code: "SPEC-STEP-DUPLICATE-ID",
  severity: "error",
  family: "duplicate",
  errorType: "ir_semantic_error",
  title: "A step id is declared more than once in a flow",
  doc:
    "Step ids name steps in depends_on, routes and $.steps references, so each id must be unique " +
    "within its flow. Rename the repeated step (and the references meant for it).",
  example: {
    bad: "steps:\n  - {id: a, intent: x}\n  - {id: a, intent: y}",
    good: "steps:\n  - {id: a, intent: x}\n  - {id: b, intent: y}",
  },
  message: (s: string, f: string) => `Step id '${s}' is declared more than once in flow '${f}'`,
  related: (s: string) => `'${s}' is first declared here`,
  check(model: SpecModel, reporter: Reporter): void {
    const src = model.source;
    for (const flow of model.flows) {
      for (const step of flow.steps) {
        if (step.id === null) continue;
        const first = flow.stepById.get(step.id);
        const id = step.entry("id");
        const firstId = first?.entry("id");
        if (first === undefined || first === step || id === undefined || firstId === undefined) continue;
        reporter.report(SPEC_STEP_DUPLICATE_ID, {
          message: SPEC_STEP_DUPLICATE_ID.message(step.id, flow.name),
          path: `${flowPath(flow.name)}.steps.${step.index}.id`,
          range: valueRange(src, id),
          related: [
            {
              message: SPEC_STEP_DUPLICATE_ID.related(step.id),
              path: `${flowPath(flow.name)}.steps.${first.index}.id`,
              range: valueRange(src, firstId),
            },
          ],
        });
      }
    }
  },
}) satisfies SemanticRule;
