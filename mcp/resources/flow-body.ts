// The content of a flow resource: `{"flow": <query flow object>, "audit": <stratum_audit object>}`,
// both from one read of the flow, as JSON text (ints and floats kept apart, as the tools answer).
// A long flow's trace can be megabytes: past MAX_FLOW_RESOURCE_BYTES the lists are left out and a
// `truncated` object says what was omitted and how big the whole was; the tools and
// `stratumc query flow` still give all of it.
import {
  auditOf,
  type Clock,
  encodeWire,
  type FlowRun,
  flowDetail,
  flowSummary,
  type Response,
  type Wire,
} from "../../interpreter/index";

/** The largest resource text sent whole, in UTF-8 bytes (1 MiB). */
export const MAX_FLOW_RESOURCE_BYTES = 1024 * 1024;

/** What a truncated body keeps of the flow object: its scalars. */
const FLOW_KEPT = [
  "_schema_version",
  "flow_id",
  "flow_name",
  "status",
  "current_step_id",
  "current_idx",
  "round",
  "rounds_count",
  "step_count",
  "terminal_status",
  "synthetic",
];

/** What a truncated body keeps of the audit: its counts and totals. */
const AUDIT_KEPT = [
  "flow_id",
  "flow_name",
  "status",
  "budget_state",
  "steps_completed",
  "total_steps",
  "cache_hits",
  "total_duration_ms",
  "round",
];

/** The resource text of a flow, at most `limit` bytes. */
export function flowResourceText(run: FlowRun, clock: Clock, limit = MAX_FLOW_RESOURCE_BYTES): string {
  const flow = flowDetail(run);
  const audit = auditOf(run, clock);
  const whole = encodeWire({ flow, audit }, { indent: 2 });
  const fullBytes = Buffer.byteLength(whole, "utf8");
  if (fullBytes <= limit) return whole;
  const omitted = [...omittedKeys("flow", flow, FLOW_KEPT), ...omittedKeys("audit", audit, AUDIT_KEPT)];
  const reduced = encodeWire(
    {
      flow: kept(flow, FLOW_KEPT),
      audit: kept(audit, AUDIT_KEPT),
      truncated: { limit_bytes: limit, full_bytes: fullBytes, omitted },
    },
    { indent: 2 },
  );
  if (Buffer.byteLength(reduced, "utf8") <= limit) return reduced;
  // Only the one-line summary is left (a limit far below any real flow's scalars).
  return encodeWire(
    {
      flow: flowSummary(run),
      truncated: { limit_bytes: limit, full_bytes: fullBytes, omitted: ["flow", "audit"] },
    },
    { indent: 2 },
  );
}

function kept(object: Response, keys: readonly string[]): Response {
  const out: Record<string, Wire> = {};
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
  return out;
}

function omittedKeys(prefix: string, object: Response, keys: readonly string[]): string[] {
  return Object.keys(object)
    .filter((key) => object[key] !== undefined && !keys.includes(key))
    .map((key) => `${prefix}.${key}`);
}
