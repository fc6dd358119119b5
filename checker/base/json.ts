// JSON values as the checker hands them on (loaded from YAML, kept in the IR, read by the schema
// tools and the interpreter); in the checker's base so none of those folders imports another for it.

/** A JSON value loaded from YAML. Objects have no prototype (any key, `__proto__` included, is data). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** The six JSON types a field (or a flow input) may declare; any other `type` names a contract. */
export const JSON_FIELD_TYPES: ReadonlySet<string> = new Set([
  "string",
  "number",
  "integer",
  "boolean",
  "array",
  "object",
]);
