// Where keyword checks put their errors. A validity test (`is_valid` in Python's jsonschema: anyOf,
// oneOf, not, if, contains) only needs to know whether there is an error, so it stops at the first
// and never builds message texts.
import type { JsonObject, JsonValue } from "../../../checker/base/json";

export interface Sink {
  readonly errors: string[];
  /** Only validity matters: stop at the first error, skip message texts. */
  readonly firstOnly: boolean;
}

export function newSink(firstOnly: boolean): Sink {
  return { errors: [], firstOnly };
}

/** Records an error; the text is built only when someone will read it. */
export function report(sink: Sink, message: () => string): void {
  sink.errors.push(sink.firstOnly ? "" : message());
}

/** Whether the sink has all it needs (a validity test that already failed). */
export function isDone(sink: Sink): boolean {
  return sink.firstOnly && sink.errors.length > 0;
}

/** A schema that is an object (not a boolean schema, not a stray value). */
export function isSchemaObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The value of `key` if the schema object has it as its own key (schemas may be plain objects). */
export function own(schema: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(schema, key) ? schema[key] : undefined;
}
