// Array keywords (prefixItems, items, contains with minContains/maxContains, minItems, maxItems,
// uniqueItems, unevaluatedItems), with the messages of Python's jsonschema 4.x.
import type { JsonValue } from "../../../checker/base/json";
import { repr } from "../../../stdlib/values/repr";
import type { PyValue } from "../../../stdlib/values/value";
import { asArray } from "../json-kinds";
import { schemaEqual } from "./equal";
import { evaluatedIndexes } from "./evaluated";
import type { KeywordCheck } from "./keywords";
import { isDone, own, report } from "./sink";

/** `"'a', 'b' were"` / `"'a' was"`: jsonschema's `extras_msg`. */
export function extrasMessage(extras: readonly PyValue[]): string {
  return `${extras.map((e) => repr(e)).join(", ")} ${extras.length === 1 ? "was" : "were"}`;
}

const prefixItems: KeywordCheck = (v, value, instance, _schema, sink) => {
  const array = asArray(instance);
  if (array === null || !Array.isArray(value)) return;
  const subschemas = value as readonly JsonValue[];
  const n = Math.min(array.length, subschemas.length);
  for (let i = 0; i < n && !isDone(sink); i++) v.descend(array[i] ?? null, subschemas[i] ?? true, sink);
};

const items: KeywordCheck = (v, value, instance, schema, sink) => {
  const array = asArray(instance);
  if (array === null) return;
  const prefixSchemas = own(schema, "prefixItems");
  const prefix = Array.isArray(prefixSchemas) ? prefixSchemas.length : 0;
  const extra = array.length - prefix;
  if (extra <= 0) return;
  if (value === false) {
    report(sink, () => {
      const rest = extra === 1 ? (array[prefix] ?? null) : array.slice(prefix);
      return `Expected at most ${prefix} ${prefix === 1 ? "item" : "items"} but found ${extra} extra: ${repr(rest)}`;
    });
    return;
  }
  for (let i = prefix; i < array.length && !isDone(sink); i++) v.descend(array[i] ?? null, value, sink);
};

const contains: KeywordCheck = (v, value, instance, schema, sink) => {
  const array = asArray(instance);
  if (array === null) return;
  const minValue = own(schema, "minContains");
  const maxValue = own(schema, "maxContains");
  const min = typeof minValue === "number" ? minValue : 1;
  const max = typeof maxValue === "number" ? maxValue : array.length;
  let matches = 0;
  for (const item of array) {
    if (!v.isValid(item, value)) continue;
    matches++;
    if (matches > max) {
      report(sink, () => `Too many items match the given schema (expected at most ${max})`);
      return;
    }
  }
  if (matches >= min) return;
  if (matches === 0) report(sink, () => `${repr(instance)} does not contain items matching the given schema`);
  else {
    report(
      sink,
      () => `Too few items match the given schema (expected at least ${min} but only ${matches} matched)`,
    );
  }
};

const minItems: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const array = asArray(instance);
  if (array === null || typeof value !== "number" || !(array.length < value)) return;
  report(sink, () => `${repr(instance)} ${value === 1 ? "should be non-empty" : "is too short"}`);
};

const maxItems: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const array = asArray(instance);
  if (array === null || typeof value !== "number" || !(array.length > value)) return;
  report(sink, () => `${repr(instance)} ${value === 0 ? "is expected to be empty" : "is too long"}`);
};

const uniqueItems: KeywordCheck = (_v, value, instance, _schema, sink) => {
  const array = asArray(instance);
  if (value !== true || array === null) return;
  if (!hasDuplicate(array)) return;
  report(sink, () => `${repr(instance)} has non-unique elements`);
};

function hasDuplicate(array: readonly PyValue[]): boolean {
  for (let i = 1; i < array.length; i++) {
    for (let j = 0; j < i; j++) if (schemaEqual(array[j] ?? null, array[i] ?? null)) return true;
  }
  return false;
}

const unevaluatedItems: KeywordCheck = (v, _value, instance, schema, sink) => {
  const array = asArray(instance);
  if (array === null) return;
  const evaluated = evaluatedIndexes(v, array, schema);
  const unevaluated = array.filter((_item, i) => !evaluated.has(i));
  if (unevaluated.length > 0) {
    report(sink, () => `Unevaluated items are not allowed (${extrasMessage(unevaluated)} unexpected)`);
  }
};

export const ARRAY_KEYWORDS: ReadonlyArray<readonly [string, KeywordCheck]> = [
  ["prefixItems", prefixItems],
  ["items", items],
  ["contains", contains],
  ["minItems", minItems],
  ["maxItems", maxItems],
  ["uniqueItems", uniqueItems],
  ["unevaluatedItems", unevaluatedItems],
];
