// SPEC-PIPELINE-FANOUT-ROUTE: the routing predicates and a fanout region do not mix (the
// reference's v1): no `when` / `exit_when` from the fanout stage to the join, and no `exit_when`
// before the fanout (an early exit would skip the whole region, which the join would misread).
import { keyRange } from "../../anchors";
import { marks, stageKey, stagesOf } from "../../kinds/pipeline/stages";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PIPELINE_FANOUT_ROUTE = defineRule({
  code: "SPEC-PIPELINE-FANOUT-ROUTE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "when or exit_when where a pipeline's fanout region does not allow it",
  doc: "A stage from the fanout stage to the join (inclusive) may not carry when or exit_when, and a stage before the fanout may not carry exit_when: an element that exits early would skip the whole region, and the join would take its skipped lanes for unfilled ones. Route before the fanout with when, or after the join.",
  example: {
    bad: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Split {item}", fanout: {max: 3}}\n    - {intent_template: "Check {item}", when: "item != \'\'"}\n    - {intent_template: "Merge {prevs}", join: true}',
    good: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Split {item}", fanout: {max: 3}}\n    - {intent_template: "Check {item}"}\n    - {intent_template: "Merge {prevs}", join: true}',
  },
  message: (step: string, stage: number) =>
    `pipeline step '${step}' stage ${stage} is inside the fanout region (fanout..join) and may not carry \`when\`/\`exit_when\` in v1`,
  earlyExitMessage: (step: string, stage: number) =>
    `pipeline step '${step}' stage ${stage} has \`exit_when\` before a fanout region — pre-fanout early-exit is not supported in v1 (it would skip the whole region)`,
  visit(on: RuleVisitor): void {
    on.onStep(["pipeline"], (step, { reporter }) => {
      const stages = stagesOf(step);
      const fanouts = stages.filter((s) => marks(s, "fanout"));
      const joins = stages.filter((s) => marks(s, "join"));
      const [fanout] = fanouts;
      const [join] = joins;
      // Only a well-shaped region has an inside (SPEC-PIPELINE-FANOUT-SHAPE reports the rest).
      if (fanouts.length !== 1 || joins.length !== 1 || fanout === undefined || join === undefined) return;
      if (join.index - fanout.index < 2) return;
      for (const stage of stages) {
        const inside = stage.index >= fanout.index && stage.index <= join.index;
        const keys = inside
          ? (["when", "exit_when"] as const)
          : stage.index < fanout.index
            ? (["exit_when"] as const)
            : [];
        for (const key of keys) {
          const entry = stageKey(stage, key);
          if (entry === undefined) continue;
          reporter.report(SPEC_PIPELINE_FANOUT_ROUTE, {
            message: inside
              ? SPEC_PIPELINE_FANOUT_ROUTE.message(step.id, stage.index)
              : SPEC_PIPELINE_FANOUT_ROUTE.earlyExitMessage(step.id, stage.index),
            path: `${stepPath(step, "stages")}[${stage.index}]`,
            range: keyRange(entry),
            suggestion: inside
              ? `Remove '${key}' from this stage; route before the fanout or after the join`
              : "Remove exit_when, or move it after the join",
          });
        }
      }
    });
  },
});
