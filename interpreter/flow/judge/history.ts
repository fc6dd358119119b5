// The judge history of a flow (docs/reference/runtime.md §25.3): every successful stratum_judge
// call is a turn of its step. `judge_history[<step>]` gets one record per predicate and tier,
// `{turn, predicate_id, tier, verdict, confidence, reason}`, and `judge_outcome[<step>]` the last
// turn's `{met, predicate_results}`, as the reference's FlowState.record_judge_turn keeps them. The
// next turn is one more than the highest recorded; `budget.max_turns` refuses a call past it.
import { dictGetStr, makeDict } from "../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../stdlib/values/value";
import { putEntry } from "../edits";
import type { FlowRun } from "../run";
import { finalConfidence, finalVerdict, type Judged } from "./result";
import type { TierRecord } from "./t1";

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

function tierRecord(r: TierRecord): PyDict {
  const { tier, verdict, confidence, reason } = r;
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
    for (const r of j.history) {
      records.push(
        makeDict([
          ["turn", turn],
          ["predicate_id", field(j.predicate, "id")],
          ["tier", r.tier],
          ["verdict", r.verdict],
          ["confidence", r.confidence],
          ["reason", r.reason],
        ]),
      );
    }
  }
  putEntry(run, "judge_history", stepId, records);
  const met = judged.every((j) => finalVerdict(j) === "met");
  const results = judged.map((j) =>
    makeDict([
      ["id", field(j.predicate, "id")],
      ["type", field(j.predicate, "type")],
      ["statement", field(j.predicate, "statement")],
      ["verdict", finalVerdict(j)],
      ["confidence", finalConfidence(j)],
      ["applied_gate", dictGetStr(j.predicate, "applied_gate") ?? 7],
      [
        "evidence",
        j.evidence.map((e) =>
          makeDict([
            ["source", e.source],
            ["quote", e.quote],
            ["tier", e.tier],
          ]),
        ),
      ],
      ["tier_history", j.history.map(tierRecord)],
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
