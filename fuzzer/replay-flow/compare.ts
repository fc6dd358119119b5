// Where a replay against the edited spec departs from the replay against the recorded spec. Both
// drives send the same recorded answers, so they differ only where the specs do; the first fact
// that differs is the divergence, classified and placed at the edited spec's line. Comparing with
// a drive of the recorded spec (rather than with the trace) keeps the answers the store did not
// keep out of the verdict: a reconstructed result is sent to both specs alike.
import type { ExpressionIR } from "../../checker/index";
import type { Violation } from "../../interpreter/index";
import { ensureOf, type FuzzTarget, Locator } from "../target";
import { type ChildPlace, type Drive, type Fact, sameFact } from "./drive";
import type { RecordedEntry, RecordedFlow } from "./recording";

export type DivergenceKind =
  /** A recorded result the edited spec rejects (contract, output_schema, ensure, guardrails). */
  | "result_rejected"
  /** The edited spec goes to another step (or finishes, or goes on) where the recorded flow did not. */
  | "route_changed"
  /** A recorded step no longer exists in the edited flow. */
  | "step_removed"
  /** A recorded step the edited spec now passes over (its skip_if holds). */
  | "step_skipped"
  /** A recorded gate decision with no gate to take it: the step is no longer a gate, or its policy approves it. */
  | "gate_missing"
  /** A replayed iteration report that the edited loop answers otherwise (it ends earlier or later). */
  | "iteration_changed"
  /** The edited flow no longer exists, or refuses the recorded input. */
  | "flow_refused"
  /** Any other difference in what the interpreter did. */
  | "behaviour_changed";

export interface Divergence {
  readonly kind: DivergenceKind;
  readonly step: string | null;
  readonly message: string;
  /** What the replay of the recorded spec did at this point, and what the edited spec does. */
  readonly recorded: string;
  readonly now: string;
  /** In the edited spec. */
  readonly range: { readonly start: number; readonly end: number };
  /** The edited spec's violation texts of a rejected result. */
  readonly violations: readonly string[];
  /**
   * The recorded answer being replayed is a step result the store did not keep (reconstructed):
   * the divergence may come from the reconstruction rather than from the edit.
   */
  readonly reconstructed: boolean;
  /** Set when the divergence is inside a sub-flow's child: which child, run by which step. */
  readonly child: ChildPlace | null;
}

/** The first divergence of `edited` from `baseline`, or null when they agree. */
export function firstDivergence(
  recording: RecordedFlow,
  target: FuzzTarget,
  baseline: Drive,
  edited: Drive,
): Divergence | null {
  const where = new Places(target, recording.flowName);
  if (edited.end.kind === "plan_refused") {
    if (baseline.end.kind === "plan_refused") return null;
    return where.divergence("flow_refused", null, {
      message: `the edited spec refuses the recorded flow: ${edited.end.message}`,
      recorded: "planned",
      now: "refused",
      range: where.flow(),
    });
  }
  const n = Math.max(baseline.facts.length, edited.facts.length);
  for (let i = 0; i < n; i++) {
    const b = baseline.facts[i];
    const e = edited.facts[i];
    if (b !== undefined && e !== undefined && sameFact(b, e)) continue;
    const entry = recording.entries[e?.entry ?? b?.entry ?? -1];
    const child = e?.child ?? b?.child ?? null;
    if (child !== null) {
      // Inside a sub-flow's child: placed in the child's flow, and the message names the child.
      const d = classify(new Places(target, child.flow), [], b, e);
      return {
        ...d,
        message: `in sub-flow '${child.flow}' (step '${child.parentStep}' of flow '${child.parentFlow}'): ${d.message}`,
        reconstructed: child.reconstructed,
        child,
      };
    }
    const reconstructed = entry?.kind === "step" && !entry.exact;
    return { ...classify(where, recording.entries, b, e), reconstructed };
  }
  if (baseline.end.kind !== edited.end.kind) {
    // The same facts, but one drive could not send the next answer where the other could.
    const entry = recording.entries[edited.consumed];
    const step = entry?.step ?? null;
    return where.divergence("behaviour_changed", step, {
      message: `the edited spec stops the replay ${describeEnd(edited)}; the recorded spec ${describeEnd(baseline)}`,
      recorded: describeEnd(baseline),
      now: describeEnd(edited),
      range: step === null ? where.flow() : where.step(step),
    });
  }
  return null;
}

