// Literal values: numbers and strings decode exactly as CPython does (except `\N`, which the
// language keeps literally), checked against python3's own evaluation of the same text.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { Expr } from "../../grammar/ast";
import { parseExpression } from "../../grammar/parse";
import { floatRepr, strRepr } from "../../stdlib/values/repr";
import { PyFloat } from "../../stdlib/values/value";

const NUMBERS = [
  "0",
  "7",
  "00",
  "0_0",
  "10",
  "1_000",
  "9007199254740991",
  "9007199254740992",
  "123456789012345678901234567890",
  "0x0",
  "0xdeadBEEF",
  "0X_1_2",
  "0o777",
  "0O_7",
  "0b0",
  "0B1_0",
  "0xffffffffffffffffffffffffffff",
  "0.0",
  "1.",
  ".5",
  "1.5",
  "3.14159",
  "1e3",
  "1E+3",
  "1e-3",
  "2.5e-10",
  "1_0.0_1",
  "012.5",
  "00.0",
  "1e308",
  "1e309",
  "5e-324",
  "0.1",
  "1e16",
  "1e15",
  "123456789.123456789",
  "1_2e1_2",
  "0.0001",
  "0.00001",
];

const STRINGS = [
  "''",
  '""',
  "'abc'",
  '"a\'b"',
  "'a\\'b'",
  "'\\\\'",
  "'\\n\\r\\t\\a\\b\\f\\v'",
  "'\\0'",
  "'\\101'",
  "'\\1010'",
  "'\\777'",
  "'\\x41\\x7e'",
  "'\\u00e9\\u20ac'",
  "'\\U0001F600'",
  "'\\d\\s\\w'",
  "'\\8\\9'",
  "'a\\\nb'",
  "r'\\n'",
  "R'\\x'",
  "r'\\''",
  "u'\\t'",
  "U'x'",
  "'é😀'",
  "'a' 'b'",
  "'a' r'\\n' \"c\"",
  "'\\ud800'",
  "'tab\tinside'",
  "'\"'",
  "'\\''",
];

/** Python's repr of each literal's value, as Python computes it. */
function pythonReprs(literals: readonly string[]): string[] {
  const program = "import json,sys\nprint(json.dumps([repr(eval(s)) for s in json.load(sys.stdin)]))";
  const run = spawnSync("python3", ["-c", program], { input: JSON.stringify(literals), encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[];
}

function valueRepr(e: Expr | null): string {
  if (e?.kind !== "Constant") return `not a constant: ${e?.kind}`;
  const v = e.value;
  if (typeof v === "string") return strRepr(v);
  if (v instanceof PyFloat) return floatRepr(v.v);
  return String(v);
}

describe("number literals", () => {
  const expected = pythonReprs(NUMBERS);
  NUMBERS.forEach((text, i) => {
    it(text, () => {
      const r = parseExpression(text);
      expect(r.diagnostics).toEqual([]);
      expect(valueRepr(r.expr)).toBe(expected[i]);
    });
  });
  it("uses bigint exactly beyond the safe range, number inside it", () => {
    expect(parseExpression("9007199254740991").expr).toMatchObject({ value: 9007199254740991 });
    expect(parseExpression("9007199254740992").expr).toMatchObject({ value: 9007199254740992n });
    expect(parseExpression("0x1F").expr).toMatchObject({ value: 31 });
    const f = parseExpression("1.0").expr;
    expect(f?.kind === "Constant" && f.value instanceof PyFloat).toBe(true);
  });
});

describe("string literals", () => {
  const expected = pythonReprs(STRINGS);
  STRINGS.forEach((text, i) => {
    it(JSON.stringify(text), () => {
      const r = parseExpression(text);
      expect(r.diagnostics).toEqual([]);
      expect(valueRepr(r.expr)).toBe(expected[i]);
    });
  });
  it("keeps \\N literally (no named escapes)", () => {
    expect(parseExpression("'\\N{DASH}'").expr).toMatchObject({ kind: "Constant", value: "\\N{DASH}" });
  });
  it("spans adjacent literals as one constant", () => {
    expect(parseExpression("'a'  \"b\"").expr).toEqual({ kind: "Constant", value: "ab", start: 0, end: 8 });
  });
});

describe("literal keywords and aliases", () => {
  for (const [text, value] of [
    ["True", true],
    ["true", true],
    ["False", false],
    ["false", false],
    ["None", null],
    ["null", null],
  ] as const) {
    it(text, () => {
      expect(parseExpression(text).expr).toEqual({ kind: "Constant", value, start: 0, end: text.length });
    });
  }
  it("are not names", () => {
    expect(parseExpression("true = 1").diagnostics[0]).toMatchObject({ detail: "unexpected '='" });
    expect(parseExpression("[null for null in x]").diagnostics.length).toBeGreaterThan(0);
  });
});
