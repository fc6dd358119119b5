// The loader never throws, never fails internally, and every range it produces (diagnostics,
// related locations, nodes, positions inside scalars) lies inside the text — on arbitrary text
// and on YAML-ish fragments. Plus a ~10 MB spec (linear time, no error).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SourceRange } from "../../../checker/base/source-range";
import type { SpecNode } from "../../../checker/yaml/nodes";
import { load } from "./support";

function inside(text: string, r: SourceRange): boolean {
  return (
    Number.isInteger(r.start) &&
    Number.isInteger(r.end) &&
    0 <= r.start &&
    r.start <= r.end &&
    r.end <= text.length
  );
}

function checkText(text: string): void {
  const l = load(text);
  for (const d of l.diagnostics) {
    // The loader's last-resort catch must never be what produced a diagnostic.
    expect(d.message).not.toContain("the YAML parser failed");
    expect(inside(text, d.range)).toBe(true);
    for (const r of d.related ?? []) expect(inside(text, r.range)).toBe(true);
  }
  expect(l.ok).toBe(!l.diagnostics.some((d) => d.severity === "error"));
  const seen = new Set<SpecNode>();
  const walk = (node: SpecNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    expect(inside(text, node.range)).toBe(true);
    if (node.kind === "scalar") {
      const n = String(node.value).length;
      for (const [a, b] of [
        [0, n],
        [0, 0],
        [n, n],
        [1, 2],
        [-1, n + 3],
      ] as const) {
        const r = node.mapRange(a, b);
        expect(inside(text, r)).toBe(true);
      }
    } else if (node.kind === "seq") {
      expect(node.itemStarts.length).toBe(node.items.length);
      for (const s of node.itemStarts) expect(inside(text, { start: s, end: s })).toBe(true);
      node.items.forEach(walk);
    } else {
      for (const e of node.entries) {
        walk(e.key);
        walk(e.value);
      }
    }
  };
  walk(l.root);
}

const fragment = fc.constantFrom(
  "a",
  "key",
  ": ",
  ":",
  "- ",
  "-",
  "[",
  "]",
  "{",
  "}",
  ", ",
  ",",
  "? ",
  "&a ",
  "*a",
  "&b ",
  "*b",
  "!!str ",
  "!!int ",
  "!x ",
  "! ",
  "'",
  "''",
  '"',
  "\\",
  "\\n",
  "\\x4",
  "\n",
  "\n  ",
  "\n    ",
  "  ",
  "\t",
  "\r\n",
  "\r",
  "|",
  "|-",
  "|+2",
  ">",
  ">-",
  "# c",
  " #",
  "---",
  "...",
  "%YAML 1.1\n",
  "%TAG !e! tag:x:\n",
  "<<: ",
  "=",
  "~",
  "1",
  "0x1F",
  "1:30",
  "2024-02-30",
  "yes",
  ".inf",
  "\uFEFF",
  "😀",
  "é",
  "\u0085",
  "\u2028",
  "\0",
  "@",
  "`",
  "%",
);
const yamlish = fc.array(fragment, { maxLength: 40 }).map((a) => a.join(""));

describe("robustness", () => {
  it("never throws on arbitrary text; all ranges inside the text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), checkText), { numRuns: 1000 });
  });

  it("never throws on YAML-ish fragments; all ranges inside the text", () => {
    fc.assert(fc.property(yamlish, checkText), { numRuns: 2500 });
  });

  it("never throws on mutated valid specs", () => {
    const spec =
      'version: "0.2"\nfunctions:\n  f:\n    mode: infer\n    intent: "x"\n    input: {a: string}\n    output: Out\nflows:\n  main:\n    input: {}\n    steps:\n      - id: a\n        function: f\n        inputs: {a: "$.input.a"}\n        ensure:\n          - |\n            result.ok\n';
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: spec.length }),
        fc.integer({ min: 0, max: 5 }),
        fragment,
        (at, cut, insert) => {
          checkText(spec.slice(0, at) + insert + spec.slice(at + cut));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("loads a ~10 MB spec without error", () => {
    const parts = ['version: "0.2"\nfunctions:\n'];
    let size = 0;
    let count = 0;
    for (let i = 0; size < 10_000_000; i++, count++) {
      const s =
        `  fn_${i}:\n    mode: infer\n    intent: "Do thing number ${i} with care, then report"\n` +
        `    input: {a: string, b: integer}\n    output: Out\n    retries: 3\n    ensure:\n` +
        `      - "result.value > ${i}"\n      - result.ok == True\n    notes: |\n      Text for ${i}\n      second line\n`;
      parts.push(s);
      size += s.length;
    }
    const text = parts.join("");
    const l = load(text);
    expect(l.diagnostics).toEqual([]);
    expect(l.ok).toBe(true);
    const functions = l.root.kind === "map" ? l.root.get("functions")?.value : undefined;
    expect(functions?.kind === "map" && functions.entries.length).toBe(count);
  }, 120_000);
});
