// The pipeline part of StepIR (reference 0.2.69, docs/reference/language.md §6.9): the parallel keys
// with their defaults, and each stage with its predicates compiled and its payload form.
import type { JsonObject } from "../base/json";
import { marks, type StageDecl, stagesOf } from "../kinds/pipeline/stages";
import type { StepDecl } from "../model/types";
import type { CheckedExpression, ExpressionTable } from "../spec-expr/types";
import type { MapNode } from "../yaml/nodes";
import { toJson } from "../yaml/to-json";
import { reasoningTemplateIR, reasoningTemplateJson } from "./reasoning-ir";
import type { ExpressionIR, FanoutIR, ParallelDispatchIR, PipelineIR, StageIR } from "./types";

function expressionIR(e: CheckedExpression | null): ExpressionIR | null {
  if (e === null || e.ast === null) return null;
  return { kind: e.kind, text: e.text, ast: e.ast, type: e.type, range: e.node.range };
}

function scalarOf(node: MapNode, key: string): unknown {
  const v = node.get(key)?.value;
  return v?.kind === "scalar" ? v.value : undefined;
}

function fanoutIR(stage: StageDecl): FanoutIR | null {
  if (!marks(stage, "fanout")) return null;
  const fanout = stage.node.get("fanout")?.value;
  if (fanout?.kind !== "map") return null;
  const max = scalarOf(fanout, "max");
  const require = scalarOf(fanout, "require");
  return {
    max: Number(max),
    require:
      require === "all" || require === "any" ? require : require === undefined ? "all" : Number(require),
  };
}

function stageIR(
  stage: StageDecl,
  when: CheckedExpression | null,
  exitWhen: CheckedExpression | null,
): StageIR {
  const node = stage.node;
  const certNode = node.get("task_reasoning_template")?.value;
  const template = reasoningTemplateIR(certNode?.kind === "map" ? certNode : null);
  const written = { ...(toJson(node) as Record<string, unknown>) };
  if (template !== null) written.task_reasoning_template = reasoningTemplateJson(template);
  const agent = scalarOf(node, "agent");
  const timeout = scalarOf(node, "task_timeout");
  return {
    index: stage.index,
    intentTemplate: String(scalarOf(node, "intent_template") ?? ""),
    agent: typeof agent === "string" ? agent : null,
    taskTimeout: timeout === undefined || timeout === null ? null : Number(timeout),
    taskReasoningTemplate: template,
    written: written as JsonObject,
    when: expressionIR(when),
    exitWhen: expressionIR(exitWhen),
    fanout: fanoutIR(stage),
    join: marks(stage, "join"),
  };
}

export function pipelineIR(
  step: StepDecl,
  expressions: ExpressionTable,
  parallel: ParallelDispatchIR,
): PipelineIR {
  const predicates = expressions.pipelinePredicates(step);
  const stages = stagesOf(step).map((s) =>
    stageIR(s, predicates[s.index]?.when ?? null, predicates[s.index]?.exitWhen ?? null),
  );
  return {
    source: parallel.source,
    sourceRef: parallel.sourceRef,
    maxConcurrent: parallel.maxConcurrent,
    isolation: parallel.isolation,
    require: parallel.require,
    merge: parallel.merge,
    taskTimeout: parallel.taskTimeout,
    taskReasoningTemplate: parallel.taskReasoningTemplate,
    stages,
    fansOut: stages.some((s) => s.fanout !== null || s.join),
  };
}