function describeEnd(drive: Drive): string {
  switch (drive.end.kind) {
    case "recording_end":
      return "after every recorded answer";
    case "mismatch":
      return `at recorded answer ${drive.end.entry + 1}`;
    case "unreplayable":
      return `at step '${drive.end.step}' (${drive.end.why})`;
    case "plan_refused":
      return "at the plan";
  }
}

/** A fact as people read it. */
function describe(f: Fact | undefined): string {
  if (f === undefined) return "nothing more (the replay stops)";
  const step = f.step === null ? "" : ` '${f.step}'`;
  switch (f.type) {
    case "step_dispatched":
      return `dispatches step${step}`;
    case "gate_awaited":
      return `waits at gate${step}`;
    case "step_finished":
      return `step${step} ${f.detail}`;
    case "gate_resolved":
      return `gate${step} resolved: ${f.detail}`;
    case "step_skipped":
      return f.detail === "policy" ? `approves gate${step} by its policy` : `skips step${step} (skip_if)`;
    case "step_routed":
      return `routes from${step} by ${f.detail} to '${f.to ?? ""}'`;
    case "flow_finished":
      return `the flow ends: ${f.detail}`;
    case "step_abandoned":
      return `abandons step${step}`;
    case "expression_failed":
      return `the ${f.detail} of${step} fails`;
    case "members_judged":
      return `judges the members of${step}`;
    case "flow_started":
      return "starts the flow";
    case "iteration_reported":
      return `the loop of${step} answers a report: ${f.detail}`;
  }
}

function classify(
  where: Places,
  entries: readonly RecordedEntry[],
  b: Fact | undefined,
  e: Fact | undefined,
): Divergence {
  const recorded = describe(b);
  const now = describe(e);
  const pair = { recorded, now };
  // A step the recorded spec ran that the edited flow does not have.
  const gone = [b?.step, b?.to].find((s) => s != null && !where.has(s)) ?? null;
  if (gone !== null) {
    return where.divergence("step_removed", gone, {
      ...pair,
      message: `recorded step '${gone}' no longer exists in flow '${where.flowName}'; the edited spec ${now}`,
      range: e?.step != null && where.has(e.step) ? where.step(e.step) : where.flow(),
    });
  }
  if (
    b?.type === "step_finished" &&
    e?.type === "step_finished" &&
    b.step === e.step &&
    b.detail === "accepted" &&
    e.reasons.length > 0
  ) {
    const step = e.step ?? "";
    const first = e.reasons[0]!;
    return {
      ...where.divergence("result_rejected", step, {
        ...pair,
        message: `the recorded result of step '${step}' is now rejected: ${first.text}`,
        range: where.violation(step, first),
      }),
      violations: e.reasons.map((r) => r.text),
    };
  }
  if (b?.type === "gate_awaited" && e !== undefined && e.step === b.step) {
    const step = b.step ?? "";
    const why =
      e.type === "step_skipped"
        ? e.detail === "policy"
          ? "its policy now approves it"
          : "its skip_if now approves it"
        : "it is no longer a gate";
    return where.divergence("gate_missing", step, {
      ...pair,
      message: `the recorded decision at gate '${step}' has no gate to take it: ${why}`,
      range: where.step(step),
    });
  }
  if (e?.type === "step_skipped" && e.detail === "skip" && b?.step === e.step) {
    const step = e.step ?? "";
    return where.divergence("step_skipped", step, {
      ...pair,
      message: `recorded step '${step}' is now skipped: its skip_if holds`,
      range: where.stepField(step, "skip_if"),
    });
  }
  if (b?.type === "iteration_reported" || e?.type === "iteration_reported") {
    const step = e?.step ?? b?.step ?? "";
    return where.divergence("iteration_changed", step, {
      ...pair,
      message: `the loop of step '${step}' now answers the recorded iteration reports otherwise: the recorded run ${recorded}, the edited spec ${now}`,
      range: where.stepField(step, "exit_criterion"),
    });
  }
  if (isRoute(b) || isRoute(e)) {
    const step = routeStep(e) ?? routeStep(b);
    const range =
      e?.type === "step_routed"
        ? where.stepField(e.step ?? "", e.detail)
        : step !== null && where.has(step)
          ? where.step(step)
          : where.flow();
    const expected = routeStep(b);
    return where.divergence("route_changed", step, {
      ...pair,
      message:
        expected === null
          ? `the route now differs: where the recorded run ends (${recorded}), the edited spec ${now}`
          : `the route now differs: the recorded run goes to '${expected}', the edited spec ${now}`,
      range,
    });
  }
  const step = e?.step ?? b?.step ?? null;
  const entry = entries[e?.entry ?? b?.entry ?? -1];
  return where.divergence("behaviour_changed", step ?? entry?.step ?? null, {
    ...pair,
    message: `the replay differs: the recorded spec ${recorded}; the edited spec ${now}`,
    range: step !== null && where.has(step) ? where.step(step) : where.flow(),
  });
}

