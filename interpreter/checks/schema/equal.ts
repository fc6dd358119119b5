// Equality of JSON values as Python's jsonschema decides it (`jsonschema._utils.equal`), used by
// `enum`, `const` and `uniqueItems`: numbers by exact value (1 == 1.0) but booleans only equal
// booleans (True != 1), strings by code points, arrays pairwise, objects by keys and values.
// Unlike Python `==` (docs/reference/language.md §10.8.2), `[True] == [1]` is False here.
import { compareNumbers } from "../../../stdlib/values/numbers";
import type { PyValue } from "../../../stdlib/values/value";
import { asArray, asObject, isNumeric } from "../json-kinds";

export function schemaEqual(a: PyValue, b: PyValue): boolean {
  if (a === b) return true;
  if (typeof a === "string" || typeof b === "string") return false;
  if (typeof a === "boolean" || typeof b === "boolean") return false;
  if (a === null || b === null) return false;
  if (isNumeric(a)) return isNumeric(b) && compareNumbers(a, b) === 0;
  const arrayA = asArray(a);
  const arrayB = asArray(b);
  if (arrayA !== null || arrayB !== null) {
    if (arrayA === null || arrayB === null || arrayA.length !== arrayB.length) return false;
    return arrayA.every((item, i) => schemaEqual(item, arrayB[i] ?? null));
  }
  const objectA = asObject(a);
  const objectB = asObject(b);
  if (objectA === null || objectB === null || objectA.size !== objectB.size) return false;
  for (const [hk, [, va]] of objectA.entries) {
    const eb = objectB.entries.get(hk);
    if (eb === undefined || !schemaEqual(va, eb[1])) return false;
  }
  return true;
}
