import { describe, expect, it } from "vitest";
import { MESSAGES, malformedReferenceMessage } from "../../checker/messages";

const CODES = [
  "EXPR-SYNTAX",
  "EXPR-TOO-LONG",
  "EXPR-TOO-DEEP",
  "EXPR-DUNDER",
  "EXPR-UNKNOWN-NAME",
  "EXPR-NAME-UNAVAILABLE",
  "EXPR-UNKNOWN-FUNCTION",
  "EXPR-ARITY",
  "EXPR-UNKNOWN-FIELD",
  "EXPR-UNKNOWN-METHOD",
  "EXPR-TYPE",
  "EXPR-ENUM-VALUE",
  "EXPR-ACCUMULATE-NOT-LIST",
  "EXPR-SCORE-NOT-NUMBER",
  "EXPR-COMPARISON-CONSTANT",
  "EXPR-METHOD-NOT-CALLED",
  "EXPR-IS-LITERAL",
  "EXPR-LOWERCASE-LITERAL",
  "SPEC-REF-MALFORMED",
];
const WARNINGS = [
  "EXPR-COMPARISON-CONSTANT",
  "EXPR-METHOD-NOT-CALLED",
  "EXPR-IS-LITERAL",
  "EXPR-LOWERCASE-LITERAL",
];

describe("message catalogue", () => {
  it("has exactly the expression codes of docs/reference/language.md §9.5.5, with severities and docs", () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...CODES].sort());
    for (const [code, entry] of Object.entries(MESSAGES)) {
      expect(entry.severity).toBe(WARNINGS.includes(code) ? "warning" : "error");
      expect(entry.doc.length).toBeGreaterThan(40);
    }
  });

  it.each([
    ["$", "Empty $ reference: '$'"],
    ["$.", "Empty $ reference: '$.'"],
    ["$.input", "$.input requires a field name: '$.input'"],
    ["$.input.", "$.input requires a field name: '$.input.'"],
    ["$.steps", "$.steps requires $.steps.<id>.output: '$.steps'"],
    ["$.steps.x", "$.steps requires $.steps.<id>.output: '$.steps.x'"],
    ["$.steps.x.result", "Expected '$.steps.<id>.output[.<field>]', got '$.steps.x.result'"],
    ["$.foo", "Unknown $ prefix 'foo' in '$.foo'"],
    ["$5 budget", "Unknown $ prefix ' budget' in '$5 budget'"],
  ])("malformed reference %s", (ref, message) => {
    expect(malformedReferenceMessage(ref)).toBe(message);
  });

  it("formats the templates exactly", () => {
    expect(MESSAGES["EXPR-TYPE"].message("x")).toBe("x (this always fails at run time)");
    expect(MESSAGES["EXPR-DUNDER"].message("Step 's'", "exit_criterion")).toBe(
      "Step 's' exit_criterion must not contain dunder attributes",
    );
    expect(MESSAGES["EXPR-TOO-DEEP"].message("accumulate_key")).toBe(
      "accumulate_key expression is nested too deeply (the limit is 100 levels)",
    );
    expect(MESSAGES["EXPR-COMPARISON-CONSTANT"].message("!=", "str", "int")).toBe(
      "comparison is always True: str and int values are never equal",
    );
    expect(MESSAGES["EXPR-ACCUMULATE-NOT-LIST"].message("it's", "int")).toBe(
      `accumulate expression "it's" does not evaluate to a list (it evaluates to int)`,
    );
  });
});