/** A fact that says where the flow goes: a dispatch, a gate, a route, the end. */
function isRoute(f: Fact | undefined): boolean {
  return (
    f === undefined ||
    f.type === "step_dispatched" ||
    f.type === "gate_awaited" ||
    f.type === "step_routed" ||
    f.type === "flow_finished"
  );
}

/** The step a route fact goes to (null: the flow ends, or no fact). */
function routeStep(f: Fact | undefined): string | null {
  if (f === undefined || f.type === "flow_finished") return null;
  return f.type === "step_routed" ? f.to : f.step;
}

interface DivergenceParts {
  readonly message: string;
  readonly recorded: string;
  readonly now: string;
  readonly range: { readonly start: number; readonly end: number };
}

/** Ranges in the edited spec, for one flow. */
class Places {
  private readonly locator: Locator;
  constructor(
    private readonly target: FuzzTarget,
    readonly flowName: string,
  ) {
    this.locator = new Locator(target);
  }

  has(step: string): boolean {
    return this.target.spec.flows.get(this.flowName)?.stepById.has(step) === true;
  }

  flow(): { start: number; end: number } {
    return this.target.spec.flows.has(this.flowName)
      ? this.locator.flow(this.flowName)
      : { start: 0, end: 0 };
  }

  step(step: string): { start: number; end: number } {
    return this.has(step) ? this.locator.step(this.flowName, step) : this.flow();
  }

  stepField(step: string, key: string): { start: number; end: number } {
    return this.has(step) ? this.locator.stepField(this.flowName, step, key) : this.flow();
  }

  /** Where a violation comes from: the ensure expression, else the step. */
  violation(step: string, v: Violation): { start: number; end: number } {
    const ir = this.target.spec.flows.get(this.flowName)?.stepById.get(step);
    if (ir === undefined) return this.flow();
    if (v.kind === "ensure_failed" || v.kind === "ensure_raised") {
      const expr: ExpressionIR | undefined = ensureOf(this.target.spec, ir)[v.index];
      if (expr !== undefined) return expr.range;
      return this.locator.ensureKey(this.flowName, step);
    }
    return this.step(step);
  }

  divergence(kind: DivergenceKind, step: string | null, parts: DivergenceParts): Divergence {
    return { kind, step, violations: [], reconstructed: false, child: null, ...parts };
  }
}
