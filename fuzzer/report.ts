// Findings as users see them: located diagnostics (the checker's public form, so every output
// format of `check` prints them) plus the flow, the step and the counterexample that reproduces
// them; and the per-flow soundness verdicts.

import type { Diagnostic, SourceRange, SpecDiagnostic, SpecRelated } from "../checker/index";
import { applySuppressions, CATALOGUE, present, ruleInfo } from "../checker/index";
import type { Anchor, Observation } from "./run/observation";
import type { WireCall } from "./run/session";
import { ensureOf, type FuzzTarget, Locator } from "./target";

export interface Counterexample {
  readonly seed: number;
  readonly input: Record<string, unknown>;
  readonly calls: readonly WireCall[];
}

export interface FuzzFinding extends Diagnostic {
  readonly flow: string;
  readonly step: string | null;
  /** Null for findings about what never happened (dead steps, unsatisfiable ensures, exit criteria). */
  readonly counterexample: Counterexample | null;
}

/**
 * proven: exhaustive exploration covered every abstract path, every decision on it accepted by the
 * interpreter, and the property held; not_refuted: the runs did not refute it, but not every path
 * was explored; violated: a run refuted it (with its witness), or exhaustive exploration showed a
 * dead step or a flow that never completes; suspect: the exploration could not decide it — the
 * fuzzer's agent never got some step accepted, or no run completed without a proof that none can
 * (the flow's notes say which step and why).
 */
export type Verdict = "proven" | "not_refuted" | "violated" | "suspect";

/** Why a verdict is what it is: what stopped the exploration, at the line of the cause. */
export interface SoundnessNote {
  readonly step: string | null;
  /** 1-based line of the step (or the flow) the note is about. */
  readonly line: number;
  readonly message: string;
}

export interface FlowSoundness {
  readonly option_to_complete: Verdict;
  readonly proper_completion: Verdict;
  readonly no_dead_steps: Verdict;
  readonly notes: readonly SoundnessNote[];
  /**
   * Runs and paths of the flow that ended `budget_exhausted` (the agent's reported usage reached a
   * cap of the flow's budget, docs/reference/runtime.md §11.4): a legal end, counted here, absent
   * when none did.
   */
  readonly budget_exhausted?: number;
}

/** A property's verdict (docs/guides/fuzzing.md "Property verdicts"), with the soundness vocabulary. */
export interface PropertyVerdict {
  readonly flow: string;
  readonly kind: "always" | "never" | "eventually" | "leads_to";
  readonly verdict: Verdict;
  /** 1-based line of the property's name. */
  readonly line: number;
  /** Runs of its flow it was checked on (exhaustive paths included). */
  readonly runs: number;
  /** Why a verdict that held on every explored path is not `proven` (absent otherwise). */
  readonly note?: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly runs: number;
  readonly paths: number;
  /** Every fuzzed flow was explored exhaustively. */
  readonly exhaustive: boolean;
  readonly soundness: Readonly<Record<string, FlowSoundness>>;
  /** Each property of the fuzzed flows, by name (null prototype: names are user text). */
  readonly properties: Readonly<Record<string, PropertyVerdict>>;
  readonly findings: readonly FuzzFinding[];
  /**
   * The time budget ran out before the fuzzer was done: some flow had fewer runs or paths than
   * asked, some witness was not shrunk or minimized, or some flow was not explored at all.
   */
  readonly stoppedByDeadline: boolean;
  /** The flows the budget ran out before: not explored, so without a verdict in `soundness`. */
  readonly notExplored: readonly string[];
}

function rangeOf(
  target: FuzzTarget,
  locate: Locator,
  flow: string,
  step: string | null,
  anchor: Anchor,
): SourceRange {
  if (anchor.kind === "property") return target.spec.properties.get(anchor.name)?.range ?? locate.flow(flow);
  if (step === null) return anchor.kind === "flow-output" ? locate.flowOutput(flow) : locate.flow(flow);
  switch (anchor.kind) {
    case "step":
      return locate.step(flow, step);
    case "field":
      return locate.stepField(flow, step, anchor.key);
    case "input":
      return locate.input(flow, step, anchor.name);
    case "ensure-key":
      return locate.ensureKey(flow, step);
    case "ensure": {
      const ir = target.spec.flows.get(flow)?.stepById.get(step);
      const e = ir === undefined ? undefined : ensureOf(target.spec, ir)[anchor.index];
      return e?.range ?? locate.step(flow, step);
    }
    case "flow-output":
      return locate.flowOutput(flow);
  }
}

function pathOf(target: FuzzTarget, flow: string, step: string | null, anchor: Anchor): string {
  if (anchor.kind === "property") return `properties.${anchor.name}`;
  if (step === null) return anchor.kind === "flow-output" ? `flows.${flow}.output` : `flows.${flow}`;
  const base = `flows.${flow}.steps.${step}`;
  const ir = target.spec.flows.get(flow)?.stepById.get(step);
  const fn = ir?.kind === "function" && ir.function !== null ? `functions.${ir.function}` : null;
  switch (anchor.kind) {
    case "field":
      return `${base}.${anchor.key}`;
    case "input":
      return `${base}.inputs.${anchor.name}`;
    case "ensure":
      return `${fn ?? base}.ensure.${anchor.index}`;
    case "ensure-key":
      return `${fn ?? base}.ensure`;
    default:
      return base;
  }
}

/** A finding located in the spec, with its counterexample. */
export function locateFinding(
  target: FuzzTarget,
  o: Observation,
  counterexample: Counterexample | null,
  severityOverride?: "warning",
): FuzzFinding {
  const locate = new Locator(target);
  const rule = ruleInfo(o.code);
  const related: SpecRelated[] = o.related.map((r) => ({
    message: r.message,
    path: pathOf(target, r.flow, r.step, r.anchor),
    range: rangeOf(target, locate, r.flow, r.step, r.anchor),
  }));
  const d: SpecDiagnostic = {
    code: o.code,
    severity: severityOverride ?? rule?.severity ?? "error",
    errorType: "ir_semantic_error",
    message: o.message,
    path: pathOf(target, o.flow, o.step, o.anchor),
    range: rangeOf(target, locate, o.flow, o.step, o.anchor),
    ...(related.length > 0 ? { related } : {}),
  };
  const [located] = present(target.source, [d]);
  return { ...located!, flow: o.flow, step: o.step, counterexample };
}

/** Whether a `# stratum-ignore[FUZZ-…]: reason` comment suppresses the finding `o`. */
export function suppressed(target: FuzzTarget, o: Observation): boolean {
  const locate = new Locator(target);
  const d: SpecDiagnostic = {
    code: o.code,
    severity: "warning",
    errorType: "ir_semantic_error",
    message: o.message,
    path: "",
    range: rangeOf(target, locate, o.flow, o.step, o.anchor),
  };
  return applySuppressions(target.source, [d], CATALOGUE, { scope: "fuzz" }).length === 0;
}
