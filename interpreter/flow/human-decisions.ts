// The gate decisions a person made that a revert would undo (a server with STRATUM_GATES=human
// refuses such a revert: docs/reference/runtime.md §16.8). A checkpoint holds the trace as it was
// (the current round's records and the archived rounds'), so a decision in the flow's trace that the
// checkpoint's trace lacks is one the revert would erase: an approval, a revise that sent the work
// back, a kill that ended the flow.
import type { GateRecord, Snapshot, TraceRecord } from "../base/flow-state";

type Traced = Pick<Snapshot, "records" | "rounds">;

/** The records of every round, archived ones first. */
function allRecords(s: Traced): TraceRecord[] {
  return [...s.rounds.flat(), ...s.records];
}

function isHumanGate(r: TraceRecord): r is GateRecord {
  return r.type === "gate" && r.resolved_by === "human";
}

/** A record's identity across a store round trip (records are immutable once written). */
function key(r: GateRecord): string {
  return JSON.stringify([r.step_id, r.outcome, r.round, r.rationale, r.duration_ms]);
}

/** The person's gate decisions in `current` that `checkpoint` does not hold, in trace order. */
export function humanDecisionsUndone(current: Traced, checkpoint: Traced): GateRecord[] {
  const kept = new Map<string, number>();
  for (const r of allRecords(checkpoint).filter(isHumanGate)) kept.set(key(r), (kept.get(key(r)) ?? 0) + 1);
  const undone: GateRecord[] = [];
  for (const r of allRecords(current).filter(isHumanGate)) {
    const left = kept.get(key(r)) ?? 0;
    if (left > 0) kept.set(key(r), left - 1);
    else undone.push(r);
  }
  return undone;
}
