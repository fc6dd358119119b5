// Bindings given as JSON → the names an expression sees and the checker's view of them.
// A top-level `result` / `item` whose value is an object is bound as a namespace (language.md
// docs/reference/language.md §10.6, docs/reference/language.md §10.7.3); every other value is bound as decoded.
import type { ExprEnvironment, ExpressionKind } from "../../checker/expr/check-expression";
import { typeOfValue } from "../../stdlib/types/of-value";
import type { Type } from "../../stdlib/types/type";
import { parseJson } from "../../stdlib/values/json";
import { makeNamespace } from "../../stdlib/values/namespace";
import { PyDict, type PyValue } from "../../stdlib/values/value";

const NAMESPACE_NAMES: ReadonlySet<string> = new Set(["result", "item"]);

/** Binds one value under `name` the way a spec does. */
function bindValue(name: string, value: PyValue): PyValue {
  return NAMESPACE_NAMES.has(name) && value instanceof PyDict ? makeNamespace(value) : value;
}

/** `{"name": value, …}` (JSON object text, exact ints) → name → bound value. */
export function bindingsFromJson(json: string | undefined): Map<string, PyValue> {
  const names = new Map<string, PyValue>();
  if (json === undefined) return names;
  const decoded = parseJson(json);
  if (!(decoded instanceof PyDict)) throw new Error(`bindings must be a JSON object: ${json}`);
  for (const [key, value] of decoded.entries.values()) {
    if (typeof key !== "string") throw new Error(`binding names must be strings: ${json}`);
    names.set(key, bindValue(key, value));
  }
  return names;
}

/** Each name typed with the type of its value (`typeOfValue`). */
function typesOfNames(names: ReadonlyMap<string, PyValue>): Map<string, Type> {
  const types = new Map<string, Type>();
  for (const [name, value] of names) types.set(name, typeOfValue(value));
  return types;
}

export interface EnvironmentOptions {
  readonly kind?: ExpressionKind;
  readonly owner?: string;
  /** Extra or overriding checker types (names without values, e.g. records). */
  readonly types?: ReadonlyMap<string, Type>;
  readonly unavailable?: ReadonlyMap<string, string>;
}

/** The checker environment for the given bound names. */
export function environmentOf(
  names: ReadonlyMap<string, PyValue>,
  options: EnvironmentOptions = {},
): ExprEnvironment {
  const types = typesOfNames(names);
  for (const [name, t] of options.types ?? []) types.set(name, t);
  return {
    names: types,
    ...(options.kind === undefined ? {} : { kind: options.kind }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    ...(options.unavailable === undefined ? {} : { unavailable: options.unavailable }),
  };
}
