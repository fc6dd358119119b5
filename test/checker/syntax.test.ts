import { describe, expect, it } from "vitest";
import { checkExpression } from "../../checker/expr/check-expression";
import { ensureEnv, genericEnv, skipIfEnv } from "./fixtures";
import { runCases } from "./tester";

runCases("syntax diagnostics", ensureEnv, {
  valid: [],
  invalid: [
    {
      code: "result.x ===",
      errors: [
        {
          code: "EXPR-SYNTAX",
          at: "=",
          from: 11,
          message: "Cannot compile ensure expression 'result.x ===': unexpected '='",
        },
      ],
    },
    {
      code: "lambda: 1",
      errors: [
        {
          code: "EXPR-SYNTAX",
          at: "lambda",
          message: "Cannot compile ensure expression 'lambda: 1': 'lambda' is not supported",
        },
      ],
    },
    // A syntax error stops the checks: the unknown name is not reported.
    {
      code: "nope + (",
      errors: [
        {
          code: "EXPR-SYNTAX",
          at: "(",
          message: "Cannot compile ensure expression 'nope + (': '(' was never closed",
        },
      ],
    },
  ],
});

describe("syntax diagnostic messages", () => {
  it("omits the kind in a generic environment", () => {
    const r = checkExpression("1 +", genericEnv);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "Cannot compile expression '1 +': unexpected end of expression",
    ]);
    expect(r.diagnostics[0]).toMatchObject({ start: 3, end: 3, severity: "error" });
    expect(r.type).toEqual({ k: "any" });
    expect(r.types.size).toBe(0);
  });

  it("quotes the expression as Python's repr", () => {
    const r = checkExpression("x == 'it''s", skipIfEnv);
    expect(r.diagnostics[0]?.message.startsWith(`Cannot compile skip_if expression "x == 'it''s": `)).toBe(
      true,
    );
  });

  it("reports EXPR-TOO-LONG", () => {
    const text = `${"1 + ".repeat(2500)}1`;
    const r = checkExpression(text, ensureEnv);
    expect(r.diagnostics.map((d) => [d.code, d.message, d.start, d.end])).toEqual([
      [
        "EXPR-TOO-LONG",
        "ensure expression is too long (10001 characters; the limit is 10000)",
        0,
        text.length,
      ],
    ]);
    expect(checkExpression(text, genericEnv).diagnostics[0]?.message).toBe(
      "Expression is too long (10001 characters; the limit is 10000)",
    );
  });

  it("reports EXPR-TOO-DEEP", () => {
    const r = checkExpression(`${"(".repeat(150)}1${")".repeat(150)}`, ensureEnv);
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["EXPR-TOO-DEEP", "ensure expression is nested too deeply (the limit is 100 levels)"],
    ]);
  });
});

describe("long chains", () => {
  it("checks a long chain of binary operators without deep recursion", () => {
    const r = checkExpression(`${"result.score + ".repeat(600)}'x'`, ensureEnv);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["EXPR-TYPE"]);
  });

  it("checks a long attribute chain without deep recursion", () => {
    const r = checkExpression(`result.meta${".a".repeat(4900)}`, ensureEnv);
    expect(r.diagnostics).toEqual([]);
  });

  it("checks long boolean and comparison chains", () => {
    expect(checkExpression(Array(500).fill("result.approved").join(" and "), ensureEnv).diagnostics).toEqual(
      [],
    );
    expect(checkExpression(Array(2000).fill("1").join(" < "), ensureEnv).diagnostics).toEqual([]);
  });
});
