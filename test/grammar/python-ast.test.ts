// Differential test: our AST (structure and offsets) against CPython 3.11's `ast` for expressions
// inside the Python subset (single-line ASCII, no `$` paths or true/false/null aliases).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../grammar/parse";
import { formatExpr, PYTHON_FORMATTER } from "./format-ast";

const EXPRESSIONS = [
  // atoms and literals
  "x",
  "_private_1",
  "0",
  "00",
  "0_0",
  "123",
  "1_000_000",
  "0x1F",
  "0X_ff",
  "0o17",
  "0b1010",
  "0b_1",
  "12345678901234567890123",
  "0xffffffffffffffffffff",
  "1.5",
  "1.",
  ".5",
  "1e10",
  "1E-3",
  "1.5e+300",
  "1e400",
  "1_0.2_5e1_0",
  "012.5",
  "0.1",
  "1e16",
  "123456789012345678.0",
  "'abc'",
  '"abc"',
  "'it''s'",
  "'a' 'b' \"c\"",
  "r'\\d+'",
  "R'a\\'b'",
  "u'x'",
  "'\\n\\t\\r\\\\\\'\\\"\\a\\b\\f\\v'",
  "'\\0\\12\\777\\1234'",
  "'\\x41\\u00e9\\U0001F600'",
  "'\\d\\q'",
  "True",
  "False",
  "None",
  "()",
  "(1,)",
  "(1, 2)",
  "(1, 2,)",
  "( 1 , )",
  "[]",
  "[1]",
  "[1, 2,]",
  "{}",
  "{'a': 1}",
  "{'a': 1, 'b': [2, 3],}",
  // operators and precedence
  "a + b * c",
  "(a + b) * c",
  "a - b - c",
  "a - (b - c)",
  "a / b // c % d",
  "-x * y",
  "- - x",
  "+x",
  "-(x)",
  "not a == b",
  "not not a",
  "a or b and c",
  "a and b and c",
  "a or b or c",
  "(a or b) or c",
  "a and (b and c)",
  "a and b or c and d",
  "a < b <= c",
  "(a < b) < c",
  "a == b != c > d >= e",
  "a in b",
  "a not in b",
  "a is b",
  "a is not b",
  "a is  not b",
  "a not  in b",
  "not a in b",
  "a if b else c",
  "a if b else c if d else e",
  "(a if b else c) if d else e",
  "a or b if c and d else e",
  "x if not y else -z",
  // trailers
  "a.b",
  "a.b.c",
  "f()",
  "f(x)",
  "f(x, y)",
  "f(x, y,)",
  "f(x, key=1)",
  "f(a=1, b=2)",
  "f(x)(y)",
  "a[0]",
  "a[0][1]",
  "a[-1]",
  "a[1:2]",
  "a[:]",
  "a[::]",
  "a[1:]",
  "a[:2]",
  "a[::2]",
  "a[1:2:3]",
  "a[ : : ]",
  "a[x if y else z]",
  "len(result.files_changed) > 0",
  "result.name.upper().startswith('A')",
  "(1).real",
  "(a).b",
  "((a)).b",
  // comprehensions
  "[x for x in y]",
  "[x for x in y if x]",
  "[x for x in y if x if not x]",
  "[x * y for x in a for y in b]",
  "[(k, v) for k, v in d.items()]",
  "[k for (k, v) in d]",
  "[k for [k, v] in d]",
  "[k for k, in d]",
  "[k for [k] in d]",
  "[a for ((a, b), c) in d]",
  "(x for x in y)",
  "any(x > 0 for x in v)",
  "any( x > 0 for x in v if x )",
  "sum((x for x in v), 0)",
  "[x for x in a or b]",
  "[x for x in y if a or b]",
  "sorted(v, key=None)",
  // spacing
  "a  +  b  ",
  "f ( x ) [ 0 ] . y",
  "a+b",
  "[1,2,3]",
];

function pythonFormat(exprs: readonly string[]): string[] {
  const run = spawnSync("python3", ["-c", PYTHON_FORMATTER], {
    input: JSON.stringify(exprs),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[];
}

describe("AST and offsets agree with CPython's ast module", () => {
  const expected = pythonFormat(EXPRESSIONS);
  EXPRESSIONS.forEach((src, i) => {
    it(src, () => {
      const result = parseExpression(src);
      expect(result.diagnostics).toEqual([]);
      expect(formatExpr(result.expr!)).toBe(expected[i]);
    });
  });
});
