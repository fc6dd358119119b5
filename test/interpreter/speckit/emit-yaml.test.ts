// The emitter of the generated spec (docs/reference/runtime.md §19.4): every style branch with its exact text,
// layout rules, and the property that any string loads back unchanged in every position.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { doubleQuoted, emitYaml, scalarStyle, type YamlValue } from "../../../interpreter/speckit/emit-yaml";
import { loadBack } from "./load-back";

const doc = (entries: [string, YamlValue][]): Map<string, YamlValue> => new Map(entries);

describe("scalar styles", () => {
  it.each([
    ["TaskResult", "plain"],
    ["$.input.project_context", "plain"],
    ['file_exists("src/a.ts")', "plain"],
    ["result.done == True", "plain"],
    ["a:b", "plain"],
    ["a#b", "plain"],
    ["x, [y] {z}", "plain"],
    ["08", "plain"], // not an octal int in YAML 1.1: a string
    ["1e3", "plain"], // not a YAML 1.1 float
    ["y", "plain"],
    ["0.1", "single"],
    ["12", "single"],
    ["yes", "single"],
    ["Off", "single"],
    ["null", "single"],
    ["~", "single"],
    ["2024-01-01", "single"],
    ["<<", "single"],
    ["=", "single"],
    [".inf", "single"],
    ["", "single"],
    [" lead", "single"],
    ["trail ", "single"],
    ["tab\there", "single"],
    ["a: b", "single"],
    ["a #b", "single"],
    ["ends:", "single"],
    ["it's", "plain"],
    ...[..."-?:,[]{}#&*!|>'\"%@`"].map((c): [string, string] => [`${c}x`, "single"]),
    ["line\nbreak", "literal"],
    ["\nleading empty line", "literal"],
    ["a\n\n  indented later", "literal"],
    ["\ttab first\nsecond", "literal"],
    [" starts with space\nx", "double"],
    ["\n  first content line indented", "double"],
    ["ends with break\n", "double"],
    ["\n", "double"],
    ["cr\r\nlf", "double"],
    ["lone\rcr", "double"],
    // NEL, LS and PS are line breaks for YAML 1.1 loaders (PyYAML), so never inside a block or quotes.
    ["nel\x85here", "double"],
    ["ls\u2028here", "double"],
    ["ps\u2029here", "double"],
    ["bell\x07", "double"],
    ["bom\uFEFF", "double"],
    ["lone \uD800 surrogate", "double"],
    ["multi\nline\x07control", "double"],
  ])("%j is %s", (s, style) => {
    expect(scalarStyle(s)).toBe(style);
  });
});

describe("double-quoted escapes", () => {
  it("escapes backslash, quote and control characters, keeps other text", () => {
    expect(doubleQuoted('a\\b"c\n\t\r\0\x07\x7f\x85é\u2028\uFEFF\uD800😀')).toBe(
      '"a\\\\b\\"c\\n\\t\\r\\0\\x07\\x7f\\x85é\\u2028\\ufeff\\ud800😀"',
    );
  });
});

