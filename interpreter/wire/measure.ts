// What a store that keeps values instead of texts (the memory store) needs to know of a value
// without encoding it: how deep it nests, so that it refuses what the encoder would refuse, and
// about how long its text would be, so that the engine can weigh the flow it belongs to.
import { PyDict, PyFloat, PyTuple } from "../../stdlib/values/value";
import { WireDepthError } from "./encode";
import type { Wire, WireObject } from "./wire";

/**
 * An estimate of the length of `value`'s one-line JSON text (encodeWire without `indent`), in
 * UTF-16 units: a string counts its length and its quotes (escapes are not counted), a key the
 * same and its `": "`, any other scalar 4 (digits are not formatted), the `", "` between items and
 * a container's brackets: exact for a value whose scalars are strings that need no escape. Throws as encodeWire does: WireDepthError when the value nests deeper
 * than `maxDepth` levels, a TypeError on what is not a wire value. Recursive: `maxDepth` bounds the
 * stack, so it must be finite.
 */
export function measureWire(value: Wire, maxDepth: number): number {
  return measure(value, 1, maxDepth);
}

/** Per scalar that is not a string: `true`, `null`, a short number. */
const SCALAR = 4;
/** Per item or entry: the separator before it. */
const SEPARATOR = 2;

function measure(v: Wire, level: number, maxDepth: number): number {
  if (typeof v === "string") return v.length + 2;
  if (typeof v !== "object" || v === null || v instanceof PyFloat) return SCALAR;
  if (Array.isArray(v) || v instanceof PyTuple) {
    if (level > maxDepth) throw new WireDepthError(maxDepth);
    const items: readonly Wire[] = v instanceof PyTuple ? v.items : (v as readonly Wire[]);
    let size = 2;
    for (let i = 0; i < items.length; i++)
      size += (i > 0 ? SEPARATOR : 0) + measure(items[i], level + 1, maxDepth);
    return size;
  }
  // Maps by forEach and objects by for-in: a commit measures every change, and for-of over a
  // map's entries or Object.keys allocated an iterator result, an entry pair or a key array per
  // container (a tenth of a bare transition's garbage).
  if (v instanceof PyDict) {
    if (level > maxDepth) throw new WireDepthError(maxDepth);
    const sum = new Sum(level + 1, maxDepth);
    v.entries.forEach(sum.pyEntry, sum);
    return sum.size === 0 ? 2 : sum.size;
  }
  if (v instanceof Map) {
    if (level > maxDepth) throw new WireDepthError(maxDepth);
    const sum = new Sum(level + 1, maxDepth);
    (v as ReadonlyMap<unknown, Wire>).forEach(sum.mapEntry, sum);
    return sum.size === 0 ? 2 : sum.size;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`encodeWire: not a wire value (${Object.prototype.toString.call(v)})`);
  }
  if (level > maxDepth) throw new WireDepthError(maxDepth);
  const source = v as WireObject;
  let size = 0;
  // A wire object is a plain object (its prototype was checked): for-in sees its own keys only.
  for (const k in source) {
    const val = source[k];
    if (val === undefined) continue;
    size += SEPARATOR + k.length + 4 + measure(val, level + 1, maxDepth);
  }
  return size === 0 ? 2 : size; // the brackets stand where the first separator was counted
}

/** The running size of a map's entries (a map is measured by forEach, which allocates nothing per entry). */
class Sum {
  size = 0;
  constructor(
    private readonly level: number,
    private readonly maxDepth: number,
  ) {}

  pyEntry(this: Sum, entry: readonly [unknown, Wire]): void {
    this.entry(entry[0], entry[1]);
  }

  mapEntry(this: Sum, val: Wire, k: unknown): void {
    this.entry(k, val);
  }

  private entry(k: unknown, val: Wire): void {
    if (val === undefined) return;
    this.size +=
      SEPARATOR +
      (typeof k === "string" ? k.length + 4 : SCALAR + 4) +
      measure(val, this.level, this.maxDepth);
  }
}
