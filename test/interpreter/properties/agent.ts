// A cooperative agent for the termination property: it reports passing results (or, by choice, a
// failing one while at least two attempts remain, so a step never exhausts), approves gates, and
// tries at most MAX_REVISES revises in all. Its choices come from a list so fast-check can shrink.
import type { StratumApi } from "../../../interpreter/api";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../stdlib/values/json";
import { resultValue } from "./requests";
import type { ValidSpec } from "./spec-arbitrary";

export const MAX_REVISES = 2;

/**
 * The most calls (after the plan) the agent can need on a spec whose `next`, `on_fail`,
 * `on_approve` and `on_kill` routes all point forward (spec-arbitrary `forwardOnly`):
 * - within a round `current_idx` only moves forward (no route goes back; `on_fail` is never taken,
 *   as no step exhausts), so every step is dispatched at most once per round;
 * - a function or inline step costs at most `retries` calls (one per attempt), a gate one call
 *   (approve or revise), skipped steps and policy gates none;
 * - only a performed revise starts a new round, so there are at most MAX_REVISES + 1 rounds, and
 *   a refused revise (max_rounds reached) costs one extra call, at most MAX_REVISES in all.
 * Bound = (MAX_REVISES + 1) × Σ cost(step) + MAX_REVISES.
 */
export function terminationBound(spec: ValidSpec): number {
  const perRound = spec.steps.reduce((sum, s) => sum + (s.kind === "gate" ? 1 : s.retries), 0);
  return (MAX_REVISES + 1) * perRound + MAX_REVISES;
}

export interface AgentOutcome {
  readonly calls: number;
  readonly finalStatus: unknown;
  readonly transcript: readonly string[];
}

type Plain = Record<string, unknown>;

function plain(v: unknown): Plain {
  const p = wireToPlain(v as never);
  if (typeof p !== "object" || p === null || Array.isArray(p)) throw new Error(`not an object: ${String(p)}`);
  return p as Plain;
}

export async function runAgent(
  api: StratumApi,
  spec: ValidSpec,
  flag: boolean,
  choices: readonly boolean[],
  maxCalls: number,
): Promise<AgentOutcome> {
  let turn = 0;
  const choose = () => choices[turn++ % choices.length] ?? false;
  const transcript: string[] = [];
  let response = plain(await api.plan({ spec: spec.text, flow: "main", inputs: fromJsonValue({ flag }) }));
  const flowId = String(response.flow_id);
  let calls = 0;
  let revises = 0;
  let lastGate = "";
  while (calls <= maxCalls) {
    const status = response.status;
    transcript.push(`${String(status)} ${String(response.step_id ?? response.error_type ?? "")}`);
    if (status === "complete" || status === "killed") break;
    if (status === "execute_step" || status === "ensure_failed" || status === "schema_failed") {
      const remaining = Number(response.retries_remaining);
      const result = choose() && remaining >= 2 ? "fail" : "pass";
      response = plain(
        await api.stepDone({
          flow_id: flowId,
          step_id: String(response.step_id),
          result: resultValue(result),
        }),
      );
    } else if (
      status === "await_gate" ||
      (status === "error" && response.error_type === "max_rounds_exceeded")
    ) {
      if (status === "await_gate") lastGate = String(response.step_id);
      const revise = status === "await_gate" && revises < MAX_REVISES && choose();
      if (revise) revises++;
      response = plain(
        await api.gateResolve({
          flow_id: flowId,
          step_id: lastGate,
          outcome: revise ? "revise" : "approve",
          rationale: "",
          resolved_by: "agent",
        }),
      );
    } else {
      transcript.push(`unexpected: ${JSON.stringify(response).slice(0, 500)}`);
      break;
    }
    calls++;
  }
  return { calls, finalStatus: response.status, transcript };
}
