// EXPR-SYNTAX details (docs/reference/language.md §9.5.5): exact texts and locations, and recovery.
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../grammar/parse";

type Row = readonly [
  source: string,
  diagnostics: readonly (readonly [detail: string, start: number, end: number])[],
];

function details(source: string): [string, number, number][] {
  return parseExpression(source).diagnostics.map((d) => [
    d.code === "EXPR-SYNTAX" ? d.detail : d.code,
    d.start,
    d.end,
  ]);
}

const ROWS: readonly Row[] = [
  // unexpected token, each kind of token description
  ["a b", [["unexpected name 'b'", 2, 3]]],
  ["a 12", [["unexpected number 12", 2, 4]]],
  ["a 0x1F", [["unexpected number 0x1F", 2, 6]]],
  ["a 'abc'", [["unexpected string 'abc'", 2, 7]]],
  ['a "it\'s"', [['unexpected string "it\'s"', 2, 8]]],
  ["a, b", [["unexpected ','", 1, 2]]],
  ["a +", [["unexpected end of expression", 3, 3]]],
  ["", [["unexpected end of expression", 0, 0]]],
  ["  # only a comment", [["unexpected end of expression", 18, 18]]],
  ["result.x ===", [["unexpected '='", 11, 12]]],
  ["a ? b", [["unexpected '?'", 2, 3]]],
  ["x == é", [["unexpected 'é'", 5, 6]]],
  ["a == not b", [["unexpected 'not'", 5, 8]]],
  ["a not b", [["unexpected 'not'", 2, 5]]],
  ["x[]", [["unexpected ']'", 2, 3]]],
  ["(1]", [["unexpected ']'", 2, 3]]],
  ["x[1, 2]", [["unexpected ','", 3, 4]]],
  ["a if b", [["unexpected end of expression", 6, 6]]],
  ["[x for x in y if a if b else c]", [["unexpected 'else'", 24, 28]]],
  ["f(x)=1", [["unexpected '='", 4, 5]]],
  ["a.1", [["unexpected number .1", 1, 3]]],
  [
    "a.if",
    [
      ["unexpected 'if'", 2, 4],
      ["unexpected end of expression", 4, 4],
    ],
  ],
  // missing closing bracket: the innermost unclosed one
  ["(1", [["'(' was never closed", 0, 1]]],
  ["f([1, 2", [["'[' was never closed", 2, 3]]],
  ["{'a': 1", [["'{' was never closed", 0, 1]]],
  ["f(1 +", [["'(' was never closed", 1, 2]]],
  // literals
  ["'abc", [["unterminated string literal", 0, 4]]],
  ["'abc\n + 1", [["unterminated string literal", 0, 4]]],
  ["f('abc", [["unterminated string literal", 2, 6]]],
  ["r'\\'", [["unterminated string literal", 0, 4]]],
  ["012", [["invalid number literal '012'", 0, 3]]],
  ["0_7", [["invalid number literal '0_7'", 0, 3]]],
  ["1__0", [["invalid number literal '1__0'", 0, 4]]],
  ["1_", [["invalid number literal '1_'", 0, 2]]],
  ["1e", [["invalid number literal '1e'", 0, 2]]],
  [
    "1e+",
    [
      ["invalid number literal '1e'", 0, 2],
      ["unexpected end of expression", 3, 3],
    ],
  ],
  ["0x", [["invalid number literal '0x'", 0, 2]]],
  ["0b102", [["invalid number literal '0b102'", 0, 5]]],
  ["0o8", [["invalid number literal '0o8'", 0, 3]]],
  ["1.2.3", [["invalid number literal '1.2.3'", 0, 5]]],
  [
    "1if x else y",
    [
      ["invalid number literal '1if'", 0, 3],
      ["unexpected name 'x'", 4, 5],
    ],
  ],
  ["1._5", [["invalid number literal '1._5'", 0, 4]]],
  ["'\\x4'", [["invalid escape sequence '\\x4'", 1, 4]]],
  ["'\\xg'", [["invalid escape sequence '\\x'", 1, 3]]],
  ["'a\\u12'", [["invalid escape sequence '\\u12'", 2, 6]]],
  ["'\\U0011FFFF'", [["invalid escape sequence '\\U0011FFFF'", 1, 11]]],
  ["f'x'", [["f-strings are not supported", 0, 4]]],
  ["RF'x'", [["f-strings are not supported", 0, 5]]],
  ["b'x'", [["bytes literals are not supported", 0, 4]]],
  ["Br'x'", [["bytes literals are not supported", 0, 5]]],
  ["'''x'''", [["triple-quoted strings are not supported", 0, 7]]],
  ['"""x\ny"""', [["triple-quoted strings are not supported", 0, 9]]],
  ["1j", [["complex numbers are not supported", 0, 2]]],
  ["1.5J + 1", [["complex numbers are not supported", 0, 4]]],
  ["{1, 2}", [["set displays are not supported", 0, 6]]],
  ["{a}", [["set displays are not supported", 0, 3]]],
  ["{a for a in b}", [["dict and set comprehensions are not supported", 0, 14]]],
  ["{k: v for k, v in d}", [["dict and set comprehensions are not supported", 0, 20]]],
  // operators
  ["a ** b", [["'**' is not supported", 2, 4]]],
  ["a | b", [["'|' is not supported", 2, 3]]],
  ["a & b", [["'&' is not supported", 2, 3]]],
  ["a ^ b", [["'^' is not supported", 2, 3]]],
  ["~a", [["'~' is not supported", 0, 1]]],
  ["a << 1", [["'<<' is not supported", 2, 4]]],
  ["a >> 1", [["'>>' is not supported", 2, 4]]],
  ["a @ b", [["'@' is not supported", 2, 3]]],
  ["(x := 1)", [["':=' is not supported", 3, 5]]],
  ["a <> b", [["'<>' is not supported", 2, 4]]],
  [
    "a |",
    [
      ["'|' is not supported", 2, 3],
      ["unexpected end of expression", 3, 3],
    ],
  ],
  // reserved keywords (later errors are their cascade)
  ...[
    "lambda",
    "yield",
    "await",
    "async",
    "def",
    "class",
    "import",
    "from",
    "as",
    "with",
    "return",
    "pass",
  ].map((kw): Row => [`${kw} x`, [[`'${kw}' is not supported`, 0, kw.length]]]),
  ...[
    "del",
    "global",
    "nonlocal",
    "assert",
    "raise",
    "try",
    "except",
    "finally",
    "while",
    "break",
    "continue",
  ].map((kw): Row => [`${kw}`, [[`'${kw}' is not supported`, 0, kw.length]]]),
  ["lambda x: x", [["'lambda' is not supported", 0, 6]]],
  ["x if y elif z", [["'elif' is not supported", 7, 11]]],
  ["f(x) if y else lambda", [["'lambda' is not supported", 15, 21]]],
  // calls
  ["f(*a)", [["star arguments are not supported", 2, 4]]],
  ["f(x, **k)", [["star arguments are not supported", 5, 8]]],
  ["f(x for x in y, 1)", [["generator expression must be parenthesized", 2, 14]]],
  ["f(1, x for x in y)", [["generator expression must be parenthesized", 5, 17]]],
  ["f(x for x in y,)", [["generator expression must be parenthesized", 2, 14]]],
  ["f(a=1, 2)", [["positional argument follows keyword argument", 7, 8]]],
  ["f(a=1, a=2)", [["keyword argument repeated: 'a'", 7, 10]]],
  ["f(a=1, b=2, a=(3))", [["keyword argument repeated: 'a'", 12, 17]]],
  // `$`
  ["$", [["'$' must be followed by '.'", 0, 1]]],
  ["x == $ ", [["'$' must be followed by '.'", 5, 6]]],
];

