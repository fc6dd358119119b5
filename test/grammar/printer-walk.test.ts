// printExpr: canonical text with minimal parentheses; walk/forEachChild: order and depth safety.
import { describe, expect, it } from "vitest";
import type { Expr } from "../../grammar/ast";
import { parseExpression } from "../../grammar/parse";
import { printExpr } from "../../grammar/printer";
import { forEachChild, type Node, walk } from "../../grammar/walk";

function reprint(text: string): string {
  const r = parseExpression(text);
  expect(r.diagnostics).toEqual([]);
  return printExpr(r.expr!);
}

describe("printExpr", () => {
  it.each([
    ["a+b*c", "a + b * c"],
    ["(a+b)*c", "(a + b) * c"],
    ["a-(b-c)", "a - (b - c)"],
    ["(a-b)-c", "a - b - c"],
    ["-(a+b)", "-(a + b)"],
    ["- -x", "--x"],
    ["-(not x)", "-(not x)"],
    ["not (a and b)", "not (a and b)"],
    ["(a or b) or c", "(a or b) or c"],
    ["a or (b and c)", "a or b and c"],
    ["(a < b) < c", "(a < b) < c"],
    ["a<b<=c", "a < b <= c"],
    ["a not in b", "a not in b"],
    ["a is  not b", "a is not b"],
    ["(a if b else c) if d else e", "(a if b else c) if d else e"],
    ["a if b else (c if d else e)", "a if b else c if d else e"],
    ["[x for x in (a if b else c) if (d if e else f)]", "[x for x in (a if b else c) if (d if e else f)]"],
    ["f(x for x in y)", "f(x for x in y)"],
    ["f((x for x in y), 1)", "f((x for x in y), 1)"],
    ["f(a, k = 1)", "f(a, k=1)"],
    ["[k for k, v in d]", "[k for k, v in d]"],
    ["[k for (k, (v, w)) in d]", "[k for k, (v, w) in d]"],
    ["[k for [k] in d]", "[k for (k,) in d]"],
    ["(1).real", "(1).real"],
    ["(1.5).real", "(1.5).real"],
    ["1 .real", "(1).real"],
    ["x[1:2]", "x[1:2]"],
    ["x[::]", "x[:]"],
    ["x[::2]", "x[::2]"],
    ["{'a': [1, (2,)], 'b': ()}", "{'a': [1, (2,)], 'b': ()}"],
    ['"it\'s" "!"', '"it\'s!"'],
    ["'\\x00\\n\\u00e9'", "'\\x00\\né'"],
    ["1e400", "1e309"],
    ["1_000.50", "1000.5"],
    ["0x10", "16"],
    ["true and null", "True and None"],
    ["$.input.name.upper()", "$.input.name.upper()"],
    ["$.input.a .b", "($.input.a).b"],
    ["($.input.a)()", "($.input.a)()"],
    ["(a).b.c()[0]", "a.b.c()[0]"],
  ])("%s → %s", (source, expected) => {
    expect(reprint(source)).toBe(expected);
    expect(reprint(expected)).toBe(expected);
  });

  it("prints a 2,500-term chain and a 4,000-long attribute chain without deep recursion", () => {
    const sum = Array(2500).fill("1").join(" + ");
    expect(reprint(sum)).toBe(sum);
    const attrs = `a${".b".repeat(4000)}`;
    expect(reprint(attrs)).toBe(attrs);
  });
});

describe("walk and forEachChild", () => {
  it("visits children in source order", () => {
    const e = parseExpression("f(a, k=b)[c:d] if [x for (y, z) in w if v] else {p: q}").expr!;
    const names: string[] = [];
    walk(e, {
      enter(node) {
        if (node.kind === "Name") names.push(node.id);
        return true;
      },
    });
    expect(names).toEqual(["f", "a", "b", "c", "d", "x", "y", "z", "w", "v", "p", "q"]);
  });

  it("can skip subtrees and calls leave after children", () => {
    const e = parseExpression("g(h(x)) + y").expr!;
    const order: string[] = [];
    walk(e, {
      enter(node) {
        order.push(`>${node.kind}`);
        return node.kind !== "Call";
      },
      leave(node) {
        order.push(`<${node.kind}`);
      },
    });
    expect(order).toEqual([">BinOp", ">Call", ">Name", "<Name", "<BinOp"]);
  });

  it("lists the direct children of each node kind", () => {
    const kinds = (text: string): string[] => {
      const out: string[] = [];
      forEachChild(parseExpression(text).expr!, (c: Node) => out.push(c.kind));
      return out;
    };
    expect(kinds("a[1:2:3]")).toEqual(["Name", "Slice"]);
    expect(kinds("a < b < c")).toEqual(["Name", "Name", "Name"]);
    expect(kinds("{1: 2, 3: 4}")).toEqual(["Constant", "Constant", "Constant", "Constant"]);
    expect(kinds("x.y")).toEqual(["Name"]);
    expect(kinds("$.input.x")).toEqual([]);
  });

  it("walks a 5,000-deep BinOp spine iteratively", () => {
    const e: Expr = parseExpression(Array(5000).fill("x").join("-")).expr!;
    let count = 0;
    walk(e, {
      enter() {
        count++;
        return true;
      },
    });
    expect(count).toBe(9999);
  });
});
