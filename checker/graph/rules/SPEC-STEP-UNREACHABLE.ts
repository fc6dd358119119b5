// SPEC-STEP-UNREACHABLE (warning): a step no route from the first step reaches (docs/reference/language.md §9.5.4
// "Reachability"). Nodes are the steps in execution order plus END. A non-gate step goes to the
// next position (END after the last), to `next` and to `on_fail`; a gate goes to `on_approve` and
// `on_kill` (END when null or absent) and to `on_revise`. A step whose kind is unknown (null) is
// treated as a non-gate step: that is the conservative choice, it keeps the fall-through edge.
// Skipped for a flow with a dependency cycle, and for a flow where a reachable step has a route
// field that is present but structurally invalid (its target is unknown, so reachability cannot
// be decided; SCHEMA-* already reports it). A route to an unknown step id adds no edge. A step
// whose id repeats an earlier one is not reported (no route can name it; the duplicate is the error).
import { stepEntityRange } from "../../anchors";
import type { FlowDecl, SpecModel, StepDecl } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { type Execution, executionOf, stepsSeq } from "./execution";
import { stepPath } from "./paths";

export const SPEC_STEP_UNREACHABLE = defineRule({
  code: "SPEC-STEP-UNREACHABLE",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "A step can never run",
  doc:
    "Execution starts at the first step and moves on to the following step, or along next, " +
    "on_fail and the gate routes; a gate never falls through to the following step. A step that " +
    "no route reaches is dead. Route to it (for example with a gate's on_approve) or remove it.",
  example: {
    bad: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null, on_revise: a}\n- {id: z, intent: never}",
    good: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: z, on_kill: null, on_revise: a}\n- {id: z, intent: y}",
  },
  message: (s: string) => `Step '${s}' can never run: no route from the first step reaches it`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) checkFlow(model, flow, reporter);
  },
}) satisfies SemanticRule;

const END = -1;
const UNKNOWN = null;

function checkFlow(model: SpecModel, flow: FlowDecl, reporter: Reporter): void {
  const execution = executionOf(flow);
  const seq = stepsSeq(flow);
  if (execution === null || seq === null || execution.order.length === 0) return;
  const reached = reachable(flow, execution);
  if (reached === null) return;
  execution.order.forEach((step, i) => {
    // A repeated id already has SPEC-STEP-DUPLICATE-ID; routes can only name the first declaration.
    if (reached[i] === 1 || step.id === null || flow.stepById.get(step.id) !== step) return;
    reporter.report(SPEC_STEP_UNREACHABLE, {
      message: SPEC_STEP_UNREACHABLE.message(step.id),
      path: stepPath(flow.name, step.id),
      range: stepEntityRange(model.source, seq, step.index),
    });
  });
}

/** 1 for every position reachable from position 0; null when some route is unknown. */
function reachable(flow: FlowDecl, execution: Execution): Uint8Array | null {
  const { order } = execution;
  const reached = new Uint8Array(order.length);
  const stack = [0];
  reached[0] = 1;
  while (stack.length > 0) {
    const i = stack.pop() as number;
    const targets = successors(flow, execution, order[i] as StepDecl, i);
    if (targets === UNKNOWN) return null;
    for (const t of targets) {
      if (t === END || reached[t] === 1) continue;
      reached[t] = 1;
      stack.push(t);
    }
  }
  return reached;
}

function successors(flow: FlowDecl, execution: Execution, step: StepDecl, i: number): number[] | null {
  const out: number[] = [];
  const to = (id: string): void => {
    const target = flow.stepById.get(id);
    const p = target === undefined ? undefined : execution.position.get(target);
    if (p !== undefined) out.push(p);
  };
  const routes = step.kind === "gate" ? ["on_approve", "on_kill", "on_revise"] : ["next", "on_fail"];
  for (const key of routes) {
    if (step.entry(key) === undefined) {
      if (key !== "on_revise" && step.kind === "gate") out.push(END);
      continue;
    }
    const field = step.kind === "gate" ? step.nullableString(key) : step.string(key);
    if (field === null) return UNKNOWN;
    if (field.value !== null) to(field.value);
    else if (key !== "on_revise") out.push(END);
  }
  if (step.kind !== "gate") out.push(i + 1 < execution.order.length ? i + 1 : END);
  return out;
}
