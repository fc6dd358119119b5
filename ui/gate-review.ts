// What the page shows a person at a gate (docs/guides/ui-at-the-gate.md), built from the flow's
// state: the steps under review with why their earlier attempts were rejected and how their result
// differs from the attempt before or the round before (the review log, interpreter
// flow/review-log.ts), every earlier gate decision (the gate records of all rounds, with their time
// from the review log), and the gate's lines of the spec. Pure and bounded: whatever the flow
// holds, the review stays under 1 MB (10 steps; per rejected attempt 10 violation texts of 1,000
// characters; 200 diff changes in all with values of 400; 50 decisions with notes of 2,000).
//
// The steps under review: from the gate's `on_revise` target (when it comes before the gate) or
// else from the step after the previous gate (or the flow's first step) up to the step before the
// gate, those that have an output or a logged rejection; the 10 nearest the gate.
import { LineMap } from "../checker/index";
import type { FlowRun } from "../interpreter/index";
import { wireToPlain } from "../interpreter/index";
import type {
  AuditRecord,
  DiffChange,
  GateDecision,
  GateOutcome,
  GateReview,
  RejectedAttempt,
  ResultComparison,
  StepUnderReview,
} from "./api-types";
import { type JsonChange, type JsonPath, jsonDiff } from "./json-diff";
import { deciderOf, decisionTimes, type LogEntry, logEntries } from "./review-log-entries";

const MAX_STEPS = 10;
const MAX_DECISIONS = 50;
const MAX_CHANGES = 100;
const MAX_CHANGES_IN_ALL = 200;
const MAX_VIOLATIONS = 10;
const TEXT_CHARS = 1_000;
const NOTE_CHARS = 2_000;
const VALUE_CHARS = 400;
const EXCERPT_CONTEXT = 2;
const EXCERPT_MAX_LINES = 40;

/** The review of the gate `run` waits at; null when it waits at none. */
export function gateReview(run: FlowRun, gateStepId: string | null): GateReview | null {
  const steps = run.flow.steps;
  const gateIdx = steps.findIndex((s) => s.id === gateStepId);
  const gate = steps[gateIdx];
  if (gate === undefined || gate.kind !== "gate") return null;
  const start = reviewStart(run, gateIdx);
  const reviewed: StepUnderReview[] = [];
  const budget = { changes: MAX_CHANGES_IN_ALL };
  for (let i = gateIdx - 1; i >= start && reviewed.length < MAX_STEPS; i--) {
    const step = steps[i];
    if (step === undefined || step.kind === "gate") continue;
    const item = reviewedStep(run, step.id, budget);
    if (item !== null) reviewed.push(item);
  }
  const decisions = gateDecisions(run);
  return {
    gate_step_id: gate.id,
    spec_excerpt: specExcerpt(run.state.raw_spec, gate.range.start, gate.range.end),
    steps: reviewed.reverse(),
    decisions: decisions.slice(-MAX_DECISIONS),
    decisions_total: decisions.length,
  };
}

function reviewStart(run: FlowRun, gateIdx: number): number {
  const steps = run.flow.steps;
  const target = steps[gateIdx]?.onRevise ?? null;
  const targetIdx = target === null ? -1 : steps.findIndex((s) => s.id === target);
  if (targetIdx >= 0 && targetIdx < gateIdx) return targetIdx;
  for (let i = gateIdx - 1; i >= 0; i--) if (steps[i]?.kind === "gate") return i + 1;
  return 0;
}

