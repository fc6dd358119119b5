// A structural diff of two plain JSON values (what wireToPlain gives): the paths added, removed and
// changed, with their old and new values. Objects are compared key by key, arrays index by index
// (a shorter new array reports its tail as removed, last index first, so applying the changes in
// order splices correctly), anything else by value. Written here rather than taken from a package:
// it is small, and the page needs only these three kinds of change, bounded by the caller.
// Iterative, so a deeply nested result cannot exhaust the stack.

export type JsonPath = readonly (string | number)[];

export type JsonChange =
  | { readonly op: "added"; readonly path: JsonPath; readonly value: unknown }
  | { readonly op: "removed"; readonly path: JsonPath; readonly value: unknown }
  | { readonly op: "changed"; readonly path: JsonPath; readonly old: unknown; readonly value: unknown };

/** Marks a work item whose `a` is a change already decided. */
const TAIL: unique symbol = Symbol("tail");

/** A path as a chain to its parent, so a deep value costs O(depth) rather than O(depth²). */
interface PathNode {
  readonly parent: PathNode | null;
  readonly key: string | number;
}

function pathOf(node: PathNode | null): (string | number)[] {
  const out: (string | number)[] = [];
  for (let n = node; n !== null; n = n.parent) out.push(n.key);
  return out.reverse();
}

type Decided = { readonly op: "added" | "removed"; readonly at: PathNode; readonly value: unknown };

function isObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Equal as JSON (object key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (Object.is(x, y) || (x === 0 && y === 0)) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
    } else if (isObject(x) && isObject(y)) {
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.hasOwn(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
    } else return false;
  }
  return true;
}

/**
 * The changes that turn `before` into `after`, in document order: at most `limit` of them, and
 * `more` when some were left out.
 */
export function jsonDiff(
  before: unknown,
  after: unknown,
  limit = Number.POSITIVE_INFINITY,
): { readonly changes: JsonChange[]; readonly more: boolean } {
  const changes: JsonChange[] = [];
  // Depth first, in document order: the work list is a stack, so children are pushed reversed.
  type Item = { readonly a: unknown; readonly b: unknown; readonly at: PathNode | null };
  const work: Item[] = [{ a: before, b: after, at: null }];
  const emit = (change: JsonChange): boolean => {
    if (changes.length >= limit) return false;
    changes.push(change);
    return true;
  };
  const decided = (op: Decided["op"], at: PathNode, value: unknown): Item => ({
    a: { op, at, value } satisfies Decided,
    b: TAIL,
    at: null,
  });
  while (work.length > 0) {
    const { a, b, at } = work.pop() as Item;
    const next: Item[] = [];
    if (b === TAIL) {
      const d = a as Decided;
      if (!emit({ op: d.op, path: pathOf(d.at), value: d.value })) return { changes, more: true };
    } else if (Array.isArray(a) && Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) next.push({ a: a[i], b: b[i], at: { parent: at, key: i } });
      for (let i = common; i < b.length; i++) next.push(decided("added", { parent: at, key: i }, b[i]));
      for (let i = a.length - 1; i >= common; i--)
        next.push(decided("removed", { parent: at, key: i }, a[i]));
    } else if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) {
        if (Object.hasOwn(b, k)) next.push({ a: a[k], b: b[k], at: { parent: at, key: k } });
        else next.push(decided("removed", { parent: at, key: k }, a[k]));
      }
      for (const k of Object.keys(b)) {
        if (!Object.hasOwn(a, k)) next.push(decided("added", { parent: at, key: k }, b[k]));
      }
    } else if (!sameJson(a, b)) {
      if (!emit({ op: "changed", path: pathOf(at), old: a, value: b })) return { changes, more: true };
    }
    for (let i = next.length - 1; i >= 0; i--) work.push(next[i] as Item);
  }
  return { changes, more: false };
}
