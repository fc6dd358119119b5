// The control model of a flow, read from the checked IR: positions in execution order, the routes
// as positions, and what `skip_if` and the gate policy do at dispatch. Data never matters here:
// an agent's result can pass or fail on every attempt and a human may pick any gate outcome.
import type { CheckedSpec, FlowIR, StepIR } from "../ir/types";
import { constantTruth } from "./constant";
import type { ControlFlow, ControlStep, SkipMode } from "./types";

export function controlFlowOf(flow: FlowIR, spec: CheckedSpec): ControlFlow {
  const n = flow.steps.length;
  const position = new Map<string, number>();
  for (const [i, s] of flow.steps.entries()) position.set(s.id, i);
  const at = (id: string | null): number | null => (id === null ? null : (position.get(id) ?? null));
  const steps = flow.steps.map((s, i): ControlStep => {
    const gate = s.kind === "gate";
    return {
      id: s.id,
      kind: gate ? "gate" : s.kind === "flow" ? "flow" : "work",
      next: at(s.next),
      onFail: at(s.onFail),
      onApprove: at(s.onApprove) ?? n,
      onRevise: at(s.onRevise) ?? i,
      revisesElsewhere: gate && s.onRevise !== null,
      onKill: at(s.onKill),
      skip: skipMode(s),
      autoApprove: gate && (s.policy === "flag" || s.policy === "skip"),
      canFail: !gate && canFail(s, spec),
      retries: s.retries > 1,
      child: s.kind === "flow" ? s.flow : null,
    };
  });
  return { name: flow.name, steps, maxRounds: flow.maxRounds };
}

function skipMode(step: StepIR): SkipMode {
  if (step.skipIf === null) return "never";
  const truth = constantTruth(step.skipIf.ast);
  return truth === null ? "choice" : truth ? "always" : "never";
}

/**
 * Whether some result fails the step's checks (interpreter/flow/result-checks.ts): a contract, an
 * output_schema, a reasoning certificate (Claude agents) or an ensure. Without any of them every
 * reported result passes. The kinds that judge members or tasks can fail on their own terms.
 */
function canFail(step: StepIR, spec: CheckedSpec): boolean {
  if (step.kind !== "function" && step.kind !== "inline" && step.kind !== "flow") return true;
  const fn = step.kind === "function" ? spec.functions.get(step.function ?? "") : undefined;
  const contract = step.kind === "function" ? (fn?.output ?? "") : (step.outputContract ?? "");
  const ensure = step.kind === "function" ? (fn?.ensure ?? []) : step.ensure;
  const agent = step.agent === null || step.agent === "" ? "claude" : step.agent;
  const certificate = (step.reasoningTemplate ?? null) !== null && agent.startsWith("claude");
  return contract !== "" || step.outputSchema !== null || certificate || ensure.length > 0;
}
