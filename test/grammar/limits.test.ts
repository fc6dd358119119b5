// Length and nesting limits (docs/reference/language.md §10.15): a single located diagnostic, quickly, never a stack overflow.
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../grammar/parse";

function timed<T>(f: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
}

describe("EXPR-TOO-LONG", () => {
  it("accepts 10,000 code points and rejects 10,001 with one diagnostic over the whole text", () => {
    const ok = `1${"+1".repeat(4999)}`;
    expect(ok.length).toBe(9999);
    expect(parseExpression(ok).diagnostics).toEqual([]);
    expect(parseExpression(`'${"a".repeat(9998)}'`).diagnostics).toEqual([]);
    const long = "1".repeat(10_001);
    expect(parseExpression(long)).toEqual({
      expr: null,
      diagnostics: [{ code: "EXPR-TOO-LONG", length: 10_001, start: 0, end: 10_001 }],
    });
  });
  it("counts code points, not UTF-16 units", () => {
    const emoji = `'${"😀".repeat(9998)}'`;
    expect(emoji.length).toBe(19_998);
    expect(parseExpression(emoji).diagnostics).toEqual([]);
    const tooLong = `'${"😀".repeat(9999)}'`;
    expect(parseExpression(tooLong).diagnostics).toEqual([
      { code: "EXPR-TOO-LONG", length: 10_001, start: 0, end: tooLong.length },
    ]);
  });
});

describe("EXPR-TOO-DEEP", () => {
  const tooDeep = (text: string) =>
    parseExpression(text).diagnostics.filter((d) => d.code === "EXPR-TOO-DEEP");

  it("allows 100 levels and rejects 101 at the token that passes the limit", () => {
    expect(parseExpression(`${"(".repeat(100)}1${")".repeat(100)}`).diagnostics).toEqual([]);
    expect(parseExpression(`${"(".repeat(101)}1${")".repeat(101)}`)).toEqual({
      expr: null,
      diagnostics: [{ code: "EXPR-TOO-DEEP", start: 100, end: 101 }],
    });
    expect(parseExpression(`${"[".repeat(100)}${"]".repeat(100)}`).diagnostics).toEqual([]);
    expect(tooDeep(`${"[".repeat(101)}${"]".repeat(101)}`)).toEqual([
      { code: "EXPR-TOO-DEEP", start: 100, end: 101 },
    ]);
    expect(parseExpression(`${"-".repeat(100)}x`).diagnostics).toEqual([]);
    expect(tooDeep(`${"-".repeat(101)}x`)).toEqual([{ code: "EXPR-TOO-DEEP", start: 100, end: 101 }]);
    expect(parseExpression(`${"not ".repeat(100)}x`).diagnostics).toEqual([]);
    expect(tooDeep(`${"not ".repeat(101)}x`)).toEqual([{ code: "EXPR-TOO-DEEP", start: 400, end: 403 }]);
  });

  it("counts calls, subscripts and conditionals along a path", () => {
    expect(parseExpression(`a${"[0]".repeat(100)}`).diagnostics).toEqual([]);
    expect(tooDeep(`a${"[0]".repeat(101)}`)).toEqual([{ code: "EXPR-TOO-DEEP", start: 301, end: 302 }]);
    expect(parseExpression(`f${"()".repeat(100)}`).diagnostics).toEqual([]);
    expect(tooDeep(`f${"()".repeat(101)}`)).toHaveLength(1);
    const conditional = `${"a if b else ".repeat(100)}c`;
    expect(parseExpression(conditional).diagnostics).toEqual([]);
    expect(tooDeep(`${"a if b else ".repeat(101)}c`)).toEqual([
      { code: "EXPR-TOO-DEEP", start: 1202, end: 1204 },
    ]);
    // The body of a conditional is one level deeper than it looks while it is being parsed.
    const body = `${"(".repeat(100)}1${")".repeat(100)} if c else d`;
    expect(tooDeep(body)).toEqual([{ code: "EXPR-TOO-DEEP", start: 99, end: 100 }]);
    // So are the arguments of the first call of a chain.
    expect(tooDeep(`f((1))${"()".repeat(99)}`)).toEqual([{ code: "EXPR-TOO-DEEP", start: 2, end: 3 }]);
    expect(parseExpression(`f${"()".repeat(98)}((1))`).diagnostics).toEqual([]);
  });

  it("does not count operator chains", () => {
    expect(parseExpression(Array(5000).fill("1").join("+")).diagnostics).toEqual([]);
    expect(parseExpression(Array(1500).fill("a").join(" and ")).diagnostics).toEqual([]);
    expect(parseExpression(Array(3000).fill("a").join("<")).diagnostics).toEqual([]);
    expect(parseExpression(`a${".b".repeat(4000)}`).diagnostics).toEqual([]);
  });

  it("answers quickly for 10,000 parentheses or prefixes", () => {
    for (const text of [
      "(".repeat(10_000),
      `${"(".repeat(4999)}1${")".repeat(4999)}`,
      `${"not ".repeat(2499)}x`,
      `${"-".repeat(10_000)}`,
      `${"[".repeat(10_000)}`,
      `${"{".repeat(10_000)}`,
      `f${"(".repeat(9999)}`,
      `[x for ${"(".repeat(9990)}`,
    ]) {
      const { value, ms } = timed(() => parseExpression(text));
      expect(value.diagnostics).toHaveLength(1);
      expect(value.diagnostics[0]!.code).toBe("EXPR-TOO-DEEP");
      expect(ms).toBeLessThan(500);
    }
  });
});

describe("long chains", () => {
  it("parses a 5,000-term sum as a left-nested BinOp spine", () => {
    const r = parseExpression(Array(5000).fill("1").join("+"));
    let depth = 0;
    let e = r.expr;
    while (e?.kind === "BinOp") {
      depth++;
      e = e.left;
    }
    expect(depth).toBe(4999);
  });
  it("keeps boolean and comparison chains flat", () => {
    const and = parseExpression(Array(1000).fill("a").join(" and ")).expr;
    expect(and?.kind === "BoolOp" && and.values.length).toBe(1000);
    const cmp = parseExpression(Array(1000).fill("a").join(" < ")).expr;
    expect(cmp?.kind === "Compare" && cmp.comparators.length).toBe(999);
  });
});
