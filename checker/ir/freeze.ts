// Deep freezing of the checked IR. Maps are frozen too: their mutators throw afterwards, so no
// consumer can change a shared IR by accident. Syntax trees and checker types are already
// immutable by construction and RecordTypes are shared with the checker; they are left alone.

const SKIP_KEYS: ReadonlySet<string> = new Set(["ast", "type", "resultType", "record", "ref"]);

function throwFrozen(): never {
  throw new TypeError("the checked IR is immutable");
}

export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof Map) {
      for (const item of v.values()) stack.push(item);
      const map = v as Map<unknown, unknown>;
      map.set = throwFrozen;
      map.delete = throwFrozen;
      map.clear = throwFrozen;
      Object.freeze(map);
      continue;
    }
    for (const [k, item] of Object.entries(v)) if (!SKIP_KEYS.has(k)) stack.push(item);
    Object.freeze(v);
  }
  return value;
}
