// Python-style representations for messages (docs/reference/language.md §9.4). Loaded nodes use
// checker/yaml/repr.ts `pythonRepr`.
import { strRepr } from "../../stdlib/values/repr";

/** A Python list of strings: `['a', 'b']`. */
export function pyStringList(items: readonly string[]): string {
  return `[${items.map(strRepr).join(", ")}]`;
}
