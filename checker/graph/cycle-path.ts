// The cycle reported for one strongly connected component (docs/reference/language.md §9.5.4 "Dependency
// graph"): from the earliest-declared member, follow the earliest-declared successor inside the
// component not yet on the path, backtracking when stuck, until an edge returns to the start.
//
// A node from which the search once got stuck is never tried again. This is exact, not a
// heuristic: it is the blocking argument of Johnson's circuit algorithm (a node stays blocked
// until a circuit through it is found, and we stop at the first circuit), so the result equals
// the plain backtracking search's while staying linear in the component's size.

/**
 * `members` ascending (the component), `component[i]` its id per node, `succ[i]` ascending.
 * Returns the nodes of the cycle without repeating the start: `[a, b]` for `a -> b -> a`.
 */
export function cyclePath(
  members: readonly number[],
  component: Int32Array,
  succ: readonly (readonly number[])[],
): number[] {
  const start = members[0] as number;
  const comp = component[start];
  const visited = new Set<number>([start]);
  const path: number[] = [start];
  const next: number[] = [0];
  while (path.length > 0) {
    const top = path.length - 1;
    const v = path[top] as number;
    const list = succ[v] as readonly number[];
    let k = next[top] as number;
    let advanced = false;
    while (k < list.length) {
      const w = list[k] as number;
      k++;
      if (component[w] !== comp) continue;
      if (w === start) return path;
      if (visited.has(w)) continue;
      next[top] = k;
      visited.add(w);
      path.push(w);
      next.push(0);
      advanced = true;
      break;
    }
    if (!advanced) {
      path.pop();
      next.pop();
    }
  }
  // Unreachable for a cyclic component: every member reaches the start.
  return [start];
}