describe("layout", () => {
  it("writes block mappings, sequences at the key's indentation, and ends with a newline", () => {
    const text = emitYaml(
      doc([
        ["version", "0.1"],
        ["retries", 2],
        ["list", ["a", "b"]],
        [
          "steps",
          [
            doc([
              ["id", "s1"],
              ["deps", ["x"]],
            ]),
          ],
        ],
        ["nested", doc([["inner", doc([["k", "v"]])]])],
      ]),
    );
    expect(text).toBe(
      [
        "version: '0.1'",
        "retries: 2",
        "list:",
        "- a",
        "- b",
        "steps:",
        "- id: s1",
        "  deps:",
        "  - x",
        "nested:",
        "  inner:",
        "    k: v",
        "",
      ].join("\n"),
    );
  });

  it("indents literal blocks two spaces deeper than the key and leaves empty lines empty", () => {
    const text = emitYaml(doc([["f", doc([["intent", "Title\n\nBody"]])]]));
    expect(text).toBe("f:\n  intent: |-\n    Title\n\n    Body\n");
    const inList = emitYaml(doc([["l", ["a\nb"]]]));
    expect(inList).toBe("l:\n- |-\n  a\n  b\n");
  });

  it("writes empty collections in flow style", () => {
    expect(
      emitYaml(
        doc([
          ["m", new Map()],
          ["s", []],
        ]),
      ),
    ).toBe("m: {}\ns: []\n");
  });

  it("quotes keys that are not plain-safe and never writes a key as a block", () => {
    expect(
      emitYaml(
        doc([
          ["yes", "v"],
          ["a: b", "v"],
          ["x\ny", "v"],
        ]),
      ),
    ).toBe("'yes': v\n'a: b': v\n\"x\\ny\": v\n");
  });

  it("writes keys of up to 1024 UTF-16 units as implicit keys", () => {
    for (const key of ["k".repeat(1024), "😀".repeat(512), "'".repeat(511)]) {
      const text = emitYaml(doc([["m", doc([[key, "v"]])]]));
      expect(text.startsWith("m:\n  ?")).toBe(false);
      expect(loadBack(text)).toEqual({ value: { m: { [key]: "v" } }, problems: [] });
    }
  });

  it("writes longer keys as explicit keys, at any depth", () => {
    for (const key of ["k".repeat(1025), "😀".repeat(513), "'".repeat(512)]) {
      const text = emitYaml(doc([["m", doc([[key, doc([["a", ["b"]]])]])]]));
      expect(text.startsWith("m:\n  ? ")).toBe(true);
      expect(loadBack(text)).toEqual({ value: { m: { [key]: { a: ["b"] } } }, problems: [] });
      const withList = emitYaml(doc([[key, ["x", "y\nz"]]]));
      expect(loadBack(withList)).toEqual({ value: { [key]: ["x", "y\nz"] }, problems: [] });
    }
  });

  it("writes keys longer than 1024 characters as explicit keys", () => {
    const long = "k".repeat(1100);
    const text = emitYaml(
      doc([
        [long, doc([["a", "b"]])],
        ["after", ["x"]],
      ]),
    );
    expect(text).toBe(`? ${long}\n:\n  a: b\nafter:\n- x\n`);
    expect(loadBack(text)).toEqual({ value: { [long]: { a: "b" }, after: ["x"] }, problems: [] });
  });
});

// Full UTF-16 code units (lone surrogates included), biased towards the characters that matter.
const special = fc.constantFrom(
  ..." \t\n\r\x85\u2028\u2029\x00\x07\x1b\x7f\uFEFF\uD800\uDC00#:-?'\"\\|>%@`!&*,[]{}~=<.0123456789eEyYnNoO+_xX",
);
const unit = fc.oneof(
  { weight: 3, arbitrary: special },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) },
  { weight: 1, arbitrary: fc.constantFrom("true", "null", "yes", "0x1F", "1:30", "2024-01-01", "1.5", "<<") },
);
// Several lines, each with some indentation: what literal blocks are made of.
const indent = fc.constantFrom("", "", " ", "  ", "    ", "\t");
const lines = fc
  .array(fc.tuple(indent, fc.array(unit, { maxLength: 4 })), { minLength: 1, maxLength: 5 })
  .map((ls) => ls.map(([pad, parts]) => pad + parts.join("")).join("\n"));
const anyString = fc.oneof(
  fc.array(unit, { maxLength: 12 }).map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 20 }),
  lines,
);

describe("property: every string loads back unchanged", () => {
  it("as a mapping value, a sequence item, a nested value and a key", () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const text = emitYaml(
          doc([
            ["value", s],
            ["items", [s, "after"]],
            ["nested", doc([["inner", s]])],
            ["keyed", doc([[s, s]])],
          ]),
        );
        expect(loadBack(text)).toEqual({
          value: { value: s, items: [s, "after"], nested: { inner: s }, keyed: { [s]: s } },
          problems: [],
        });
      }),
      { numRuns: 3000 },
    );
  });
});
