// The diagnostics of the control model (docs/reference/language.md, "Control soundness"): each one states a
// fact that holds on every run, found by exploring the flow's states, and points at its cause.
// Each rule is declared in its own file under rules/; this module lists them in catalogue order
// and reports them from the flows' verdicts.

import { stepPath } from "../graph/rules/paths";
import type { CheckedSpec } from "../ir/types";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { placeRange } from "./places";
import { SPEC_FLOW_NEVER_COMPLETES } from "./rules/SPEC-FLOW-NEVER-COMPLETES";
import { SPEC_FLOW_TRAP } from "./rules/SPEC-FLOW-TRAP";
import { SPEC_REVISE_UNBOUNDED } from "./rules/SPEC-REVISE-UNBOUNDED";
import { SPEC_STEP_ALWAYS_SKIPPED } from "./rules/SPEC-STEP-ALWAYS-SKIPPED";
import { SPEC_STEP_DEAD } from "./rules/SPEC-STEP-DEAD";
import { controlSoundness } from "./soundness";
import type { FlowVerdict, RouteKey, Trap } from "./types";

export const CONTROL_RULES = [
  SPEC_FLOW_NEVER_COMPLETES,
  SPEC_FLOW_TRAP,
  SPEC_STEP_ALWAYS_SKIPPED,
  SPEC_STEP_DEAD,
  SPEC_REVISE_UNBOUNDED,
] as const;

/** Decides every flow of a checked spec and reports what holds on every run. */
export function reportControl(model: SpecModel, spec: CheckedSpec, reporter: Reporter): void {
  const soundness = controlSoundness(spec);
  for (const verdict of soundness.flows.values()) {
    if (verdict.decided) reportFlow(model, spec, verdict, reporter);
  }
}

function reportFlow(model: SpecModel, spec: CheckedSpec, verdict: FlowVerdict, reporter: Reporter): void {
  const flow = verdict.flow;
  const range = (step: string, key: Parameters<typeof placeRange>[3]) => placeRange(model, flow, step, key);
  for (const trap of verdict.traps) {
    const rule = verdict.completes ? SPEC_FLOW_TRAP : SPEC_FLOW_NEVER_COMPLETES;
    const where =
      trap.closing === null ? range(trap.steps[0]!, "step") : range(trap.closing.step, trap.closing.route);
    if (where === null) continue;
    const firstStep = trap.closing?.step ?? trap.steps[0]!;
    reporter.report(rule, {
      message: rule.message(flow, describeTrap(trap)),
      path: stepPath(flow, firstStep),
      range: where,
      related: trap.steps.flatMap((s) => {
        const r = range(s, "step");
        return r === null || trap.steps.length < 2
          ? []
          : [{ message: rule.related(s), path: stepPath(flow, s), range: r }];
      }),
    });
  }
  for (const dead of verdict.deadSteps) {
    const reason = dead.reason;
    if (reason.kind === "unreachable") continue; // SPEC-STEP-UNREACHABLE
    if (reason.kind === "always-skipped") {
      const where = range(dead.step, "skip_if");
      if (where === null) continue;
      const gate = spec.flows.get(flow)?.stepById.get(dead.step)?.kind === "gate";
      reporter.report(SPEC_STEP_ALWAYS_SKIPPED, {
        message: gate
          ? SPEC_STEP_ALWAYS_SKIPPED.gate(dead.step)
          : SPEC_STEP_ALWAYS_SKIPPED.message(dead.step),
        path: `${stepPath(flow, dead.step)}.skip_if`,
        range: where,
      });
      continue;
    }
    const where = range(reason.at.step, reason.at.key);
    const declared = range(dead.step, "step");
    if (where === null || declared === null) continue;
    reporter.report(SPEC_STEP_DEAD, {
      message: SPEC_STEP_DEAD.message(dead.step, reason.because),
      path: stepPath(flow, dead.step),
      range: where,
      related: [
        { message: SPEC_STEP_DEAD.related(dead.step), path: stepPath(flow, dead.step), range: declared },
      ],
    });
  }
  for (const gate of verdict.unboundedRevise) {
    const where = range(gate, "on_revise");
    const target = spec.flows.get(flow)?.stepById.get(gate)?.onRevise;
    if (where === null || target === null || target === undefined) continue;
    reporter.report(SPEC_REVISE_UNBOUNDED, {
      message: SPEC_REVISE_UNBOUNDED.message(gate, target, flow),
      path: `${stepPath(flow, gate)}.on_revise`,
      range: where,
    });
  }
}

const ROUTE_WORDS: Record<RouteKey, string> = {
  next: "next",
  "fall-through": "falling through",
  on_fail: "on_fail",
  on_approve: "on_approve",
  on_revise: "on_revise",
  on_kill: "on_kill",
  skip: "a skip",
};

function describeTrap(trap: Trap): string {
  if (trap.closing === null) {
    return `step '${trap.steps[0]}' runs flow '${trap.stuckChild ?? ""}', which never ends, so the step is never answered`;
  }
  const { step, route, target } = trap.closing;
  const loop = trap.steps.map((s) => `'${s}'`).join(", ");
  const by = route === "fall-through" || route === "skip" ? ROUTE_WORDS[route] : `${route}: '${target}'`;
  return `the loop over ${loop} has no way out that completes (step '${step}' goes back to '${target}' by ${by}); a run in it ends only by a kill, by exhausted retries or not at all`;
}
