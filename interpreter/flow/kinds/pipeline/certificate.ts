// A pipeline task's certificate (the reference's effective_pipeline_task_cert): the stage's own
// task_reasoning_template whatever the agent, else the step's for claude agents only.
import { reasoningTemplateJson } from "../../../../checker/ir/reasoning-ir";
import type { ReasoningTemplateIR, StepIR } from "../../../../checker/ir/types";
import { fromJsonValue } from "../../../../stdlib/values/json";
import type { PyValue } from "../../../../stdlib/values/value";
import { pipelineOf } from "./tasks";

/** The template as payloads show it (defaults filled in), or null. */
export function reasoningTemplateWire(template: ReasoningTemplateIR | null): PyValue {
  return template === null ? null : fromJsonValue(reasoningTemplateJson(template));
}

/** The certificate a task of stage `stage` is checked for, or null. */
export function stageCertificate(step: StepIR, stage: number): ReasoningTemplateIR | null {
  const pipeline = pipelineOf(step);
  const own = pipeline.stages[stage];
  if (own?.taskReasoningTemplate != null) return own.taskReasoningTemplate;
  if (pipeline.taskReasoningTemplate === null) return null;
  const agent = own?.agent || step.agent || "claude";
  return agent.startsWith("claude") ? pipeline.taskReasoningTemplate : null;
}
