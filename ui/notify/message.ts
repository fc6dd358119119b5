// The body `stratumc ui --notify` posts when a gate starts waiting (docs/guides/ui-notify.md): one
// JSON object that a Slack incoming webhook accepts (it reads `text` and ignores the rest) and
// any other receiver can read field by field. Names, ids and intents come from specs that agents
// write: in `text` they are cut short and Slack's control characters (& < >) are escaped, so no
// spec can mention @channel or hide a link; the fields carry them as they are, bounded.
import type { FlowListItem, PendingGate } from "../api-types";

export interface GateWaiting {
  readonly flow: FlowListItem;
  readonly gate: PendingGate;
  /** When the gate started waiting: the commit that brought the flow to it (ms since the epoch). */
  readonly sinceMs: number;
}

export interface GateNotification {
  /** A one-line summary (Slack shows this). */
  readonly text: string;
  readonly event: "gate_waiting";
  readonly flow_id: string;
  readonly flow_name: string;
  readonly step_id: string;
  /** The gate's function. */
  readonly function: string;
  /** What the gate approves: its function's intent; null when it has none. */
  readonly approves: string | null;
  /** ISO 8601. */
  readonly since: string;
  readonly since_ms: number;
  /** The gate function's timeout in seconds; null when it has none. */
  readonly timeout_seconds: number | null;
  /** The gate's page (no token in it: the person signs in as usual). */
  readonly link: string;
}

/** The longest a field from a spec is carried, and the shortest `text` gives it. */
const FIELD_MAX = 2_000;
const TEXT_FIELD_MAX = 200;

/** The link to a flow's page under the page's public address (which ends in `/`). */
function gateLink(publicUrl: URL, flowId: string): string {
  return `${publicUrl.href}#/flow/${encodeURIComponent(flowId)}`;
}

export function gateNotification(waiting: GateWaiting, publicUrl: URL): GateNotification {
  const { flow, gate } = waiting;
  const link = gateLink(publicUrl, flow.flow_id);
  // A file's modification time has a fraction of a millisecond.
  const sinceMs = Math.floor(waiting.sinceMs);
  const approves = gate.intent === null ? null : cut(gate.intent, FIELD_MAX);
  const timeout = gate.timeout === null ? "" : ` It times out after ${duration(gate.timeout)}.`;
  const text =
    `Gate ${forText(gate.step_id)} of flow ${forText(flow.flow_name)} (${forText(flow.flow_id)}) is waiting for a decision` +
    `${approves === null ? "" : `: ${forText(approves)}`}.${timeout} Open it: ${link}`;
  return {
    text,
    event: "gate_waiting",
    flow_id: cut(flow.flow_id, FIELD_MAX),
    flow_name: cut(flow.flow_name, FIELD_MAX),
    step_id: cut(gate.step_id, FIELD_MAX),
    function: cut(gate.function, FIELD_MAX),
    approves,
    since: new Date(sinceMs).toISOString(),
    since_ms: sinceMs,
    timeout_seconds: gate.timeout,
    link,
  };
}

/** A value from a spec inside `text`: one line, short, with Slack's & < > escaped. */
function forText(value: string): string {
  return cut(value.replace(/\s+/g, " ").trim(), TEXT_FIELD_MAX)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

function cut(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function duration(seconds: number): string {
  if (seconds % 3_600 === 0 && seconds >= 3_600) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0 && seconds >= 60) return `${seconds / 60} min`;
  return `${seconds} s`;
}
