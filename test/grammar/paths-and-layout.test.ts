// `$` paths (docs/reference/language.md §10.5), whitespace/comment layout and other forms outside CPython's syntax.
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../grammar/parse";
import { formatExpr } from "./format-ast";

function ast(text: string): string {
  const r = parseExpression(text);
  expect(r.diagnostics).toEqual([]);
  return formatExpr(r.expr!);
}

describe("$ paths", () => {
  it("builds input and steps references with segment spans", () => {
    expect(parseExpression("$.input.name.a.b").expr).toEqual({
      kind: "Path",
      text: "$.input.name.a.b",
      start: 0,
      end: 16,
      ref: {
        scope: "input",
        name: { name: "name", start: 8, end: 12 },
        fields: [
          { name: "a", start: 13, end: 14 },
          { name: "b", start: 15, end: 16 },
        ],
      },
    });
    expect(parseExpression("x == $.steps.s1.output.0").expr).toMatchObject({
      comparators: [
        {
          kind: "Path",
          text: "$.steps.s1.output.0",
          start: 5,
          end: 24,
          ref: {
            scope: "steps",
            name: { name: "s1", start: 13, end: 15 },
            fields: [{ name: "0", start: 23, end: 24 }],
          },
        },
      ],
    });
  });

  it("leaves a called final segment out of the path", () => {
    expect(ast("$.input.name.upper() == 'BOB'")).toBe(
      "Cmp(Call(Attr(Path($.input.name)@0-12, upper)@0-18, [], [])@0-20, [==], [Const('BOB')@24-29])@0-29",
    );
    expect(ast("$.input.name.strip ()")).toBe("Call(Attr(Path($.input.name)@0-12, strip)@0-18, [], [])@0-21");
    expect(ast("$.steps.s.output.items.0")).toBe("Path($.steps.s.output.items.0)@0-24");
    expect(ast("len($.steps.s1.output.label)")).toBe(
      "Call(Name(len)@0-3, [Path($.steps.s1.output.label)@4-27], [])@0-28",
    );
  });

  it("keeps malformed paths as paths without a reference", () => {
    for (const text of [
      "$.",
      "$.foo",
      "$.input",
      "$.steps",
      "$.steps.a",
      "$.steps.a.result",
      "$.input..x",
      "$.input.x.",
    ]) {
      const r = parseExpression(text);
      expect(r.diagnostics).toEqual([]);
      expect(r.expr).toEqual({ kind: "Path", text, ref: null, start: 0, end: text.length });
    }
  });

  it("rejects a lone $", () => {
    expect(parseExpression("$ .input").diagnostics[0]).toEqual({
      code: "EXPR-SYNTAX",
      detail: "'$' must be followed by '.'",
      start: 0,
      end: 1,
    });
  });
});

describe("layout", () => {
  it("treats newlines as whitespace and # as a comment", () => {
    expect(ast("a and\n  b # why\n  and c")).toBe(
      "Bool(and, [Name(a)@0-1, Name(b)@8-9, Name(c)@22-23])@0-23",
    );
    expect(ast("  x  ")).toBe("Name(x)@2-3");
    expect(ast("f(\n1,\n2\n)")).toBe("Call(Name(f)@0-1, [Const(1)@3-4, Const(2)@6-7], [])@0-9");
  });
  it("reads `not in` and `is not` across whitespace and comments", () => {
    expect(ast("a not  # c\n in b")).toBe("Cmp(Name(a)@0-1, [not in], [Name(b)@15-16])@0-16");
    expect(ast("a is\nnot b")).toBe("Cmp(Name(a)@0-1, [is not], [Name(b)@9-10])@0-10");
    expect(ast("a is not_b")).toBe("Cmp(Name(a)@0-1, [is], [Name(not_b)@5-10])@0-10");
    expect(ast("not in_x")).toBe("Unary(not, Name(in_x)@4-8)@0-8");
  });
  it("records operator spans", () => {
    const r = parseExpression("a is  not b < c");
    expect(r.expr?.kind === "Compare" && r.expr.ops).toEqual([
      { op: "is not", span: { start: 2, end: 9 } },
      { op: "<", span: { start: 12, end: 13 } },
    ]);
    const b = parseExpression("a // b").expr;
    expect(b?.kind === "BinOp" && b.opSpan).toEqual({ start: 2, end: 4 });
    const at = parseExpression("x.name").expr;
    expect(at?.kind === "Attribute" && at.attrSpan).toEqual({ start: 2, end: 6 });
    const kw = parseExpression("f(key = 1)").expr;
    expect(kw?.kind === "Call" && kw.keywords[0]).toMatchObject({
      name: "key",
      nameSpan: { start: 2, end: 5 },
      start: 2,
      end: 9,
    });
  });
  it("uses UTF-16 offsets", () => {
    expect(ast("'😀' + x")).toBe("Bin(+, Const('😀')@0-4, Name(x)@7-8)@0-8");
  });
});
