// What one evaluation sees: the bound names, the `$` path data, and the checker's view of them.
// `stratumc eval` binds names the way a spec does (docs/design/decisions/expressions.md): a top-level `result` or
// `item` whose value is an object becomes a namespace; every other object stays a dict.
import type { ExprEnvironment } from "../../checker/index";
import type { PathSource } from "../../interpreter/index";
import type { Type } from "../../stdlib/index";
import { dictGetStr, makeNamespace, PyDict, PyFloat, type PyValue, typeOfValue } from "../../stdlib/index";

/** Names that a spec binds as a namespace when their value is an object (docs/reference/language.md §10.7.3). */
const NAMESPACE_NAMES: ReadonlySet<string> = new Set(["result", "item"]);

export interface EvalCase {
  readonly text: string;
  readonly names: ReadonlyMap<string, PyValue>;
  readonly paths: PathSource;
}

export function bindNames(bindings: PyDict | null): Map<string, PyValue> {
  const names = new Map<string, PyValue>();
  if (bindings === null) return names;
  for (const [key, value] of bindings.entries.values()) {
    if (typeof key !== "string") continue; // JSON object keys are always strings
    names.set(key, NAMESPACE_NAMES.has(key) && value instanceof PyDict ? makeNamespace(value) : value);
  }
  return names;
}

/** `$.input.<name>` reads `input`, `$.steps.<id>.output` reads `steps` (absent → None). */
export function pathSource(input: PyDict | null, steps: PyDict | null): PathSource {
  return {
    input: (name) => (input === null ? undefined : dictGetStr(input, name)),
    stepOutput: (id) => (steps === null ? undefined : dictGetStr(steps, id)),
  };
}

/** The checker sees each binding with the type of its value. */
export function typeEnvironment(names: ReadonlyMap<string, PyValue>): ExprEnvironment {
  const types = new Map<string, Type>();
  for (const [name, value] of names) types.set(name, typeOfValue(value));
  return { names: types };
}

/** How a decoded JSON value is named in messages about option and input values. */
export function jsonKind(v: PyValue): string {
  if (v === null) return "null";
  if (v instanceof PyDict) return "object";
  if (Array.isArray(v)) return "array";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) return "number";
  return "value";
}
