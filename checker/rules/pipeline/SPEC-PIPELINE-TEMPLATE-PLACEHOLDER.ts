// SPEC-PIPELINE-TEMPLATE-PLACEHOLDER: a pipeline stage's intent_template names a placeholder its
// position never fills: `{prev}` in the first stage, `{prevs}` outside the join stage, `{source}`
// outside a lane (docs/reference/language.md §6.9). A warning: the reference does not check it.
import { fromKeyLine } from "../../anchors";
import { marks, type StageDecl, stagesOf } from "../../kinds/pipeline/stages";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

type Where = "first" | "join" | "lane";

/** The position-bound placeholders and where each is filled. */
const FILLED_IN: Readonly<Record<string, Where>> = {
  prev: "first",
  prev_raw: "first",
  prevs: "join",
  prevs_raw: "join",
  source: "lane",
  source_raw: "lane",
};

/** `{name}` not inside doubled braces (`{{prev}}` is literal text). */
const PLACEHOLDER = /(?<!\{)\{(prev|prev_raw|prevs|prevs_raw|source|source_raw)\}(?!\})/g;

const WHERE_TEXT: Readonly<Record<Where, string>> = {
  first: "is not filled in the first stage (it has no previous stage)",
  join: "is filled only in the join stage",
  lane: "is filled only in a lane stage (between the fanout and the join)",
};

export const SPEC_PIPELINE_TEMPLATE_PLACEHOLDER = defineRule({
  code: "SPEC-PIPELINE-TEMPLATE-PLACEHOLDER",
  severity: "warning",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A stage's intent_template uses a placeholder its position never fills",
  doc: "A pipeline stage's intent_template may use {prev} / {prev_raw} (the previous stage's output) in every stage but the first, {prevs} / {prevs_raw} (the lanes' outputs) only in the join stage, and {source} / {source_raw} (the pipeline's element) only in the stages between the fanout and the join. Elsewhere nothing fills them, and the agent would be sent the placeholder instead of a value. Move the placeholder to a stage that has it, or use {item}.",
  example: {
    bad: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Review {prev}"}',
    good: '- id: review\n  type: pipeline\n  source: "$.input.files"\n  stages:\n    - {intent_template: "Review {item}"}\n    - {intent_template: "Summarise {prev}"}',
  },
  message: (step: string, stage: number, placeholder: string, where: string) =>
    `pipeline step '${step}' stage ${stage}: intent_template placeholder '${placeholder}' ${where}`,
  visit(on: RuleVisitor): void {
    on.onStep(["pipeline"], (step, { model, reporter }) => {
      const stages = stagesOf(step);
      const fanout = stages.find((s) => marks(s, "fanout"))?.index ?? null;
      const join = stages.find((s) => marks(s, "join"))?.index ?? null;
      const fills = (stage: StageDecl, where: Where): boolean => {
        if (where === "first") return stage.index > 0;
        if (where === "join") return stage.index === join;
        return fanout !== null && join !== null && stage.index > fanout && stage.index < join;
      };
      for (const stage of stages) {
        const entry = stage.node.get("intent_template");
        const node = entry?.value;
        if (entry === undefined || node?.kind !== "scalar" || typeof node.value !== "string") continue;
        for (const m of node.value.matchAll(PLACEHOLDER)) {
          const where = FILLED_IN[m[1] ?? ""];
          if (where === undefined || fills(stage, where)) continue;
          const start = m.index ?? 0;
          reporter.report(SPEC_PIPELINE_TEMPLATE_PLACEHOLDER, {
            message: SPEC_PIPELINE_TEMPLATE_PLACEHOLDER.message(
              step.id,
              stage.index,
              m[0],
              WHERE_TEXT[where],
            ),
            path: `${stepPath(step, "stages")}.${stage.index}.intent_template`,
            range: fromKeyLine(model.source, entry, node.mapRange(start, start + m[0].length)),
            suggestion: "Use {item}, or move the placeholder to a stage that fills it",
          });
        }
      }
    });
  },
});
