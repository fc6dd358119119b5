// The review log (FlowState.review_log): what a person deciding a gate wants to see and the flow
// itself never reads again — why each rejected attempt was rejected (the violation texts the
// response carried) and the result it was rejected for, the results a revise cleared (so the next
// round's can be compared with them), and when each gate was resolved. Everything else about a
// step is in its records; these facts are otherwise lost when the call ends.
//
// Bounded, because a flow file is read whole: per step the latest REVIEW_LOG_PER_STEP entries, at
// most REVIEW_LOG_STEPS steps (the step written longest ago is dropped), at most
// REVIEW_VIOLATIONS texts of at most REVIEW_TEXT_CHARS each, and a result only when its JSON is
// about REVIEW_RESULT_CHARS or less (else `result_omitted`).
import { PyDict, PyFloat, PyTuple, type PyValue } from "../../stdlib/values/value";
import type { WireObject } from "../wire/wire";
import { deleteEntry, putEntry } from "./edits";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

const REVIEW_LOG_PER_STEP = 4;
const REVIEW_LOG_STEPS = 100;
const REVIEW_VIOLATIONS = 20;
const REVIEW_TEXT_CHARS = 2_000;
const REVIEW_RESULT_CHARS = 16_000;

/**
 * `rejected`: a result refused with attempts left; `exhausted`: refused on the last attempt;
 * `revised`: the step's output a revise cleared; `gate`: a gate resolution (its outcome, who and
 * the note are in its GateRecord; this entry adds the time).
 */
type ReviewEntryKind = "rejected" | "exhausted" | "revised" | "gate";

/** One entry, in this key order. */
interface ReviewEntry extends WireObject {
  readonly kind: ReviewEntryKind;
  readonly round: number;
  /** The attempt the entry is about (1-based); for a gate, 0. */
  readonly attempt: number;
  /** Wall clock of the call, ms since the epoch. */
  readonly at_ms: number;
  readonly violations: readonly string[];
  /** The rejected or cleared result; null for a gate, and when omitted for its size. */
  readonly result: PyValue;
  readonly result_omitted: boolean;
}

/** A rejected result of `stepId` (attempt `attempt`), with the response's violation texts. */
export function logRejection(
  tx: Tx,
  run: FlowRun,
  stepId: string,
  attempt: number,
  exhausted: boolean,
  violations: readonly string[],
  result: PyValue,
): void {
  add(run, stepId, entry(exhausted ? "exhausted" : "rejected", run, attempt, tx, violations, result));
}

/**
 * The outputs a revise is about to clear, of the steps it runs again before the gate (indexes
 * `fromIdx` … `gateIdx - 1`) that have one: the REVIEW_LOG_STEPS nearest the gate, in flow order.
 */
export function logRevisedOutputs(tx: Tx, run: FlowRun, fromIdx: number, gateIdx: number): void {
  const { state } = run;
  const cleared: string[] = [];
  for (let i = gateIdx - 1; i >= fromIdx && cleared.length < REVIEW_LOG_STEPS; i--) {
    const id = run.flow.steps[i]?.id;
    if (id !== undefined && state.step_outputs.has(id)) cleared.push(id);
  }
  for (const id of cleared.reverse()) {
    const output = state.step_outputs.get(id) as PyValue;
    add(run, id, entry("revised", run, state.attempts.get(id) ?? 0, tx, [], output));
  }
}

/** The time of a gate's resolution (logged beside the GateRecord appended in the same call). */
export function logGateResolution(tx: Tx, run: FlowRun, gateId: string): void {
  add(run, gateId, entry("gate", run, 0, tx, [], null));
}

function entry(
  kind: ReviewEntryKind,
  run: FlowRun,
  attempt: number,
  tx: Tx,
  violations: readonly string[],
  result: PyValue,
): ReviewEntry {
  const small = jsonSizeAtMost(result, REVIEW_RESULT_CHARS);
  return {
    kind,
    round: run.state.round,
    attempt,
    at_ms: Math.trunc(tx.clock.wallMs()),
    violations: violations
      .slice(0, REVIEW_VIOLATIONS)
      .map((v) => (v.length > REVIEW_TEXT_CHARS ? `${v.slice(0, REVIEW_TEXT_CHARS)}…` : v)),
    result: small ? result : null,
    result_omitted: !small,
  };
}

function add(run: FlowRun, stepId: string, item: ReviewEntry): void {
  const log = run.state.review_log;
  const earlier = log.get(stepId) ?? [];
  if (!log.has(stepId) && log.size >= REVIEW_LOG_STEPS) {
    const oldest = log.keys().next().value;
    if (oldest !== undefined) deleteEntry(run, "review_log", oldest);
  }
  // The step's list moves to the end, so the first key is always the one written longest ago.
  if (log.has(stepId)) deleteEntry(run, "review_log", stepId);
  putEntry(run, "review_log", stepId, [...earlier.slice(-(REVIEW_LOG_PER_STEP - 1)), item]);
}

/**
 * Whether the JSON text of `value` is at most about `limit` characters: strings count their
 * length, every other leaf 8; the walk stops as soon as the limit is passed, so a huge result
 * costs no more than a small one.
 */
function jsonSizeAtMost(value: PyValue, limit: number): boolean {
  let size = 0;
  const stack: PyValue[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as PyValue;
    if (typeof v === "string") size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2;
      for (const item of v as readonly PyValue[]) stack.push(item);
    } else if (v instanceof PyTuple) {
      size += 2;
      for (const item of v.items) stack.push(item);
    } else if (v instanceof PyDict) {
      size += 2;
      for (const [k, item] of v.entries.values()) stack.push(k, item);
    } else size += v instanceof PyFloat ? 24 : 8;
    if (size > limit) return false;
  }
  return true;
}
