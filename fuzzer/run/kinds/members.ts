// The kinds whose members answer one question and are judged one by one (a quorum's runs, a race's
// candidates): the agent runs the members and reports them (member-plan.ts), and the observer reads
// the verdicts of the members whose report did not count.
import type { FlowIR, StepIR } from "../../../checker/index";
import type { MemberViolation } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";
import { ensureOf } from "../../target";
import type { Exchange, Plain } from "../session";
import type { FuzzKind, KindRun, MemberMemory } from "./kind";
import { memberPlan } from "./member-plan";
import { taskIds } from "./task-ids";

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** The consumer path of a member step: the agent runs the members and reports them, in one batch or (`twoBatches`) maybe two. */
async function playMembers(
  run: KindRun,
  payload: Plain,
  flow: FlowIR,
  step: StepIR,
  twoBatches: boolean,
): Promise<Plain> {
  const flowId = str(payload.flow_id);
  const hasEnsure = ensureOf(run.spec, step).length > 0;
  const plan = memberPlan(taskIds(payload.tasks), twoBatches, hasEnsure, run.decider, (aim) =>
    run.result(aim, flow, step, flowId),
  );
  let r: Plain = {};
  for (const batch of plan.batches) {
    r = await run.call("stratum_parallel_done", {
      flow_id: flowId,
      step_id: step.id,
      task_results: batch,
      merge_status: "clean",
    });
    if (r.status !== "race_pending") break;
  }
  run.judged(flowId, step.id, plan.aim, r);
  const retried =
    (r.status === "ensure_failed" || r.status === "schema_failed" || r.status === "guardrail_blocked") &&
    r.step_id === step.id;
  if (!retried && r.status !== "error" && r.status !== "race_pending") {
    // The race's winner, or (a quorum) the first completed member: what later steps will read.
    const race = r.race;
    const winner =
      race !== null && typeof race === "object" && !Array.isArray(race) ? (race as Plain).winner : undefined;
    const result = typeof winner === "string" ? plan.results.get(winner) : plan.results.values().next().value;
    run.setOutput(flowId, step.id, fromJsonValue(result ?? null));
  }
  return r;
}

/**
 * The members of a step whose report did not count, judged in this call (members_judged) or, for
 * a lost race, in earlier calls of the same race (remembered from those calls' events).
 */
function membersOf(ex: Exchange, flowId: string, stepId: string, memory: MemberMemory): MemberViolation[] {
  const out: MemberViolation[] = [];
  for (const e of ex.events ?? []) {
    if (e.flow_id !== flowId) continue;
    if (e.type === "members_judged" && e.step_id === stepId) {
      for (const m of e.members) {
        memory.set(`${flowId}\u0000${stepId}\u0000${m.member}`, m);
        out.push(m);
      }
    } else if (e.type === "step_finished" && e.step_id === stepId) {
      for (const v of e.reasons) {
        if (v.kind !== "member" || v.verdict.status !== "judged_earlier") continue;
        const earlier = memory.get(`${flowId}\u0000${stepId}\u0000${v.member}`);
        if (earlier !== undefined) out.push(earlier);
      }
    }
  }
  return out;
}

/** A member kind: its members reported in one batch, or (`twoBatches`) in one or two, the last ones first. */
export function memberKind(options: { readonly twoBatches: boolean }): FuzzKind {
  return {
    fanOut: (run, payload, flow, step) => playMembers(run, payload, flow, step, options.twoBatches),
    report: null,
    membersOf,
    reportsRounds: false,
    aggregate: null,
  };
}
