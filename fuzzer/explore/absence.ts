// Findings about what never happened over all runs: steps never dispatched, ensures never
// satisfied, exit criteria never met. Before an ensure or exit criterion is reported, a targeted
// search evaluates every conforming candidate in many contexts: first the derived candidates
// (values/derived.ts), the same on every seed, then those drawn with the seed; only when none
// satisfies it is it reported, and the message says what was searched.
import fc from "fast-check";
import type { FlowIR, StepIR } from "../../checker/index";
import { FUZZ_DEAD_STEP, FUZZ_ENSURE_UNSATISFIABLE } from "../../checker/index";
import type { PathSource } from "../../interpreter/index";
import type { PyDict, PyValue } from "../../stdlib/index";
import { dictGetStr, fromJsonValue } from "../../stdlib/index";
import type { Coverage, Observation } from "../run/observation";
import { neverAccepted, stepKey } from "../run/observation";
import type { Solver } from "../solver";
import { ensureOf, type FuzzTarget } from "../target";
import type { Shapes } from "../values/shapes";
import { isClosedEnsure } from "./closed-ensure";
import { exitNever } from "./exit-never";
import { whyUnreached } from "./why-unreached";

const CONTEXTS = 12;
/** Random runs per flow below which a dead step is reported only when exhaustive mode proved it. */
const MIN_RUNS_FOR_UNPROVEN_DEAD_STEPS = 100;

export interface AbsenceInput {
  readonly target: FuzzTarget;
  readonly shapes: Shapes;
  readonly solver: Solver;
  readonly coverage: Coverage;
  readonly seed: number;
  /** Flows whose runs got stuck, or that have an unsatisfiable ensure: their unreached steps are collateral, not dead. */
  readonly blocked: ReadonlySet<string>;
  /**
   * The flows explored as roots: only their steps may be called dead. A flow left out (another
   * flow was asked for, or the deadline came first) was never planned on its own, and a sub-flow
   * run only as a selected flow's child may run other steps when planned with other inputs.
   */
  readonly exploredFlows: ReadonlySet<string>;
  /** Whether exploration was exhaustive (for the wording of dead steps). */
  readonly proven: boolean;
  readonly runs: number;
  readonly runsPerFlow: number;
  /** The time budget has run out: no more targeted searches (no claim without one). */
  readonly expired?: () => boolean;
}

/**
 * `$` path contexts for a flow: first a derived one (each input's first derived value, each step's
 * first conforming candidate, the same on every seed), then generated ones: inputs from the flow's
 * declarations, outputs from the steps' shapes.
 */
function contexts(input: AbsenceInput, flow: FlowIR): PathSource[] {
  const arb = fc.record({
    inputs: input.shapes.inputs(flow),
    outputs: fc.tuple(
      ...flow.steps.map((s) =>
        s.kind === "gate" || s.kind === "flow"
          ? fc.constant(null)
          : fc.option(input.shapes.result(s), { nil: null, freq: 4 }),
      ),
    ),
  });
  const fixed = {
    inputs: Object.fromEntries(
      flow.inputNames.map((n) => [n, input.solver.derived.declared(flow.input[n] ?? null)] as const),
    ),
    outputs: flow.steps.map((s) =>
      s.kind === "gate" || s.kind === "flow" ? null : (input.solver.firstConforming(s)?.plain ?? null),
    ),
  };
  const drawn = fc.sample(arb, { seed: input.seed, numRuns: CONTEXTS - 1 });
  return [fixed, ...drawn].map(({ inputs, outputs }) => {
    const inputDict = fromJsonValue(inputs) as PyDict;
    const outs = new Map<string, PyValue>(
      flow.steps.map((s, i) => [s.id, fromJsonValue(outputs[i] ?? null)]),
    );
    return { input: (n) => dictGetStr(inputDict, n), stepOutput: (id) => outs.get(id) };
  });
}

