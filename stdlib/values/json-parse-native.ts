// parseJson's fast path: the engine's own JSON.parse builds the tree (about ten times faster than
// parsing in script: a 10,000-step flow file is 4 MB), and one scan of the text recovers what
// JSON.parse loses — which numbers were written as floats (`1.0` stays a float) and which integers
// are too long for a double. The tree is then walked in text order, so the scan's n-th number is
// the walk's n-th number. Anything that could break that order or change a value is left to the
// reference parser (json-parse.ts), which then gives the answer or the error: a key JSON.parse
// would reorder (an array index such as "1": keys starting with a digit or an escape), a key written
// twice (its first value's numbers would still be counted), nesting deeper than the limits, and
// every text JSON.parse refuses (NaN and Infinity, syntax errors).
import { hashKey } from "./dict";
import { normInt, PyDict, PyFloat, type PyValue } from "./value";

/** Deeper text takes the reference parser, which is iterative: the walk below recurses. */
const FAST_MAX_DEPTH = 1_100;

/** A number the walk cannot take from JSON.parse as it is: its position among the text's numbers. */
interface Special {
  readonly ordinal: number;
  /** The token, for integers too long for a double; "" for a float. */
  readonly bigInt: string;
}

interface Scan {
  readonly specials: readonly Special[];
  /** Members written in each object, objects in text order (a key written twice shows here). */
  readonly members: readonly number[];
}

/** The parsed value, or undefined when only the reference parser can promise the same answer. */
export function parseJsonNative(text: string, maxDepth: number): PyValue | undefined {
  const scan = scanJson(text, Math.min(maxDepth, FAST_MAX_DEPTH));
  if (scan === undefined) return undefined;
  let tree: unknown;
  try {
    tree = JSON.parse(text);
  } catch {
    return undefined;
  }
  const walk = new Walk(scan);
  const value = walk.value(tree);
  return walk.unsure ? undefined : value;
}

function scanJson(text: string, depthLimit: number): Scan | undefined {
  const specials: Special[] = [];
  const members: number[] = [];
  // For each open container: the index of its entry in `members`, or -1 for an array.
  const open: number[] = [];
  let numbers = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return undefined;
      let after = end + 1;
      while (isSpace(text.charCodeAt(after))) after++;
      if (text.charCodeAt(after) === 0x3a) {
        const first = text.charCodeAt(i + 1);
        if ((first >= 0x30 && first <= 0x39) || first === 0x5c) return undefined;
        const object = open[open.length - 1];
        if (object === undefined || object < 0) return undefined;
        members[object] = (members[object] ?? 0) + 1;
      }
      i = after;
    } else if (c === 0x7b || c === 0x5b) {
      if (open.length + 1 > depthLimit) return undefined;
      if (c === 0x7b) {
        open.push(members.length);
        members.push(0);
      } else open.push(-1);
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // The token's characters; JSON.parse refuses the text if they do not make a number.
      let end = i + 1;
      let float = false;
      for (;;) {
        const d = text.charCodeAt(end);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2b || d === 0x2d) end++;
        else if (d === 0x2e || d === 0x65 || d === 0x45) {
          float = true;
          end++;
        } else break;
      }
      if (float) specials.push({ ordinal: numbers, bigInt: "" });
      else if (end - i > 15) specials.push({ ordinal: numbers, bigInt: text.slice(i, end) });
      numbers++;
      i = end;
    } else i++;
  }
  return { specials, members };
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let b = at - 1;
  while (text.charCodeAt(b) === 0x5c) b--;
  return (at - 1 - b) % 2 === 1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** JSON.parse's tree as parseJson's values, in text order. */
class Walk {
  private number = 0;
  private object = 0;
  private special = 0;
  /** Set when the tree and the scan disagree (a key written twice): the answer is not used. */
  unsure = false;

  constructor(private readonly scan: Scan) {}

  value(v: unknown): PyValue {
    if (this.unsure) return null;
    if (typeof v === "number") return this.numberAt(v);
    if (typeof v !== "object" || v === null) return v as string | boolean | null;
    if (Array.isArray(v)) {
      const out: PyValue[] = new Array(v.length);
      for (let k = 0; k < v.length; k++) out[k] = this.value(v[k]);
      return out;
    }
    const record = v as Record<string, unknown>;
    const written = this.scan.members[this.object++];
    const dict = new PyDict();
    const entries = dict.entries;
    for (const key in record) entries.set(hashKey(key), [key, this.value(record[key])]);
    if (entries.size !== written) this.unsure = true;
    return dict;
  }

  private numberAt(v: number): PyValue {
    const ordinal = this.number++;
    const special = this.scan.specials[this.special];
    if (special === undefined || special.ordinal !== ordinal) return v + 0; // -0 reads as 0, as in Python
    this.special++;
    return special.bigInt === "" ? new PyFloat(v) : normInt(BigInt(special.bigInt));
  }
}
