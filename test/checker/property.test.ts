import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkExpression, type ExprCheckResult } from "../../checker/expr/check-expression";
import { MESSAGES } from "../../checker/messages";
import { accumulateEnv, ensureEnv, exitEnv, genericEnv, skipIfEnv } from "./fixtures";

const ENVS = [ensureEnv, skipIfEnv, exitEnv, accumulateEnv, genericEnv];

const TOKENS = [
  "result",
  "item",
  "x",
  "len",
  "sorted",
  "max",
  "str",
  "int",
  "dry_streak",
  "accumulator",
  "f",
  "k",
  "v",
  ".summary",
  ".score",
  ".findings",
  ".tags",
  ".status",
  ".meta",
  ".lower",
  ".get",
  ".items",
  ".__class__",
  ".nope",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  "=",
  ".",
  "+",
  "-",
  "*",
  "/",
  "//",
  "%",
  "==",
  "!=",
  "<",
  ">=",
  " and ",
  " or ",
  "not ",
  " in ",
  " not in ",
  " is ",
  " is not ",
  " if ",
  " else ",
  " for ",
  " for f in ",
  "0",
  "1",
  "-1",
  "2.5",
  "'a'",
  "'low'",
  '"x"',
  "None",
  "True",
  "[]",
  "{}",
  "()",
  "$.input.n",
  "$.steps.review.output",
  "$.steps.x",
  "$.",
  "$",
  "#c\n",
  "\\",
  "'",
  "lambda",
  "**",
  "😀",
];

const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((ts) => ts.join(""));

function checkInvariants(text: string, r: ExprCheckResult): void {
  for (const d of r.diagnostics) {
    expect(d.start).toBeGreaterThanOrEqual(0);
    expect(d.end).toBeGreaterThanOrEqual(d.start);
    expect(d.end).toBeLessThanOrEqual(text.length);
    expect(Object.hasOwn(MESSAGES, d.code)).toBe(true);
    expect(d.severity).toBe(MESSAGES[d.code as keyof typeof MESSAGES].severity);
    expect(d.message.length).toBeGreaterThan(0);
    for (const e of d.fix?.edits ?? []) {
      expect(e.start).toBeGreaterThanOrEqual(0);
      expect(e.end).toBeLessThanOrEqual(text.length);
    }
  }
}

describe("checkExpression on arbitrary input", () => {
  it("never throws and keeps every range inside the text (arbitrary strings)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), fc.constantFrom(...ENVS), (text, env) => {
        checkInvariants(text, checkExpression(text, env));
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws and keeps every range inside the text (token soup)", () => {
    fc.assert(
      fc.property(tokenSoup, fc.constantFrom(...ENVS), (text, env) => {
        checkInvariants(text, checkExpression(text, env));
      }),
      { numRuns: 3000 },
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(tokenSoup, (text) => {
        const a = checkExpression(text, ensureEnv).diagnostics;
        const b = checkExpression(text, ensureEnv).diagnostics;
        expect(b).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });
});