describe("EXPR-SYNTAX details", () => {
  for (const [source, expected] of ROWS) {
    it(JSON.stringify(source), () => {
      const result = parseExpression(source);
      expect(details(source)).toEqual(expected);
      for (const d of result.diagnostics) expect(d.code).toBe("EXPR-SYNTAX");
    });
  }
});

describe("recovery: several errors, each located", () => {
  it("keeps going inside brackets", () => {
    expect(details("f(1 +, 2 +)")).toEqual([
      ["unexpected ','", 5, 6],
      ["unexpected ')'", 10, 11],
    ]);
    expect(details("[1 *, 2, 3 -]")).toEqual([
      ["unexpected ','", 4, 5],
      ["unexpected ']'", 12, 13],
    ]);
  });
  it("reports lexical and grammatical errors together", () => {
    expect(details("f(012, 'a\\x1', 1 +)")).toEqual([
      ["invalid number literal '012'", 2, 5],
      ["invalid escape sequence '\\x1'", 9, 12],
      ["unexpected ')'", 18, 19],
    ]);
    expect(details("{1, 2} == a ** 2")).toEqual([
      ["set displays are not supported", 0, 6],
      ["'**' is not supported", 12, 14],
    ]);
  });
  it("leaves holes in a partial tree", () => {
    const r = parseExpression("f(1 +, 2)");
    expect(r.expr?.kind).toBe("Call");
    if (r.expr?.kind === "Call") {
      expect(r.expr.args.map((a) => a.kind)).toEqual(["Error", "Constant"]);
    }
  });
});
