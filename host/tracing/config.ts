// The OTLP trace exporter's settings from the standard OpenTelemetry environment variables
// (docs/tracing.md, "Configuration"). Nothing set (no endpoint) or OTEL_SDK_DISABLED=true means
// no tracing at all: the server runs exactly as without this module.

export type Protocol = "http/json" | "http/protobuf";

export interface TraceConfig {
  /** The full URL spans are POSTed to. */
  readonly url: string;
  readonly protocol: Protocol;
  /** Extra request headers (names lower-cased). */
  readonly headers: ReadonlyMap<string, string>;
  readonly serviceName: string;
  /** Resource attributes from OTEL_RESOURCE_ATTRIBUTES (service.name among them, last). */
  readonly resourceAttributes: readonly (readonly [string, string])[];
  /** Per export request. */
  readonly timeoutMs: number;
  /** How long spans wait in the batch before they are sent. */
  readonly scheduleDelayMs: number;
}

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_SERVICE_NAME = "stratum-mcp";
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SCHEDULE_DELAY_MS = 1_000;

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
    warn(`traces: OTLP endpoint '${url}' is not an http(s) URL; tracing is off`);
    return null;
  }
  const headers = new Map<string, string>();
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    for (const [k, v] of pairs(env[name], name, warn)) headers.set(k.toLowerCase(), v);
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

/** `k=v,k2=v2` with URL-encoded keys and values (the OTel list format); bad entries are skipped. */
export function pairs(
  text: string | undefined,
  name: string,
  warn: (line: string) => void,
): [string, string][] {
  const out: [string, string][] = [];
  for (const entry of (text ?? "").split(",")) {
    if (entry.trim() === "") continue;
    const eq = entry.indexOf("=");
    try {
      if (eq <= 0) throw new Error("no key");
      const key = decodeURIComponent(entry.slice(0, eq).trim());
      if (key === "") throw new Error("no key");
      out.push([key, decodeURIComponent(entry.slice(eq + 1).trim())]);
    } catch {
      warn(`traces: ${name}: ignoring '${entry.trim()}' (expected key=value)`);
    }
  }
  return out;
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
