// Where a debate step stands (stratumc's extension, docs/reference/runtime.md §23.15), kept durably in the
// flow state as `judge_outcome[<step>]` so that a restarted server resumes the debate where it stood
// and the audit shows it (`debates`): the rounds completed, their arguments, whether `converge`
// ended the debate early, the phase (rounds, synthesis, then done or failed) and why the last
// rejected round attempt failed. Written only through edits.ts; dropped when the step is
// dispatched afresh (shared/member-kind.ts).
import type { DebateIR, StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { putEntry } from "../../edits";
import type { FlowRun } from "../../run";

type DebatePhase = "rounds" | "synthesis" | "done" | "failed";

/** One debater's argument in one round, as history lists it. */
export interface Argument {
  readonly id: string;
  readonly argument: PyValue;
}

export interface DebateProgress {
  /** Rounds completed (the next round to play is `round + 1`). */
  readonly round: number;
  readonly history: readonly (readonly Argument[])[];
  readonly converged: boolean;
  readonly phase: DebatePhase;
  /** The last rejected round attempt's reasons by debater id (empty after a round passed). */
  readonly failed: readonly (readonly [string, string])[];
}

const FRESH: DebateProgress = { round: 0, history: [], converged: false, phase: "rounds", failed: [] };

/** A debate step's keys (present exactly on debate steps). */
export function debateOf(step: StepIR): DebateIR {
  const debate = step.debate ?? null;
  if (debate === null) throw new Error(`step '${step.id}' is not a debate step`);
  return debate;
}

/** The progress stored for the step; a step without an entry has played no round yet. */
export function readProgress(run: FlowRun, step: StepIR): DebateProgress {
  const entry = run.state.judge_outcome.get(step.id);
  if (!(entry instanceof PyDict)) return FRESH;
  const round = dictGetStr(entry, "round");
  const phase = dictGetStr(entry, "phase");
  return {
    round: typeof round === "number" ? round : 0,
    history: readHistory(dictGetStr(entry, "history")),
    converged: dictGetStr(entry, "converged") === true,
    phase: phase === "synthesis" || phase === "done" || phase === "failed" ? phase : "rounds",
    failed: readFailed(dictGetStr(entry, "failed")),
  };
}

/** `{round, rounds, phase, converged, history: [[{id, argument}]], failed: {id: reason}}`. */
export function writeProgress(run: FlowRun, step: StepIR, progress: DebateProgress): void {
  const record = new PyDict();
  dictSet(record, "round", progress.round);
  dictSet(record, "rounds", debateOf(step).rounds);
  dictSet(record, "phase", progress.phase);
  dictSet(record, "converged", progress.converged);
  dictSet(record, "history", historyWire(progress.history));
  const failed = new PyDict();
  for (const [id, why] of progress.failed) dictSet(failed, id, why);
  dictSet(record, "failed", failed);
  putEntry(run, "judge_outcome", step.id, record);
}

/** The history as payloads carry it: rounds of `{id, argument}` in debater order. */
export function historyWire(history: DebateProgress["history"]): PyValue[] {
  return history.map((round) =>
    round.map(({ id, argument }) => {
      const item = new PyDict();
      dictSet(item, "id", id);
      dictSet(item, "argument", argument);
      return item;
    }),
  );
}

function readHistory(value: PyValue | undefined): Argument[][] {
  if (!Array.isArray(value)) return [];
  return value.map((round) =>
    Array.isArray(round)
      ? round.flatMap((item) => {
          if (!(item instanceof PyDict)) return [];
          const id = dictGetStr(item, "id");
          return typeof id === "string" ? [{ id, argument: dictGetStr(item, "argument") ?? null }] : [];
        })
      : [],
  );
}

function readFailed(value: PyValue | undefined): [string, string][] {
  if (!(value instanceof PyDict)) return [];
  const out: [string, string][] = [];
  for (const [k, v] of value.entries.values()) {
    if (typeof k === "string" && typeof v === "string") out.push([k, v]);
  }
  return out;
}
