// The judge history of a flow (docs/reference/runtime.md §25.3): every successful stratum_judge
// call is a turn of its step. `judge_history[<step>]` gets one record per predicate and tier,
// `{turn, predicate_id, tier, verdict, confidence, reason}`, and `judge_outcome[<step>]` the last
// turn's `{met, predicate_results}`, as the reference's FlowState.record_judge_turn keeps them. The
// next turn is one more than the highest recorded; `budget.max_turns` refuses a call past it.
import { dictGetStr, makeDict } from "../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../stdlib/values/value";
import { putEntry } from "../edits";
import type { FlowRun } from "../run";
import { finalVerdict, type Judged } from "./result";

/** `max(turn of the step's records) + 1`; 1 for a step without records. */
export function nextTurn(run: FlowRun, stepId: string): number {
  const records = run.state.judge_history.get(stepId);
  let highest = 0;
  if (Array.isArray(records)) {
    for (const record of records as readonly PyValue[]) {
      const turn = record instanceof PyDict ? dictGetStr(record, "turn") : undefined;
      if (typeof turn === "number" && turn > highest) highest = turn;
    }
  }
  return highest + 1;
}

function field(p: PyDict, key: string): PyValue {
  return dictGetStr(p, key) ?? null;
}

function tierRecord(j: Judged): PyDict {
  const { tier, verdict, confidence, reason } = j.record;
  return makeDict([
    ["tier", tier],
    ["verdict", verdict],
    ["confidence", confidence],
    ["reason", reason],
  ]);
}

/** Records a judged turn in the flow (the caller has the flow's working copy). */
export function recordTurn(run: FlowRun, stepId: string, turn: number, judged: readonly Judged[]): void {
  const earlier = run.state.judge_history.get(stepId);
  const records: PyValue[] = Array.isArray(earlier) ? [...(earlier as readonly PyValue[])] : [];
  for (const j of judged) {
    records.push(
      makeDict([
        ["turn", turn],
        ["predicate_id", field(j.predicate, "id")],
        ["tier", j.record.tier],
        ["verdict", j.record.verdict],
        ["confidence", j.record.confidence],
        ["reason", j.record.reason],
      ]),
    );
  }
  putEntry(run, "judge_history", stepId, records);
  const met = judged.every((j) => finalVerdict(j) === "met");
  const results = judged.map((j) =>
    makeDict([
      ["id", field(j.predicate, "id")],
      ["type", field(j.predicate, "type")],
      ["statement", field(j.predicate, "statement")],
      ["verdict", finalVerdict(j)],
      ["confidence", j.record.confidence],
      ["applied_gate", dictGetStr(j.predicate, "applied_gate") ?? 7],
      ["evidence", []],
      ["tier_history", [tierRecord(j)]],
    ]),
  );
  putEntry(
    run,
    "judge_outcome",
    stepId,
    makeDict([
      ["met", met],
      ["predicate_results", results],
    ]),
  );
}
