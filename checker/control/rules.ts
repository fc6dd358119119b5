// The diagnostics of the control model (docs/reference/language.md, "Control soundness"): each one states a
// fact that holds on every run, found by exploring the flow's states, and points at its cause.

import { stepPath } from "../graph/rules/paths";
import type { CheckedSpec } from "../ir/types";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { defineRule } from "../rule";
import { placeRange } from "./places";
import { controlSoundness } from "./soundness";
import type { FlowVerdict, RouteKey, Trap } from "./types";

const LOOP_EXAMPLE =
  "- {id: review, intent: review the change}\n- {id: fix, intent: fix what review found, next: review}";

const SPEC_FLOW_NEVER_COMPLETES = defineRule({
  code: "SPEC-FLOW-NEVER-COMPLETES",
  // A warning, not an error: stratum_plan refuses a spec with an error, and the runtime's
  // behaviour on such flows is defined (they loop until a kill or exhausted retries end them), as
  // in the reference, which accepts them.
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "No run of a flow can complete",
  doc:
    "Whatever the agent's results and the human's gate decisions, no run of the flow reaches its " +
    "end: every run loops until a step exhausts its retries, a gate kills it, or the caller gives up. " +
    "The diagnostic points at the route that closes the loop and lists the loop's steps. A typical " +
    "cause is a fix step that routes back to its review with next, so it runs even when the review " +
    "passed: let the review's success leave the loop (put the fix before the review and send a " +
    "failing review back to it with on_fail, or decide with a gate whose on_approve leaves).",
  example: {
    bad: LOOP_EXAMPLE,
    good: "- {id: fix, intent: fix what the last review found}\n- {id: review, intent: review the change, ensure: [result.ok], on_fail: fix}",
  },
  message: (flow: string, loop: string) => `Flow '${flow}' can never complete: ${loop}`,
  related: (step: string) => `step '${step}' is part of the loop`,
});

const SPEC_FLOW_TRAP = defineRule({
  code: "SPEC-FLOW-TRAP",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "Some runs of a flow enter a loop they can never leave towards completion",
  doc:
    "Some runs of the flow complete, but from some reachable point no continuation does: a loop " +
    "whose only exits are kills and exhausted retries (or a sub-flow step whose flow never ends). " +
    "A run that enters it never completes. The diagnostic points at the route that closes the loop.",
  example: {
    bad: "- {id: check, intent: check, ensure: [result.ok], on_fail: fix}\n- {id: done, intent: report, next: z}\n- {id: fix, intent: fix, next: again}\n- {id: again, intent: recheck, next: fix}\n- {id: z, intent: end}",
    good: "- {id: check, intent: check, ensure: [result.ok], on_fail: fix}\n- {id: done, intent: report, next: z}\n- {id: fix, intent: fix}\n- {id: again, intent: recheck, ensure: [result.ok], on_fail: fix}\n- {id: z, intent: end}",
  },
  message: (flow: string, loop: string) =>
    `Flow '${flow}' can get stuck: ${loop}; a run that gets there never completes`,
  related: (step: string) => `step '${step}' is part of the loop`,
});

const SPEC_STEP_ALWAYS_SKIPPED = defineRule({
  code: "SPEC-STEP-ALWAYS-SKIPPED",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "A step's skip_if is always true",
  doc:
    "skip_if is evaluated at every dispatch of the step; an expression that is always true (a " +
    "literal such as True, a non-empty string or list, not False) skips the step on every run, so " +
    "it never runs (a gate is approved without a human). Remove the step, or make the condition " +
    "read the data it depends on.",
  example: {
    bad: "- {id: a, intent: x, skip_if: 'True'}",
    good: "- {id: a, intent: x, skip_if: '$.input.quick'}",
  },
  message: (step: string) => `Step '${step}' never runs: its skip_if is always true`,
  gate: (step: string) =>
    `Gate '${step}' never waits for a human: its skip_if is always true, so it is always approved`,
});

const SPEC_STEP_DEAD = defineRule({
  code: "SPEC-STEP-DEAD",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "A step that a route names can never run",
  doc:
    "A route leads to the step, but no run ever takes that route: the step before it always leaves " +
    "by next (it falls through only when its skip_if skips it), the step that routes to it is " +
    "always skipped, a sub-flow it depends on never ends, or a gate's policy approves it on every " +
    "run. The diagnostic points at the cause; the dead step is its related place. " +
    "SPEC-STEP-UNREACHABLE covers steps no route names at all.",
  example: {
    bad: "- {id: a, intent: x, next: c}\n- {id: b, intent: never runs}\n- {id: c, intent: y}",
    good: "- {id: a, intent: x, next: c, on_fail: b}\n- {id: b, intent: recover, next: c}\n- {id: c, intent: y}",
  },
  message: (step: string, because: string) => `Step '${step}' can never run: ${because}`,
  related: (step: string) => `step '${step}' is declared here`,
});

const SPEC_REVISE_UNBOUNDED = defineRule({
  code: "SPEC-REVISE-UNBOUNDED",
  severity: "info",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate's on_revise loop has no bound",
  doc:
    "The gate can send the flow back with on_revise, and the flow has no max_rounds: the loop " +
    "ends only when a human approves or kills, and every round needs one. Set max_rounds on the " +
    "flow to bound it (a revise past it is refused and the gate waits for approve or kill).",
  example: {
    bad: "flows:\n  main:\n    steps:\n      - {id: draft, intent: write}\n      - {id: ok, function: approve, on_approve: null, on_revise: draft, on_kill: null}",
    good: "flows:\n  main:\n    max_rounds: 3\n    steps:\n      - {id: draft, intent: write}\n      - {id: ok, function: approve, on_approve: null, on_revise: draft, on_kill: null}",
  },
  message: (gate: string, target: string, flow: string) =>
    `Gate '${gate}' revises back to '${target}' without a bound: flow '${flow}' has no max_rounds, so every round needs a human`,
});

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
