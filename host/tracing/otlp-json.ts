// OTLP/HTTP JSON: an ExportTraceServiceRequest as the OTLP JSON encoding writes it (ids in hex,
// 64-bit integers as decimal strings, enums as numbers, lowerCamelCase keys).
import { type AttributeValue, type Resource, SPAN_KIND_INTERNAL, type Span, STATUS_CODE } from "./span";

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

export function encodeTracesJson(resource: Resource, spans: readonly Span[]): string {
  const request: Json = {
    resourceSpans: [
      {
        resource: { attributes: keyValues(resource.attributes) },
        scopeSpans: [
          {
            scope: { name: resource.scopeName, version: resource.scopeVersion },
            spans: spans.map(spanJson),
          },
        ],
      },
    ],
  };
  return JSON.stringify(request);
}

function spanJson(span: Span): Json {
  const out: { [key: string]: Json } = { traceId: span.traceId, spanId: span.spanId };
  if (span.parentSpanId !== null) out.parentSpanId = span.parentSpanId;
  out.name = span.name;
  out.kind = SPAN_KIND_INTERNAL;
  out.startTimeUnixNano = unixNanos(span.startMs).toString();
  out.endTimeUnixNano = unixNanos(span.endMs).toString();
  out.attributes = keyValues(span.attributes);
  const status: { [key: string]: Json } = {};
  if (span.status.message !== "") status.message = span.status.message;
  if (span.status.code !== "unset") status.code = STATUS_CODE[span.status.code];
  out.status = status;
  return out;
}

function keyValues(attributes: readonly (readonly [string, AttributeValue])[]): Json[] {
  return attributes.map(([key, value]) => ({ key, value: anyValue(value) }));
}

function anyValue(value: AttributeValue): Json {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
}

/** Wall-clock ms (fractions allowed) as Unix nanoseconds, to the microsecond. */
export function unixNanos(ms: number): bigint {
  return BigInt(Math.round(ms * 1000)) * 1000n;
}
