// The OTLP trace exporter's settings from the standard OpenTelemetry environment variables
// (docs/guides/tracing.md, "Configuration"). Nothing set (no endpoint) or OTEL_SDK_DISABLED=true means
// no tracing at all: the server runs exactly as without this module. A warning never shows the
// endpoint's password or a header's value (host/redact.ts): MCP clients keep the server's stderr.
import { entryName, redactUrl } from "../redact";

type Protocol = "http/json" | "http/protobuf";

export interface TraceConfig {
  /** The full URL spans are POSTed to. */
  readonly url: string;
  readonly protocol: Protocol;
  /** Extra request headers (names lower-cased). */
  readonly headers: ReadonlyMap<string, string>;
  readonly serviceName: string;
  /** Resource attributes from OTEL_RESOURCE_ATTRIBUTES (service.name among them, last). */
  readonly resourceAttributes: readonly (readonly [string, string])[];
  /** Per export request, from its start to its end (0: none). */
  readonly timeoutMs: number;
  /** Events held at most while they wait to be sent (the rest are dropped and counted). */
  readonly maxQueueSize: number;
  /** Events per export request at most. */
  readonly maxExportBatchSize: number;
  /** How long spans wait in the batch before they are sent. */
  readonly scheduleDelayMs: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_SERVICE_NAME = "stratum-mcp";
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SCHEDULE_DELAY_MS = 1_000;
const DEFAULT_MAX_QUEUE_SIZE = 2_048;
const DEFAULT_MAX_EXPORT_BATCH_SIZE = 512;

/** The settings, or null when tracing is off; `warn` gets one line per setting that is ignored. */
export function traceConfig(env: Env, warn: (line: string) => void): TraceConfig | null {
  if (value(env.OTEL_SDK_DISABLED)?.toLowerCase() === "true") return null;
  if (value(env.OTEL_TRACES_EXPORTER)?.toLowerCase() === "none") return null;
  const url = endpoint(env);
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    warn(`traces: OTLP endpoint '${redactUrl(url)}' is not an http(s) URL; tracing is off`);
    return null;
  }
  const headers = new Map<string, string>();
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    for (const [k, v] of pairs(env[name], name, warn, headerProblem)) headers.set(k.toLowerCase(), v);
  }
  const resource = pairs(env.OTEL_RESOURCE_ATTRIBUTES, "OTEL_RESOURCE_ATTRIBUTES", warn);
  const serviceName =
    value(env.OTEL_SERVICE_NAME) ?? resource.find(([k]) => k === "service.name")?.[1] ?? DEFAULT_SERVICE_NAME;
  return {
    url,
    protocol: protocol(env, warn),
    headers,
    serviceName,
    resourceAttributes: [...resource.filter(([k]) => k !== "service.name"), ["service.name", serviceName]],
    timeoutMs: millis(
      env,
      ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"],
      DEFAULT_TIMEOUT_MS,
    ),
    scheduleDelayMs: millis(env, ["OTEL_BSP_SCHEDULE_DELAY"], DEFAULT_SCHEDULE_DELAY_MS),
    ...sizes(env),
  };
}

function value(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** The traces endpoint as is, or the base endpoint with `v1/traces` appended. */
function endpoint(env: Env): string | null {
  const traces = value(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traces !== undefined) return traces;
  const base = value(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base === undefined) return null;
  return `${base.endsWith("/") ? base : `${base}/`}v1/traces`;
}

function protocol(env: Env, warn: (line: string) => void): Protocol {
  const asked = value(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? value(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (asked === undefined || asked === "http/protobuf") return "http/protobuf";
  if (asked === "http/json") return "http/json";
  warn(`traces: OTLP protocol '${asked}' is not supported (http/protobuf, http/json); using http/protobuf`);
  return "http/protobuf";
}

/**
 * `k=v,k2=v2` with URL-encoded keys and values (the OTel list format); bad entries are skipped
 * with a warning that names them by position and key only (`problem`: more reasons to skip one).
 */
function pairs(
  text: string | undefined,
  name: string,
  warn: (line: string) => void,
  problem: (key: string, value: string) => string | null = () => null,
): [string, string][] {
  const out: [string, string][] = [];
  let position = 0;
  for (const entry of (text ?? "").split(",")) {
    if (entry.trim() === "") continue;
    position++;
    const eq = entry.indexOf("=");
    const key = eq <= 0 ? null : decoded(entry.slice(0, eq).trim());
    if (key === null || key === "") {
      warn(`traces: ${name}: ignoring ${entryName(position, null)}: expected key=value`);
      continue;
    }
    const value = decoded(entry.slice(eq + 1).trim());
    const why = value === null ? "its value is not valid percent-encoding" : problem(key, value);
    if (value === null || why !== null) {
      warn(`traces: ${name}: ignoring ${entryName(position, key)}: ${why}`);
      continue;
    }
    out.push([key, value]);
  }
  return out;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Why node:http would refuse this header (it throws; an export must never). */
function headerProblem(key: string, value: string): string | null {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return "not a valid header name";
  if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) return "its value has a character a header cannot carry";
  return null;
}

/** OTEL_BSP_MAX_QUEUE_SIZE and OTEL_BSP_MAX_EXPORT_BATCH_SIZE (a batch never exceeds the queue). */
function sizes(env: Env): { maxQueueSize: number; maxExportBatchSize: number } {
  const maxQueueSize = count(env.OTEL_BSP_MAX_QUEUE_SIZE) ?? DEFAULT_MAX_QUEUE_SIZE;
  const batch = count(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) ?? DEFAULT_MAX_EXPORT_BATCH_SIZE;
  return { maxQueueSize, maxExportBatchSize: Math.min(batch, maxQueueSize) };
}

/** A whole number of at least 1, or undefined. */
function count(text: string | undefined): number | undefined {
  const n = Number(value(text));
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

function millis(env: Env, names: readonly string[], fallback: number): number {
  for (const name of names) {
    const text = value(env[name]);
    if (text === undefined) continue;
    const n = Number(text);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return fallback;
}
