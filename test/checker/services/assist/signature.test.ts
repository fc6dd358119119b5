// Signature help inside builtin and method calls: labels, parameter ranges, active parameter.
import { describe, expect, test } from "vitest";
import { signatureHelpAt } from "../../../../checker/services/assist";
import { docAt, HEAD } from "./support";

const FLOW = `flows:
  main:
    input: {}
    steps:
      - id: check
        intent: "Check it"
        output_contract: Review
`;

function help(expression: string) {
  const { doc, offset } = docAt(`${HEAD}${FLOW}        ensure:\n          - "${expression}"\n`);
  return signatureHelpAt(doc, offset);
}

/** The active parameter's text in the active signature's label. */
function activeText(expression: string): string | null {
  const h = help(expression);
  if (h === null) return null;
  const sig = h.signatures[h.activeSignature];
  const p = sig?.parameters[h.activeParameter];
  return sig === undefined || p === undefined ? null : sig.label.slice(p.label[0], p.label[1]);
}

describe("builtins", () => {
  test("len( on incomplete text: the signature, its one parameter active", () => {
    expect(help("len(<|>")).toEqual({
      signatures: [
        {
          label: "len(x, /) -> int",
          documentation:
            "Number of code points of a string, or of elements of a list, tuple, dict, namespace or view.",
          parameters: [{ label: [4, 5] }],
        },
      ],
      activeSignature: 0,
      activeParameter: 0,
    });
  });

  test("the active parameter follows commas at the call's level, not inside nested brackets", () => {
    expect(activeText("round(result.score, <|>")).toBe("ndigits=None");
    expect(activeText("file_contains(str([1, 2<|>]), 'x')")).toBe("x=''");
    expect(activeText("file_contains('a', <|>'b')")).toBe("needle");
  });

  test("keyword arguments select the parameter by name", () => {
    expect(activeText("sorted(result.notes, reverse=<|>")).toBe("reverse=False");
  });

  test("min/max: the alternative that takes the arguments typed so far", () => {
    const one = help("min(result.notes<|>");
    expect(one?.signatures.map((s) => s.label)).toEqual([
      "min(iterable, /, *, default)",
      "min(a, b, /, *args)",
    ]);
    expect([one?.activeSignature, one?.activeParameter]).toEqual([0, 0]);
    const three = help("min(1, 2, 3<|>)");
    expect([three?.activeSignature, three?.activeParameter]).toEqual([1, 2]);
    expect(activeText("min(1, 2, 3<|>)")).toBe("*args");
  });

  test("the innermost call wins", () => {
    expect(help("len(str(<|>))")?.signatures[0]?.label).toBe("str(x='', /) -> str");
  });

  test("outside any call, or in an unknown function: nothing", () => {
    expect(help("result.score > <|>0")).toBeNull();
    expect(help("nope(<|>")).toBeNull();
  });
});

describe("methods", () => {
  test("by the receiver's static type", () => {
    const h = help("result.verdict.replace('a', <|>");
    expect(h?.signatures.map((s) => s.label)).toEqual(["str.replace(old, new, count=-1, /) -> str"]);
    expect(activeText("result.verdict.replace('a', <|>")).toBe("new");
    expect(help("result.notes.index(<|>")?.signatures.map((s) => s.label)).toEqual([
      "list.index(x, start=0, end=len, /) -> int",
    ]);
  });

  test("on a namespace: the mapping methods", () => {
    expect(help("result.get('score', <|>")?.signatures.map((s) => s.label)).toEqual([
      "dict.get(key, default=None, /)",
    ]);
  });
});
