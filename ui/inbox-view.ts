// The page's home (docs/guides/ui-inbox.md): the gates waiting (oldest first), the gate resolutions
// recorded in every flow (newest first) and the flows, each filtered by the same query and cut to
// one window, so no answer is large however many flows the store holds. Pure: FlowSource passes
// the rows it keeps (inbox-rows.ts).
import type {
  DecisionItem,
  FlowListItem,
  FlowListStatus,
  GateOutcome,
  InboxPart,
  InboxView,
  StatusFilter,
  WaitingGate,
} from "./api-types";
import type { InboxRow } from "./inbox-rows";
import { sortFlowList } from "./views";

export interface InboxQuery {
  readonly status: StatusFilter;
  /** A flow name, matched exactly; null: every flow. */
  readonly flow: string | null;
  /** Text searched for, case-insensitive; "" matches everything. */
  readonly q: string;
  /** Only decisions with this outcome; null: all. */
  readonly outcome: GateOutcome | null;
  /** How many items each list carries at most. */
  readonly limit: number;
  readonly waiting_offset: number;
  readonly decisions_offset: number;
  readonly flows_offset: number;
}

/** Items per list unless asked for fewer or more, and the most one list carries. */
const INBOX_PAGE_SIZE = 50;
const INBOX_MAX_PAGE_SIZE = 200;
/** The longest search text accepted (a search is a substring test over every row). */
const MAX_SEARCH_LENGTH = 200;
/** The most flow names one answer lists. */
const MAX_FLOW_NAMES = 500;

const STATUS_FILTERS: ReadonlySet<string> = new Set<StatusFilter>([
  "all",
  "in_progress",
  "awaiting_gate",
  "finished",
]);
const OUTCOMES: ReadonlySet<string> = new Set<GateOutcome>(["approve", "revise", "kill"]);

const ADMITS: Readonly<Record<StatusFilter, (s: FlowListStatus) => boolean>> = {
  all: () => true,
  in_progress: (s) => s === "running" || s === "awaiting_gate",
  awaiting_gate: (s) => s === "awaiting_gate",
  finished: (s) => s === "complete" || s === "killed" || s === "exhausted" || s === "budget_exhausted",
};

/** The query of `GET /api/inbox`, or what is wrong with it. */
export function parseInboxQuery(params: URLSearchParams): InboxQuery | { readonly error: string } {
  const status = params.get("status") ?? "all";
  if (!STATUS_FILTERS.has(status))
    return { error: "status must be one of all, in_progress, awaiting_gate, finished" };
  const outcome = params.get("outcome");
  if (outcome !== null && outcome !== "" && !OUTCOMES.has(outcome))
    return { error: "outcome must be one of approve, revise, kill" };
  const q = params.get("q") ?? "";
  if (q.length > MAX_SEARCH_LENGTH) return { error: `q must be at most ${MAX_SEARCH_LENGTH} characters` };
  const flow = params.get("flow");
  const numbers: Record<string, number> = {};
  for (const [name, fallback] of [
    ["limit", INBOX_PAGE_SIZE],
    ["waiting_offset", 0],
    ["decisions_offset", 0],
    ["flows_offset", 0],
  ] as const) {
    const text = params.get(name);
    if (text !== null && !/^\d{1,9}$/.test(text)) return { error: `${name} must be a whole number` };
    numbers[name] = text === null ? fallback : Number(text);
  }
  return {
    status: status as StatusFilter,
    flow: flow === null || flow === "" ? null : flow,
    q,
    outcome: outcome === null || outcome === "" ? null : (outcome as GateOutcome),
    limit: Math.min(INBOX_MAX_PAGE_SIZE, Math.max(1, numbers.limit ?? INBOX_PAGE_SIZE)),
    waiting_offset: numbers.waiting_offset ?? 0,
    decisions_offset: numbers.decisions_offset ?? 0,
    flows_offset: numbers.flows_offset ?? 0,
  };
}

/** Whether any of `fields` holds `needle` (already lower case). */
function holds(needle: string, ...fields: readonly (string | null)[]): boolean {
  return needle === "" || fields.some((f) => f?.toLowerCase().includes(needle) === true);
}

export function inboxView(rows: readonly InboxRow[], query: InboxQuery, home: string): InboxView {
  const needle = query.q.trim().toLowerCase();
  const names = new Set<string>();
  const waiting: WaitingGate[] = [];
  const decisions: DecisionItem[] = [];
  const flows: FlowListItem[] = [];
  let waitingCount = 0;
  for (const row of rows) {
    const { item } = row;
    if (item.flow_name !== "") names.add(item.flow_name);
    const gate = waitingGate(row);
    if (gate !== null) waitingCount++;
    if (!ADMITS[query.status](item.status)) continue;
    if (query.flow !== null && item.flow_name !== query.flow) continue;
    if (holds(needle, item.flow_id, item.flow_name, item.current_step_id)) flows.push(item);
    if (
      gate !== null &&
      holds(
        needle,
        gate.flow_id,
        gate.flow_name,
        gate.step_id,
        gate.function,
        gate.intent,
        ...gate.reviews.flatMap((r) => [r.step_id, r.intent]),
      )
    )
      waiting.push(gate);
    for (const d of row.decisions) {
      if (query.outcome !== null && d.outcome !== query.outcome) continue;
      if (!holds(needle, item.flow_id, item.flow_name, d.step_id, d.note, d.resolved_by)) continue;
      decisions.push({
        flow_id: item.flow_id,
        flow_name: item.flow_name,
        flow_status: item.status,
        ...d,
        flow_updated_ms: item.updated_ms,
        last_in_flow: d.index === row.record_count - 1,
      });
    }
  }
  waiting.sort((a, b) => a.since_ms - b.since_ms || compareIds(a.flow_id, b.flow_id));
  decisions.sort(
    (a, b) => b.flow_updated_ms - a.flow_updated_ms || compareIds(a.flow_id, b.flow_id) || b.index - a.index,
  );
  return {
    home,
    waiting: window(waiting, query.waiting_offset, query.limit),
    decisions: window(decisions, query.decisions_offset, query.limit),
    flows: window(sortFlowList(flows), query.flows_offset, query.limit),
    flow_count: rows.length,
    waiting_count: waitingCount,
    flow_names: [...names].sort(compareIds).slice(0, MAX_FLOW_NAMES),
  };
}

/** The gate a row's flow waits at, with when it started waiting and when it times out. */
function waitingGate(row: InboxRow): WaitingGate | null {
  const { item, approves } = row;
  if (item.status !== "awaiting_gate" || item.gate === null) return null;
  const { timeout } = item.gate;
  return {
    flow_id: item.flow_id,
    flow_name: item.flow_name,
    step_id: item.gate.step_id,
    function: item.gate.function,
    intent: approves?.intent ?? "",
    reviews: approves?.reviews ?? [],
    round: item.round,
    since_ms: item.updated_ms,
    timeout,
    expires_ms: timeout === null ? null : item.updated_ms + timeout * 1000,
    parent_flow_id: item.parent_flow_id,
  };
}

function window<T>(items: readonly T[], offset: number, limit: number): InboxPart<T> {
  return { total: items.length, offset, items: items.slice(offset, offset + limit) };
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
