// A text that a Python `re` pattern finds, built from its tree (python-parse.ts): literals as
// written, the first member of a set (a negated one has no example), the minimum of a repeat (one at least, so `a*` still shows
// its `a`), the first alternative. The fuzzer mixes such texts into the results it writes, so a
// guardrail that would block what an agent writes is exercised. Null when the pattern does not
// parse or uses what has no simple witness (lookarounds, back references, negated sets, …).
import type { PyNode, PySeq } from "./python-ast";
import { parsePython } from "./python-parse";

const MAX_LENGTH = 200;

class NoExample extends Error {}

export function pythonExample(pattern: string): string | null {
  const parsed = parsePython(pattern, { i: true, m: true });
  if (!parsed.ok) return null;
  try {
    const text = seqText(parsed.pattern.seq);
    return text.length > MAX_LENGTH ? null : text;
  } catch (error) {
    if (error instanceof NoExample) return null;
    throw error;
  }
}

function seqText(seq: PySeq): string {
  return seq.map(nodeText).join("");
}

function nodeText(node: PyNode): string {
  switch (node.t) {
    case "lit":
      return String.fromCodePoint(node.cp);
    case "set": {
      const first = node.items[0];
      if (node.negate || first === undefined) throw new NoExample();
      if (first.t === "lit") return String.fromCodePoint(first.cp);
      if (first.t === "range") return String.fromCodePoint(first.lo);
      if (first.t === "cat" && first.cat === "d") return "0";
      if (first.t === "cat" && first.cat === "s") return " ";
      if (first.t === "cat" && first.cat === "w") return "a";
      throw new NoExample();
    }
    case "any":
      return "a";
    case "at":
      if (node.at === "B") throw new NoExample();
      return ""; // the example stands alone: its ends are the text's ends and word boundaries
    case "repeat":
      return seqText(node.item).repeat(
        Math.min(Math.max(node.min, 1), node.max ?? Number.MAX_SAFE_INTEGER, 50),
      );
    case "group":
      return seqText(node.body);
    case "branch": {
      const first = node.alts[0];
      if (first === undefined) return "";
      return seqText(first);
    }
    default:
      throw new NoExample();
  }
}
