// Python `re` patterns on RE2 (stdlib/regex/python.ts): validity and error text as CPython 3.11's
// re.compile, and the same search answer on a table recorded from CPython
// (scripts/gen-python-re-table.py → python-re-table.json), flags IGNORECASE | MULTILINE as guardrails.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pythonPattern } from "../../../stdlib/regex/python";
import { pythonExample } from "../../../stdlib/regex/python-example";
import { parsePython } from "../../../stdlib/regex/python-parse";

interface RecordedCase {
  readonly pattern: string;
  readonly valid: boolean;
  readonly error?: string;
  readonly not_re_error?: boolean;
  readonly matches?: readonly boolean[];
}
const table = JSON.parse(readFileSync(new URL("python-re-table.json", import.meta.url), "utf8")) as {
  readonly texts: readonly string[];
  readonly cases: readonly RecordedCase[];
};

const FLAGS = { i: true, m: true } as const;
/** Valid in Python, but RE2 has no linear-time equivalent: reported as unsupported. */
const UNSUPPORTED = new Set([
  "(?P<n>a)(?P=n)",
  "(a)\\1",
  "(?=a)b",
  "(?!a)b",
  "(?<=a)b",
  "(?<!a)b",
  "(?>a+)b",
  "a++",
  "a*+",
  "(a)(?(1)b|c)",
  "\\N{EM DASH}",
  "[\\N{EM DASH}a]",
  "a{1001}",
]);

describe("Python re patterns (recorded from CPython)", () => {
  it("holds the recorded table", () => {
    expect(table.cases.length).toBeGreaterThan(100);
  });
  for (const c of table.cases) {
    it(JSON.stringify(c.pattern), () => {
      const compiled = pythonPattern(c.pattern, FLAGS);
      if (!c.valid) {
        expect(compiled.kind).toBe("invalid");
        if (compiled.kind === "invalid" && c.not_re_error !== true) expect(compiled.message).toBe(c.error);
        return;
      }
      if (UNSUPPORTED.has(c.pattern)) {
        expect(compiled.kind).toBe("unsupported");
        return;
      }
      if (compiled.kind !== "linear") expect.fail(`${c.pattern}: ${JSON.stringify(compiled)}`);
      const ours = table.texts.map((t) => compiled.search(t));
      const differ = table.texts.filter((_, k) => ours[k] !== c.matches?.[k]);
      expect(differ, "texts on which the search answer differs from Python's").toEqual([]);
    });
  }
});

describe("pythonExample (the fuzzer's text a guardrail finds)", () => {
  it("gives, for most recorded patterns, a text the pattern itself finds", () => {
    let examples = 0;
    for (const c of table.cases) {
      const compiled = pythonPattern(c.pattern, FLAGS);
      const example = pythonExample(c.pattern);
      if (compiled.kind !== "linear" || example === null) continue;
      examples += 1;
      expect(compiled.search(example), `${c.pattern} on ${JSON.stringify(example)}`).toBe(true);
    }
    expect(examples).toBeGreaterThan(60);
  });
  it("is null for a pattern that does not parse", () => {
    expect(pythonExample("[")).toBeNull();
    expect(pythonExample("rm -rf")).toBe("rm -rf");
    expect(pythonExample("BEGIN [A-Z ]*PRIVATE KEY")).toBe("BEGIN APRIVATE KEY");
  });
});

describe("Python re patterns (properties)", () => {
  it("never throws, whatever the pattern", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (p) => {
        parsePython(p, FLAGS);
        pythonPattern(p, FLAGS);
      }),
      { numRuns: 400 },
    );
  });
  it("never throws on patterns made of regex syntax", () => {
    const piece = fc.constantFrom(
      ..."()[]{}?*+|^$.\\-,:=!<>#PaAbBdDsSwWxZ0129".split(""),
      "(?",
      "(?P<",
      "\\x",
      "{1,2}",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const p = parts.join("");
        const compiled = pythonPattern(p, FLAGS);
        if (compiled.kind === "linear") compiled.search("some text");
      }),
      { numRuns: 1000 },
    );
  });
  it("searches a catastrophic-backtracking pattern in linear time (Python would stall on it)", () => {
    const compiled = pythonPattern("(a+)+$", FLAGS);
    expect(compiled.kind).toBe("linear");
    if (compiled.kind === "linear") expect(compiled.search(`${"a".repeat(100_000)}!`)).toBe(false);
    const nested = pythonPattern("^(\\w+\\s?)*$", FLAGS);
    expect(nested.kind).toBe("linear");
    if (nested.kind === "linear") expect(nested.search(`${"word ".repeat(20_000)}!`)).toBe(false);
  });
  it("finds a literal word in any text containing it, in any case", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), fc.string(), fc.string(), (word, before, after) => {
        const compiled = pythonPattern(word, FLAGS);
        expect(compiled.kind).toBe("linear");
        if (compiled.kind === "linear")
          expect(compiled.search(`${before}${word.toUpperCase()}${after}`)).toBe(true);
      }),
    );
  });
});