export function absenceFindings(input: AbsenceInput): Observation[] {
  const out: Observation[] = [];
  const { spec } = input.target;
  const reportedEnsures = new Set<string>();
  const unsatisfiableFlows = new Set<string>();
  for (const flow of spec.flows.values()) {
    let ctx: PathSource[] | null = null;
    for (const step of flow.steps) {
      const key = stepKey(flow.name, step.id);
      if (!input.coverage.dispatched.has(key)) continue;
      const ensures = ensureOf(spec, step);
      if (input.expired?.() === true) continue;
      if (
        ensures.length > 0 &&
        !input.coverage.ensurePassed.has(key) &&
        (input.coverage.ensureTried.get(key) ?? 0) > 0
      ) {
        ctx ??= contexts(input, flow);
        const finding = unsatisfiable(input, flow, step, ctx);
        if (finding !== null) {
          unsatisfiableFlows.add(flow.name);
          const where = `${finding.anchor.kind}:${step.function ?? `${flow.name}/${step.id}`}:${finding.anchor.kind === "ensure" ? finding.anchor.index : ""}`;
          if (!reportedEnsures.has(where)) {
            reportedEnsures.add(where);
            out.push(finding);
          }
        }
      }
      if (
        step.exitCriterion !== null &&
        !input.coverage.exitMet.has(key) &&
        (input.coverage.exitTried.get(key) ?? 0) > 0
      ) {
        ctx ??= contexts(input, flow);
        const finding = exitNever(input.solver, flow, step, ctx.slice(0, 3));
        if (finding !== null) out.push(finding);
      }
    }
  }
  const collateral = callersOf(spec, new Set([...input.blocked, ...unsatisfiableFlows]));
  // Not proven and too few runs to be confident: say nothing rather than raise a false alarm.
  if (!input.proven && input.runsPerFlow < MIN_RUNS_FOR_UNPROVEN_DEAD_STEPS) return out;
  // A flow with a step the fuzzer's agent never got accepted was not explored past it: what it did
  // not reach says nothing about the spec (the soundness notes say what rejected the agent).
  const unpassed = new Set(
    [...neverAccepted(input.coverage).keys()].map((k) => k.slice(0, k.lastIndexOf("/"))),
  );
  const cutShort = callersOf(spec, unpassed);
  for (const flow of spec.flows.values()) {
    if (!input.exploredFlows.has(flow.name)) continue;
    if (collateral.has(flow.name) || cutShort.has(flow.name)) continue;
    for (const step of flow.steps) {
      if (input.coverage.dispatched.has(stepKey(flow.name, step.id))) continue;
      const unreached = whyUnreached(flow, step, input.coverage);
      out.push({
        code: FUZZ_DEAD_STEP.code,
        flow: flow.name,
        step: step.id,
        anchor: { kind: "step" },
        message: FUZZ_DEAD_STEP.message(
          step.id,
          input.proven ? "on any path of the exhaustive exploration" : `in ${input.runs} runs`,
          unreached.why,
        ),
        related: unreached.causes,
        call: -1,
      });
    }
  }
  return out;
}

function unsatisfiable(
  input: AbsenceInput,
  flow: FlowIR,
  step: StepIR,
  ctx: readonly PathSource[],
): Observation | null {
  const ensures = ensureOf(input.target.spec, step);
  const everHeld = ensures.map(() => false);
  let tried = 0;
  const derived = input.solver.derivedCount(step);
  for (const paths of ctx) {
    if (input.solver.passing(step, paths) !== null) return null;
    for (const c of input.solver.conforming(step)) {
      tried++;
      const outcomes = input.solver.ensureOutcomes(step, c.value, paths);
      if (outcomes.every((o) => o === true)) return null;
      outcomes.forEach((o, i) => {
        if (o === true) everHeld[i] = true;
      });
    }
  }
  if (tried === 0) return null; // no conforming candidate at all: nothing can be said about the ensure
  const never = everHeld.indexOf(false);
  // A search proves nothing about an ensure it cannot cover (closed-ensure.ts): no claim then.
  const claimed = never === -1 ? ensures : [ensures[never]!];
  if (!claimed.every((e) => isClosedEnsure(e.ast))) return null;
  const what = never === -1 ? "the ensure list" : `ensure '${ensures[never]!.text}'`;
  return {
    code: FUZZ_ENSURE_UNSATISFIABLE.code,
    flow: flow.name,
    step: step.id,
    anchor: never === -1 ? { kind: "ensure-key" } : { kind: "ensure", index: never },
    message: FUZZ_ENSURE_UNSATISFIABLE.message(
      step.id,
      what,
      tried,
      searched(input.solver, step, ctx.length, derived),
    ),
    related: [],
    call: -1,
  };
}

/** What the targeted search of an ensure went through, for the finding's message. */
function searched(solver: Solver, step: StepIR, contexts: number, derived: number): string {
  const drawn = solver.conforming(step).length - derived;
  return `${derived} derived from the step's shape and expressions and ${drawn} drawn, each in ${contexts} contexts, plus a field-by-field repair`;
}

/** The flows in `blocked` and every flow that runs one of them as a sub-flow, transitively. */
function callersOf(spec: FuzzTarget["spec"], blocked: ReadonlySet<string>): Set<string> {
  const out = new Set(blocked);
  for (let changed = true; changed; ) {
    changed = false;
    for (const flow of spec.flows.values()) {
      if (out.has(flow.name)) continue;
      if (flow.steps.some((s) => s.kind === "flow" && s.flow !== null && out.has(s.flow))) {
        out.add(flow.name);
        changed = true;
      }
    }
  }
  return out;
}
