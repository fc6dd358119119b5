// Unique names within one namespace (contracts, functions, flows, or the steps of one flow).

export function uniqueName(used: Set<string>, base: string, separator = "_"): string {
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${separator}${i}`;
  used.add(name);
  return name;
}

/** A name from `pool` not used yet (numbered only when the pool is exhausted). */
export function freshName(
  pick: (xs: readonly string[]) => string,
  used: Set<string>,
  pool: readonly string[],
): string {
  const free = pool.filter((n) => !used.has(n));
  return uniqueName(used, pick(free.length > 0 ? free : pool));
}
