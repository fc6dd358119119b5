// The fuzzer's grapheme strings: fast-check's `string({ unit: "grapheme" })`, value for value, on a
// unit of our own. fast-check's unit, when made, maps each of its ~33,000 graphemes back to its
// number (to cut its list of "dangerous strings" into graphemes) and keeps that map for the
// process: ~40 ms of a cold start to build, 1.6 MB of every startup snapshot that fuzzes to carry.
// Ours numbers the same code points in the same order (grapheme-ranges.ts, generated from
// fast-check's tables), so every draw is the same; it finds a grapheme's number by a binary search
// instead, and keeps a map only of the 980 decomposed ones, made at the first look-up of one.
import fc from "fast-check";
import { AUTONOMOUS_RANGES, DECOMPOSABLE_RANGES } from "./grapheme-ranges";

interface Block {
  /** The number of the block's first code point among all the unit's graphemes. */
  readonly from: number;
  readonly first: number;
  readonly last: number;
}

function blocksOf(ranges: readonly number[], from: number): Block[] {
  const out: Block[] = [];
  let next = from;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const first = ranges[i] as number;
    const last = ranges[i + 1] as number;
    out.push({ from: next, first, last });
    next += last - first + 1;
  }
  return out;
}

const AUTONOMOUS = blocksOf(AUTONOMOUS_RANGES, 0);
/** The number of the first decomposed grapheme: the autonomous ones come first. */
export const AUTONOMOUS_COUNT = countOf(AUTONOMOUS, 0);
const DECOMPOSABLE = blocksOf(DECOMPOSABLE_RANGES, AUTONOMOUS_COUNT);
/** How many graphemes the unit has: it draws a number below this. */
export const GRAPHEME_COUNT = countOf(DECOMPOSABLE, AUTONOMOUS_COUNT);

function countOf(blocks: readonly Block[], from: number): number {
  const last = blocks[blocks.length - 1];
  return last === undefined ? from : last.from + last.last - last.first + 1;
}

/** The last block whose key (`from` or `first`) is at most `n`; null when none is. */
function blockAt(blocks: readonly Block[], n: number, key: "from" | "first"): Block | null {
  let lo = 0;
  let hi = blocks.length - 1;
  let found: Block | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid] as Block;
    if (b[key] <= n) {
      found = b;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The grapheme numbered `n` (0 ≤ n < GRAPHEME_COUNT), as fast-check's unit builds it. */
export function graphemeAt(n: number): string {
  if (n < AUTONOMOUS_COUNT) {
    const b = blockAt(AUTONOMOUS, n, "from") as Block;
    return String.fromCodePoint(b.first + n - b.from);
  }
  const b = blockAt(DECOMPOSABLE, n, "from") as Block;
  return String.fromCodePoint(b.first + n - b.from).normalize("NFD");
}

/** Each decomposed grapheme's number. */
let decomposed: Map<string, number> | null = null;
function decomposedNumbers(): Map<string, number> {
  if (decomposed === null) {
    decomposed = new Map();
    for (let n = AUTONOMOUS_COUNT; n < GRAPHEME_COUNT; n++) decomposed.set(graphemeAt(n), n);
  }
  return decomposed;
}

/**
 * The number of grapheme `value`, as fast-check's map answers it; throws, as fast-check's unit
 * does, for a value the unit cannot make. A value of one code point is an autonomous grapheme or
 * none: every decomposed one has two code points or more (test/fuzzer/values/grapheme-unit.test.ts),
 * so the two kinds never share a value.
 */
export function graphemeNumber(value: unknown): number {
  if (typeof value === "string" && value.length > 0) {
    const cp = value.codePointAt(0) as number;
    if (value.length === (cp > 0xffff ? 2 : 1)) {
      const b = blockAt(AUTONOMOUS, cp, "first");
      if (b !== null && cp <= b.last) return b.from + cp - b.first;
    } else {
      const n = decomposedNumbers().get(value);
      if (n !== undefined) return n;
    }
  }
  throw new Error("not a grapheme of the fuzzer's string unit");
}

/** fast-check's grapheme unit, drawing the same values from the same random stream. */
export const GRAPHEME_UNIT: fc.Arbitrary<string> = fc
  .nat({ max: GRAPHEME_COUNT - 1 })
  .map(graphemeAt, graphemeNumber);
