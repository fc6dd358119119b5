// A loaded YAML node as plain JSON data (for output_schema, workflow inputs and the IR).
//
// Objects have a null prototype and are filled with Object.defineProperty, so every key —
// `__proto__` included — is plain data. Conversions:
// - ints beyond 2^53 (bigint) become the nearest number (JSON has one number type; such values
//   are never valid in a spec field that keeps them exact);
// - PyFloat becomes its number; a YamlTimestamp becomes its source text;
// - a key that is not a string is written as Python's `json.dumps` writes it (`1`, `true`,
//   `null`, a float's repr); a collection key (never valid: SCHEMA-KEY-NOT-STRING) as its repr.
// Note: a JS object enumerates integer-like keys ("1", "2") before the others, whatever the
// YAML order; consumers that need the written order use the MapNode's entries.

import { floatRepr } from "../../stdlib/values/repr";
import { PyFloat } from "../../stdlib/values/value";
import type { JsonObject, JsonValue } from "../base/json";
import type { SpecNode, YamlScalar } from "./nodes";
import { YamlTimestamp } from "./nodes";
import { pythonRepr } from "./repr";

export function toJson(node: SpecNode): JsonValue {
  switch (node.kind) {
    case "scalar":
      return scalarJson(node.value);
    case "seq":
      return node.items.map(toJson);
    case "map": {
      const out = Object.create(null) as Record<string, JsonValue>;
      for (const entry of node.entries) {
        const key = entry.name ?? keyText(entry.key);
        Object.defineProperty(out, key, {
          value: toJson(entry.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out as JsonObject;
    }
  }
}

function scalarJson(value: YamlScalar): JsonValue {
  if (value instanceof PyFloat) return value.v;
  if (value instanceof YamlTimestamp) return value.text;
  if (typeof value === "bigint") return Number(value);
  return value;
}

/** The JSON object key of a non-string key, as Python's json.dumps writes it. */
function keyText(key: SpecNode): string {
  if (key.kind !== "scalar") return pythonRepr(key);
  const v = key.value;
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof PyFloat) return floatKey(v.v);
  if (v instanceof YamlTimestamp) return v.text;
  return String(v);
}

function floatKey(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Infinity";
  if (x === Number.NEGATIVE_INFINITY) return "-Infinity";
  return floatRepr(x);
}
