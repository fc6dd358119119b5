// What the inbox keeps of one stored flow (docs/guides/ui-inbox.md): its row of the flows list,
// what its waiting gate approves, and the gate resolutions its trace records. Built once per
// stored version of the flow (FlowSource keeps it while the flow's change token holds), so
// answering the inbox costs a pass over these rows, not a decoding of every flow.
import type { FlowRun } from "../interpreter/index";
import type { FlowListItem, GateOutcome, ReviewedStep } from "./api-types";
import { deciderOf, decisionTimes } from "./review-log-entries";
import { flowListItem } from "./views";

/** A gate resolution as the flow's trace holds it. */
interface RecordedDecision {
  readonly step_id: string;
  readonly outcome: GateOutcome;
  readonly resolved_by: string;
  readonly note: string;
  readonly round: number;
  /** When it was made, from the flow's review log; null for flows older than the log, or its oldest entries. */
  readonly at_ms: number | null;
  /** Its place among the flow's trace records (every round's, oldest first). */
  readonly index: number;
}

export interface InboxRow {
  readonly item: FlowListItem;
  /** What the waiting gate approves; null when the flow waits at none. */
  readonly approves: { readonly intent: string; readonly reviews: readonly ReviewedStep[] } | null;
  readonly decisions: readonly RecordedDecision[];
  /** How many trace records the flow has (a decision is the flow's last when its index is one less). */
  readonly record_count: number;
}

/** A gate names at most this many steps it reviews (a gate that depends on a hundred steps is rare and unreadable). */
const MAX_REVIEWED = 5;

const OUTCOMES: ReadonlySet<string> = new Set<GateOutcome>(["approve", "revise", "kill"]);

export function inboxRow(run: FlowRun, updatedMs: number): InboxRow {
  const item = flowListItem(run, updatedMs);
  const records = [...run.state.rounds.flat(), ...run.state.records];
  const decisions: RecordedDecision[] = [];
  const times = decisionTimes(run);
  records.forEach((r, index) => {
    if (r.type !== "gate" || !OUTCOMES.has(r.outcome)) return;
    decisions.push({
      step_id: r.step_id,
      outcome: r.outcome,
      resolved_by: deciderOf(r),
      note: r.rationale,
      round: r.round,
      at_ms: times.get(r) ?? null,
      index,
    });
  });
  return { item, approves: approvesOf(run, item), decisions, record_count: records.length };
}

/** The row of a flow file that cannot be decoded: nothing waits, nothing was decided that can be read. */
export function corruptInboxRow(item: FlowListItem): InboxRow {
  return { item, approves: null, decisions: [], record_count: 0 };
}

/** The gate function's intent and the steps it reviews: those it depends on, else the one before it. */
function approvesOf(run: FlowRun, item: FlowListItem): InboxRow["approves"] {
  if (item.gate === null) return null;
  const steps = run.flow.steps;
  const at = steps.findIndex((s) => s.id === item.gate?.step_id);
  const gate = steps[at];
  if (gate === undefined) return null;
  const before = steps[at - 1];
  const reviewed = gate.dependsOn.length > 0 ? gate.dependsOn : before === undefined ? [] : [before.id];
  const reviews = reviewed.slice(0, MAX_REVIEWED).map((id): ReviewedStep => {
    const step = steps.find((s) => s.id === id);
    const fn = step?.function == null ? undefined : run.spec.functions.get(step.function);
    const intent = step?.intent ?? (fn?.intent === "" ? undefined : fn?.intent);
    return { step_id: id, intent: intent ?? null };
  });
  const fn = gate.function === null ? undefined : run.spec.functions.get(gate.function);
  return { intent: fn?.intent ?? "", reviews };
}
