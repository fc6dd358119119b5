// The flow's review log (interpreter/flow/review-log.ts) as the page reads it: its entries, read
// defensively (a file may hold anything under `review_log`), and the time of each gate decision,
// which the GateRecord itself does not carry.
import type { FlowRun, Wire } from "../interpreter/index";
import { wireToPlain } from "../interpreter/index";

/** One review-log entry, read defensively (a file may hold anything under `review_log`). */
export interface LogEntry {
  readonly kind: string;
  readonly round: number;
  readonly attempt: number;
  readonly at_ms: number;
  readonly violations: readonly string[];
  readonly result: unknown;
  readonly result_omitted: boolean;
}

export function logEntries(list: readonly Wire[] | undefined): LogEntry[] {
  const out: LogEntry[] = [];
  for (const raw of list ?? []) {
    const e = wireToPlain(raw, { bigints: "number" });
    if (typeof e !== "object" || e === null || Array.isArray(e)) continue;
    const r = e as Record<string, unknown>;
    const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    out.push({
      kind: typeof r.kind === "string" ? r.kind : "",
      round: num(r.round),
      attempt: num(r.attempt),
      at_ms: num(r.at_ms),
      violations: Array.isArray(r.violations)
        ? r.violations.filter((v): v is string => typeof v === "string")
        : [],
      result: r.result ?? null,
      result_omitted: r.result_omitted === true,
    });
  }
  return out;
}

/**
 * When each gate record of the flow was made, where the review log has it: a gate's log entries
 * are its latest resolutions, so they are matched with its latest records, from the end, as long
 * as the rounds agree. Keyed by the record object.
 */
export function decisionTimes(run: FlowRun): Map<object, number> {
  const records = [...run.state.rounds.flat(), ...run.state.records].filter((r) => r.type === "gate");
  const byStep = new Map<string, (typeof records)[number][]>();
  for (const r of records) {
    const list = byStep.get(r.step_id);
    if (list === undefined) byStep.set(r.step_id, [r]);
    else list.push(r);
  }
  const times = new Map<object, number>();
  for (const [stepId, list] of byStep) {
    const entries = logEntries(run.state.review_log.get(stepId)).filter((e) => e.kind === "gate");
    for (let k = 1; k <= Math.min(entries.length, list.length); k++) {
      const entry = entries[entries.length - k] as LogEntry;
      const record = list[list.length - k] as (typeof records)[number];
      if (record.round !== entry.round) break;
      times.set(record, entry.at_ms);
    }
  }
  return times;
}

/** A named reviewer's name when the record has one (beside `resolved_by: human`), else human, agent or system. */
export function deciderOf(record: {
  readonly resolved_by?: unknown;
  readonly resolved_by_name?: unknown;
}): string {
  return typeof record.resolved_by_name === "string" && record.resolved_by_name !== ""
    ? record.resolved_by_name
    : String(record.resolved_by ?? "");
}
