// Forgetting entries of a long-lived map without keeping them alive. V8 replaces a map's table when
// deletes shrink it or `clear` empties it, and the table it leaves still points at the entries it
// held and at its successor. Once the map has grown old, that dead table sits in the old generation,
// where every young-generation collection treats its pointers as live until the next full one: the
// entries survive, are promoted, and the tables after it chain on, so all a fuzzing session's runs
// pass through the old generation and its heap grows between full collections. A fresh map instead
// leaves only young garbage behind.

/** `map` without `keys`: a fresh empty map when they are all it holds, else `map` with them deleted. */
export function withoutKeys<K, V>(map: Map<K, V>, keys: Iterable<K>): Map<K, V> {
  if (map.size === 0) return map;
  const gone = new Set(keys);
  let held = 0;
  for (const k of gone) if (map.has(k)) held++;
  if (held === map.size) return new Map();
  for (const k of gone) map.delete(k);
  return map;
}
