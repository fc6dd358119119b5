// Membership `x in y` (docs/reference/language.md §10.8.4).
import type { Budget } from "./budget";
import { hashKey } from "./dict";
import { pyEquals } from "./equality";
import { typeError } from "./errors";
import { cpIndexOf } from "./strings";
import { PyDict, PyGenerator, PyNamespace, PyTuple, type PyValue, PyView, typeName } from "./value";

function anyEqual(items: Iterable<PyValue>, x: PyValue, budget: Budget | undefined): boolean {
  for (const item of items) {
    budget?.charge(1);
    if (pyEquals(item, x, budget)) return true;
  }
  return false;
}

function* dictValuesOf(d: PyDict): Generator<PyValue> {
  for (const e of d.entries.values()) yield e[1];
}

function* generatorItems(g: PyGenerator): Generator<PyValue> {
  for (let r = g.iterator.next(); !r.done; r = g.iterator.next()) yield r.value;
}

function keyMember(d: PyDict, x: PyValue, budget: Budget | undefined): boolean {
  budget?.charge(1);
  return d.entries.has(hashKey(x));
}

/** `x in container`; `not in` is its negation. */
export function pyContains(container: PyValue, x: PyValue, budget?: Budget): boolean {
  if (typeof container === "string") {
    if (typeof x !== "string") {
      throw typeError(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    }
    budget?.charge(container.length);
    return cpIndexOf(container, x) !== -1;
  }
  if (Array.isArray(container)) return anyEqual(container, x, budget);
  if (container instanceof PyTuple) return anyEqual(container.items, x, budget);
  if (container instanceof PyDict) return keyMember(container, x, budget);
  if (container instanceof PyNamespace) return keyMember(container.dict, x, budget);
  if (container instanceof PyView) {
    if (container.kind === "keys") return keyMember(container.dict, x, budget);
    if (container.kind === "values") return anyEqual(dictValuesOf(container.dict), x, budget);
    // Item view: x must be a (key, value) pair whose key is present with an equal value.
    if (!(x instanceof PyTuple) || x.items.length !== 2) return false;
    budget?.charge(1);
    const entry = container.dict.entries.get(hashKey(x.items[0] ?? null));
    return entry !== undefined && pyEquals(entry[1], x.items[1] ?? null, budget);
  }
  if (container instanceof PyGenerator) return anyEqual(generatorItems(container), x, budget);
  throw typeError(`argument of type '${typeName(container)}' is not iterable`);
}
