// The Python representation of a loaded node (docs/reference/language.md §9.4), for messages that quote a value:
// `'a'`, `1`, `0.2`, `None`, `True`, `datetime.date(2024, 1, 1)`, `['a', 'b']`, `{'a': 1}`.
// Huge nodes are cut: the result is at most MAX_REPR UTF-16 units followed by `...`, and the walk
// stops as soon as that length is reached (a node repeated through aliases costs no more).
import { repr } from "../../stdlib/values/repr";
import type { SpecNode } from "./nodes";
import { YamlTimestamp } from "./nodes";

/** Longest representation before truncation (UTF-16 units; a surrogate pair is never split). */
export const MAX_REPR = 200;

export function pythonRepr(node: SpecNode): string {
  let out = "";
  const put = (s: string): boolean => {
    out += s;
    return out.length <= MAX_REPR;
  };
  // Returns false once the output is long enough (the caller stops walking).
  const walk = (n: SpecNode): boolean => {
    if (n.kind === "scalar") {
      const v = n.value;
      return put(v instanceof YamlTimestamp ? v.pythonRepr : repr(v));
    }
    if (n.kind === "seq") {
      if (!put("[")) return false;
      for (let i = 0; i < n.items.length; i++) {
        const item = n.items[i];
        if ((i > 0 && !put(", ")) || (item !== undefined && !walk(item))) return false;
      }
      return put("]");
    }
    if (!put("{")) return false;
    for (let i = 0; i < n.entries.length; i++) {
      const entry = n.entries[i];
      if (entry === undefined) continue;
      if (i > 0 && !put(", ")) return false;
      if (!walk(entry.key) || !put(": ") || !walk(entry.value)) return false;
    }
    return put("}");
  };
  if (walk(node)) return out;
  return `${cut(out, MAX_REPR)}...`;
}

function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return code >= 0xd800 && code <= 0xdbff ? s.slice(0, n - 1) : s.slice(0, n);
}
