// Long chains evaluate without recursion proportional to their length (docs/reference/language.md §10.15).
import { describe, expect, it } from "vitest";
import type { Expr } from "../../../grammar/ast";
import { compileExpression } from "../../../interpreter/eval/compile";
import { evaluate } from "../../../interpreter/eval/evaluate";
import { PyError } from "../../../stdlib/values/errors";
import { repr } from "../../../stdlib/values/repr";
import { PyDict, PyNamespace } from "../../../stdlib/values/value";
import { run } from "./support";

const N = 5000;
const span = { start: 0, end: 0 };

/** `count` copies of `term` joined by `sep` (the whole text stays within the 10,000 limit). */
function chain(term: string, sep: string, count: number): string {
  return new Array(count).fill(term).join(sep);
}

describe("long chains (parsed, at the 10,000-character limit)", () => {
  it.each([
    ["5,000-term +", chain("1", "+", N), `${N}`],
    ["5,000-term -", chain("1", "-", N), `${2 - N}`],
    ["5,000-term *", chain("1", "*", N), "1"],
    ["5,000-term / and *", `1${"/1*1".repeat(2499)}`, "1.0"],
    ["3,333-term //", chain("1", "//", 3333), "1"],
    ["1,666-term and", chain("1", " and ", 1666), "1"],
    ["1,666-term or", `${chain("0", " or ", 1665)} or 7`, "7"],
    ["3,333-term ==", chain("1", "==", 3333), "True"],
    ["3,333-term <= ending false", `${chain("1", "<=", 3332)}<=0`, "False"],
  ])("%s", (_label, text, expected) => {
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(run(text, { budget: 10 * N })).toBe(expected);
  });
});

describe("chains built by hand", () => {
  it("evaluates a left-nested BinOp spine of 100,000 nodes", () => {
    let e: Expr = { kind: "Constant", value: 1, ...span };
    for (let i = 0; i < 100_000; i++) {
      e = {
        kind: "BinOp",
        op: "+",
        opSpan: span,
        left: e,
        right: { kind: "Constant", value: 1, ...span },
        ...span,
      };
    }
    expect(repr(evaluate(compileExpression(e), new Map()))).toBe("100001");
  });

  it("evaluates a 5,000-long attribute chain", () => {
    const d = new PyDict();
    d.entries.set("a", ["a", d]); // a self-referential dict: d.a is d
    d.entries.set("v", ["v", 42]);
    let e: Expr = { kind: "Name", id: "x", ...span };
    for (let i = 0; i < N; i++) e = { kind: "Attribute", value: e, attr: "a", attrSpan: span, ...span };
    e = { kind: "Attribute", value: e, attr: "v", attrSpan: span, ...span };
    const names = new Map([["x", new PyNamespace(d)]]);
    expect(evaluate(compileExpression(e), names)).toBe(42);
  });
});

describe("host limits", () => {
  it("turns a JS stack overflow (a hand-built AST far deeper than the parser allows) into a PyError", () => {
    let e: Expr = { kind: "Constant", value: 1, ...span };
    for (let i = 0; i < 300_000; i++) e = { kind: "UnaryOp", op: "not", operand: e, ...span };
    const compiled = compileExpression(e);
    let caught: unknown = null;
    try {
      evaluate(compiled, new Map());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PyError);
    expect((caught as PyError).kind).toBe("BudgetExceeded");
    expect((caught as PyError).message).toMatch(/^expression exceeded an evaluation limit/);
  });
});
