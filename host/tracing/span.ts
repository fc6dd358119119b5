// A finished span as the exporter sends it (OTLP's Span, reduced to what stratumc emits).

export type AttributeValue = string | number | boolean | readonly string[];

export interface Span {
  /** 32 lowercase hex digits. */
  readonly traceId: string;
  /** 16 lowercase hex digits. */
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  /** Wall-clock ms since the epoch (fractions allowed; exported in ns, to the µs). */
  readonly startMs: number;
  readonly endMs: number;
  /** In the order they are exported. */
  readonly attributes: readonly (readonly [string, AttributeValue])[];
  readonly status: SpanStatus;
}

export interface SpanStatus {
  readonly code: "unset" | "ok" | "error";
  readonly message: string;
}

/** OTLP's StatusCode numbers. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** OTLP's SPAN_KIND_INTERNAL: every stratumc span is work inside the server. */
export const SPAN_KIND_INTERNAL = 1;

/** What the spans' resource and scope say. */
export interface Resource {
  readonly attributes: readonly (readonly [string, AttributeValue])[];
  readonly scopeName: string;
  readonly scopeVersion: string;
}