function reviewedStep(run: FlowRun, stepId: string, budget: { changes: number }): StepUnderReview | null {
  const entries = logEntries(run.state.review_log.get(stepId));
  const stored = run.state.step_outputs.get(stepId);
  if (stored === undefined && entries.length === 0) return null;
  const rejected: RejectedAttempt[] = entries
    .filter((e) => e.kind === "rejected" || e.kind === "exhausted")
    .map((e) => ({
      round: e.round,
      attempt: e.attempt,
      exhausted: e.kind === "exhausted",
      at_ms: e.at_ms,
      violations: e.violations.slice(0, MAX_VIOLATIONS).map((v) => cut(v, TEXT_CHARS)),
      more_violations: Math.max(0, e.violations.length - MAX_VIOLATIONS),
    }));
  const comparisons: ResultComparison[] = [];
  if (stored !== undefined) {
    const current = wireToPlain(stored, { bigints: "number" });
    const round = run.state.round;
    const thisRound = entries.filter(
      (e) => (e.kind === "rejected" || e.kind === "exhausted") && e.round === round,
    );
    // An exhausted attempt that on_fail routed on with is the result under review itself.
    if (thisRound.at(-1)?.kind === "exhausted") thisRound.pop();
    const previousAttempt = thisRound.at(-1);
    if (previousAttempt !== undefined) comparisons.push(compare("attempt", previousAttempt, current, budget));
    const previousRound = entries.findLast((e) => e.kind === "revised" && e.round < round);
    if (previousRound !== undefined) comparisons.push(compare("round", previousRound, current, budget));
  }
  return { step_id: stepId, rejected, comparisons };
}

function compare(
  against: ResultComparison["against"],
  earlier: LogEntry,
  current: unknown,
  budget: { changes: number },
): ResultComparison {
  const base = { against, round: earlier.round, attempt: earlier.attempt };
  if (earlier.result_omitted) return { ...base, omitted: true, changes: [], more: false };
  const { changes, more } = jsonDiff(earlier.result, current, Math.min(MAX_CHANGES, budget.changes));
  budget.changes -= changes.length;
  return { ...base, omitted: false, changes: changes.map(diffChange), more };
}

function diffChange(change: JsonChange): DiffChange {
  return {
    op: change.op,
    path: pathText(change.path),
    old:
      change.op === "changed"
        ? valueText(change.old)
        : change.op === "removed"
          ? valueText(change.value)
          : null,
    new: change.op === "removed" ? null : valueText(change.value),
  };
}

/** `$.a.b[2]`, or `$["odd key"]` for a key that is not a plain name. */
export function pathText(path: JsonPath): string {
  let text = "$";
  for (const step of path) {
    if (typeof step === "number") text += `[${step}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(step)) text += `.${step}`;
    else text += `[${JSON.stringify(step)}]`;
  }
  return text;
}

/** A value as JSON text, cut at VALUE_CHARS characters. */
export function valueText(value: unknown): string {
  return cut(JSON.stringify(value) ?? "null", VALUE_CHARS);
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** Every gate record of every round, oldest first, each with the time of its resolution when the review log has it. */
function gateDecisions(run: FlowRun): GateDecision[] {
  const records = [...run.state.rounds.flat(), ...run.state.records].filter((r) => r.type === "gate");
  const times = decisionTimes(run);
  return records.map((r) => {
    const record = r as unknown as AuditRecord;
    return {
      step_id: r.step_id,
      round: r.round,
      outcome: record.outcome as GateOutcome,
      resolved_by: deciderOf(r),
      note: typeof record.rationale === "string" ? cut(record.rationale, NOTE_CHARS) : "",
      at_ms: times.get(r) ?? null,
    };
  });
}

/** The gate step's lines (at most EXCERPT_MAX_LINES) with EXCERPT_CONTEXT lines around them. */
function specExcerpt(source: string, start: number, end: number): GateReview["spec_excerpt"] {
  if (source === "") return null;
  const map = new LineMap(source);
  const gateLine = map.position(start).line;
  const lastLine = Math.min(map.position(Math.max(start, end - 1)).line, gateLine + EXCERPT_MAX_LINES - 1);
  const lines = source.replace(/(\r\n|\r|\n)$/, "").split(/\r\n|\r|\n/);
  const first = Math.max(1, gateLine - EXCERPT_CONTEXT);
  const last = Math.min(lines.length, lastLine + EXCERPT_CONTEXT);
  return { first_line: first, lines: lines.slice(first - 1, last), gate_line: gateLine };
}
