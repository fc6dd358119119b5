// Limits on the JSON values that enter through a tool: how deep they nest and how many
// values they hold, checked up front by one iterative walk, before any recursive code (conversion,
// checks, repr, encoding) touches them. The flow file has a depth limit of its own, twice the
// value limit: a flow state nests user values a few levels below its top, and its writer refuses
// (`encodeFlowState`) exactly what its reader refuses (`decodeFlowState`), so every stored flow
// can be loaded again.
import { PyDict, PyFloat, PyTuple } from "../stdlib/values/value";

/**
 * Levels of arrays and objects in one argument value (`[]` is 1, `[[1]]` is 2). Far beyond any real
 * agent result, far below where recursive code overflows Node's default stack (about 1,300 levels
 * for the weakest), and Python's json module itself fails near 1,000.
 */
export const MAX_VALUE_DEPTH = 512;

/**
 * Values (every scalar, array and object) in one argument value. A million-item result takes
 * seconds through checks, storage and the answer; ten million took half a minute and 2.7 GB, and
 * fifty million crashed the process.
 */
const MAX_VALUE_COUNT = 1_000_000;

/** Levels of the flow file: the top object is level 1. Written and read with the same limit. */
export const MAX_FLOW_FILE_DEPTH = 2 * MAX_VALUE_DEPTH;

export interface ValueShape {
  /** The deepest level of arrays and objects (0 for a scalar). */
  readonly depth: number;
  /** Every value, containers and scalars. */
  readonly count: number;
}

/**
 * Depth and value count of a JSON-like value — plain JS data (JSON.parse), PyValue or wire data
 * (arrays, tuples, dicts, Maps, plain objects) — with an explicit stack, so any depth is measured.
 */
export function valueShape(value: unknown): ValueShape {
  let depth = 0;
  let count = 1;
  // One iterator per open container (memory grows with the depth, not with the size).
  const open: Iterator<unknown>[] = [];
  let children = childrenOf(value);
  for (;;) {
    if (children !== null) {
      open.push(children[Symbol.iterator]());
      if (open.length > depth) depth = open.length;
    }
    const next = open[open.length - 1]?.next();
    if (next === undefined) return { depth, count };
    if (next.done === true) {
      open.pop();
      children = null;
      continue;
    }
    count++;
    children = childrenOf(next.value);
  }
}

function childrenOf(v: unknown): Iterable<unknown> | null {
  if (typeof v !== "object" || v === null || v instanceof PyFloat) return null;
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (v instanceof PyDict) return dictValues(v);
  if (v instanceof Map) return v.values();
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ? Object.values(v) : null;
}

function* dictValues(d: PyDict): Iterable<unknown> {
  for (const [, x] of d.entries.values()) yield x;
}

/**
 * Levels of arrays and objects in a JSON text (`[[1]]` is 2), counted on the text without parsing
 * it: what decides whether a text may be parsed at all, before JSON.parse builds millions of
 * nested arrays. Brackets inside strings do not count; the text need not be valid JSON (a parser
 * rejects it later), and unbalanced closing brackets never make the count negative.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote (one not escaped by an odd run of backslashes).
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return deepest;
}

/** "nested 2,001 levels deep; the limit is 512": the one wording of a value past the depth limit. */
export function tooDeep(depth: number): string {
  return `nested ${grouped(depth)} levels deep; the limit is ${grouped(MAX_VALUE_DEPTH)}`;
}

/**
 * What is wrong with an argument value, e.g. `result: nested 2,001 levels deep; the limit is 512`,
 * or null when it is within the limits.
 */
export function valueLimitProblem(name: string, value: unknown): string | null {
  const { depth, count } = valueShape(value);
  if (depth > MAX_VALUE_DEPTH) return `${name}: ${tooDeep(depth)}`;
  if (count > MAX_VALUE_COUNT) {
    return `${name}: ${grouped(count)} values; the limit is ${grouped(MAX_VALUE_COUNT)}`;
  }
  return null;
}

/** The first problem among named argument values, or null. */
export function argumentsLimitProblem(args: Iterable<readonly [string, unknown]>): string | null {
  for (const [name, value] of args) {
    const problem = valueLimitProblem(name, value);
    if (problem !== null) return problem;
  }
  return null;
}

/** An integer with thousands separators, as messages print limits (`2,000`). */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
