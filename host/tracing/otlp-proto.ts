// OTLP/HTTP protobuf: an ExportTraceServiceRequest in the field numbers of
// opentelemetry/proto/collector/trace/v1 and trace/v1, common/v1, resource/v1 (only the fields
// stratumc fills).

import { unixNanos } from "./otlp-json";
import { hexBytes, ProtoWriter } from "./protobuf";
import { type AttributeValue, type Resource, SPAN_KIND_INTERNAL, type Span, STATUS_CODE } from "./span";

export function encodeTracesProto(resource: Resource, spans: readonly Span[]): Uint8Array {
  const w = new ProtoWriter();
  // ExportTraceServiceRequest.resource_spans = 1
  w.message(1, (rs) => {
    // ResourceSpans.resource = 1 { Resource.attributes = 1 }
    rs.message(1, (r) => keyValues(r, 1, resource.attributes));
    // ResourceSpans.scope_spans = 2
    rs.message(2, (ss) => {
      // ScopeSpans.scope = 1 { name = 1, version = 2 }
      ss.message(1, (scope) => {
        scope.string(1, resource.scopeName);
        scope.string(2, resource.scopeVersion);
      });
      // ScopeSpans.spans = 2
      for (const span of spans) ss.message(2, (s) => spanFields(s, span));
    });
  });
  return w.finish();
}

function spanFields(w: ProtoWriter, span: Span): void {
  w.bytes(1, hexBytes(span.traceId)); // trace_id
  w.bytes(2, hexBytes(span.spanId)); // span_id
  if (span.parentSpanId !== null) w.bytes(4, hexBytes(span.parentSpanId)); // parent_span_id
  w.string(5, span.name); // name
  w.varint(6, SPAN_KIND_INTERNAL); // kind
  w.fixed64(7, unixNanos(span.startMs)); // start_time_unix_nano
  w.fixed64(8, unixNanos(span.endMs)); // end_time_unix_nano
  keyValues(w, 9, span.attributes); // attributes
  // status = 15 { message = 2, code = 3 }
  w.message(15, (s) => {
    s.string(2, span.status.message);
    s.varint(3, STATUS_CODE[span.status.code]);
  });
}

/** Repeated KeyValue { key = 1, value = 2 } at `field`. */
function keyValues(
  w: ProtoWriter,
  field: number,
  attributes: readonly (readonly [string, AttributeValue])[],
): void {
  for (const [key, value] of attributes) {
    w.message(field, (kv) => {
      kv.string(1, key, true);
      kv.message(2, (v) => anyValue(v, value));
    });
  }
}

/** AnyValue: string_value = 1, bool_value = 2, int_value = 3, double_value = 4, array_value = 5. */
function anyValue(w: ProtoWriter, value: AttributeValue): void {
  // A oneof: the member is written even when it holds its zero value.
  if (typeof value === "string") w.string(1, value, true);
  else if (typeof value === "boolean") w.varint(2, value ? 1 : 0, true);
  else if (typeof value === "number") {
    if (Number.isSafeInteger(value)) w.varint(3, BigInt(value), true);
    else w.double(4, value);
  } else {
    // ArrayValue { values = 1 (AnyValue) }
    w.message(5, (arr) => {
      for (const item of value) arr.message(1, (v) => v.string(1, item, true));
    });
  }
}
