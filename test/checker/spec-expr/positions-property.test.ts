// Property: whatever the scalar style, escapes, folding and non-BMP characters around it, the
// range of a diagnostic inside an expression lands exactly on the token as written in the file.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diagnose, loc } from "./harness";

type Style = "plain" | "single" | "double" | "folded" | "literal";

const PREFIXES = ["", "1 + ", "'é😀' != 'x' or ", "not ", "len('a b') + ", "{'k': 1}['k'] + "];
const SUFFIXES = ["", " > 0", " + 1", " if True else 2"];

/** A double-quoted rendering; `escapeAt` marks prefix characters written as escapes. */
function doubleQuoted(text: string, nameStart: number, escapeAt: readonly boolean[]): string {
  let out = "";
  [...text].forEach((ch, i) => {
    const cp = ch.codePointAt(0) ?? 0;
    const inPrefix = [...text.slice(0, nameStart)].length > i;
    if (ch === "\\" || ch === '"') out += `\\${ch}`;
    else if (inPrefix && escapeAt[i % escapeAt.length] === true) {
      out +=
        cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
    } else out += ch;
  });
  return `"${out}"`;
}

/** Replaces one space by a line break that folding turns back into that space. */
function fold(written: string, indent: string, at: number): string {
  const spaces = [...written.matchAll(/ /g)].map((m) => m.index ?? 0);
  if (spaces.length === 0) return written;
  const i = spaces[at % spaces.length] as number;
  return `${written.slice(0, i)}\n${indent}${written.slice(i + 1)}`;
}

function render(style: Style, text: string, nameStart: number, escapeAt: boolean[], foldAt: number | null) {
  const indent = "            ";
  switch (style) {
    case "plain":
      return foldAt === null ? text : fold(text, indent, foldAt);
    case "single": {
      const w = `'${text.replace(/'/g, "''")}'`;
      return foldAt === null ? w : fold(w, indent, foldAt);
    }
    case "double": {
      const w = doubleQuoted(text, nameStart, escapeAt);
      return foldAt === null ? w : fold(w, indent, foldAt);
    }
    case "folded":
      return `>-\n${indent}${foldAt === null ? text : fold(text, indent, foldAt)}`;
    case "literal":
      return `|\n${indent}${text}`;
  }
}

describe("diagnostic positions inside expression scalars (property)", () => {
  it("EXPR-UNKNOWN-NAME covers exactly the written name", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Style>("plain", "single", "double", "folded", "literal"),
        fc.constantFrom(...PREFIXES),
        fc.constantFrom(...SUFFIXES),
        fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat(5), { nil: null }),
        (style, prefix, suffix, tail, escapeAt, foldAt) => {
          // Plain scalars cannot start with a flow indicator or a quote.
          const pre = style === "plain" && /^[{'[]/.test(prefix) ? `1 == 1 and ${prefix}` : prefix;
          const name = `zq${tail}`;
          const text = `${pre}${name}${suffix}`;
          // `: ` would start a mapping inside a plain scalar.
          fc.pre(style !== "plain" || !text.includes(": "));
          const yaml = `version: "0.2"
flows:
  f:
    input: {}
    steps:
      - id: a
        intent: "A"
        ensure:
          - ${render(style, text, pre.length, escapeAt, foldAt)}
`;
          const ds = diagnose(yaml);
          expect(ds.map((d) => d.code)).toEqual(["EXPR-UNKNOWN-NAME"]);
          expect(ds[0]).toMatchObject({ message: `name '${name}' is not defined`, ...loc(yaml, name) });
        },
      ),
      { numRuns: 300 },
    );
  });
});
