// SPEC-PIPELINE-FANOUT-SHAPE: a pipeline's fanout region is one `fanout` stage, then at least one
// lane stage, then one `join` stage (the reference's region checks, reported all at once).

import { marks, stagesOf } from "../../kinds/pipeline/stages";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PIPELINE_FANOUT_SHAPE = defineRule({
  code: "SPEC-PIPELINE-FANOUT-SHAPE",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A pipeline's fanout and join stages are not one region",
  doc: "When a pipeline stage has fanout or join, the pipeline needs exactly one fanout stage and exactly one join stage, the join after the fanout, and at least one stage between them (the stages each lane runs). Fix the stages so they form one fanout … join region.",
  example: {
    bad: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Split {item}", fanout: {max: 3}}\n    - {intent_template: "Merge {prevs}", join: true}',
    good: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Split {item}", fanout: {max: 3}}\n    - {intent_template: "Check {item}"}\n    - {intent_template: "Merge {prevs}", join: true}',
  },
  message: (step: string, fanouts: number, joins: number) =>
    `pipeline step '${step}' must have exactly one \`fanout\` stage and exactly one \`join\` stage (found ${fanouts} fanout, ${joins} join)`,
  orderMessage: (step: string, fanout: number, join: number) =>
    `pipeline step '${step}' \`join\` stage (index ${join}) must come after the \`fanout\` stage (index ${fanout})`,
  laneMessage: (step: string, fanout: number, join: number) =>
    `pipeline step '${step}' must have at least one per-lane stage between \`fanout\` (index ${fanout}) and \`join\` (index ${join})`,
  visit(on: RuleVisitor): void {
    on.onStep(["pipeline"], (step, { reporter }) => {
      const stages = stagesOf(step);
      const fanouts = stages.filter((s) => marks(s, "fanout"));
      const joins = stages.filter((s) => marks(s, "join"));
      if (fanouts.length === 0 && joins.length === 0) return;
      const report = (message: string, at: number, suggestion: string) => {
        const stage = stages.find((s) => s.index === at);
        reporter.report(SPEC_PIPELINE_FANOUT_SHAPE, {
          message,
          path: stepPath(step, "stages"),
          range: stage?.node.range ?? step.node.range,
          suggestion,
        });
      };
      const [fanout] = fanouts;
      const [join] = joins;
      if (fanouts.length !== 1 || joins.length !== 1 || fanout === undefined || join === undefined) {
        const extra = [...fanouts.slice(1), ...joins.slice(1)][0] ?? fanouts[0] ?? joins[0];
        report(
          SPEC_PIPELINE_FANOUT_SHAPE.message(step.id, fanouts.length, joins.length),
          extra?.index ?? 0,
          fanout === undefined
            ? "Add fanout: {max: <lanes>} to the stage whose output splits into lanes"
            : join === undefined
              ? "Add join: true to the stage that reduces the lanes' outputs"
              : "Keep one fanout stage and one join stage",
        );
        return;
      }
      if (join.index <= fanout.index) {
        report(
          SPEC_PIPELINE_FANOUT_SHAPE.orderMessage(step.id, fanout.index, join.index),
          join.index,
          "Move the join stage after the fanout stage",
        );
      } else if (join.index - fanout.index < 2) {
        report(
          SPEC_PIPELINE_FANOUT_SHAPE.laneMessage(step.id, fanout.index, join.index),
          join.index,
          "Add the stage each lane runs between the fanout and the join",
        );
      }
    });
  },
});
