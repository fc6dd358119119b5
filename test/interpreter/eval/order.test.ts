// Evaluation order and short-circuiting (docs/reference/language.md §10.8, docs/reference/language.md §10.8.6, docs/reference/language.md §10.8.7, docs/reference/language.md §10.8.10), observed
// through a path source that records every `$.input.<name>` read.
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../../grammar/parse";
import { compileExpression } from "../../../interpreter/eval/compile";
import { evaluate } from "../../../interpreter/eval/evaluate";
import { PyError } from "../../../stdlib/values/errors";
import { parseJson } from "../../../stdlib/values/json";
import { repr } from "../../../stdlib/values/repr";
import type { PyValue } from "../../../stdlib/values/value";

const INPUTS: Record<string, string> = {
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  t: "true",
  f: "false",
  s: '"s"',
  l: "[1, 2]",
  m: "[7, 8, 9]",
  d: '{"k": 1}',
};

/** Evaluates `text`, returning the outcome and the order in which inputs were read. */
function trace(text: string): { outcome: string; reads: string[] } {
  const reads: string[] = [];
  const paths = {
    input(name: string): PyValue | undefined {
      reads.push(name);
      const json = INPUTS[name];
      return json === undefined ? undefined : parseJson(json);
    },
    stepOutput: () => undefined,
  };
  const parsed = parseExpression(text);
  if (parsed.expr === null) throw new Error(`does not parse: ${text}`);
  const compiled = compileExpression(parsed.expr);
  try {
    return { outcome: repr(evaluate(compiled, new Map(), { paths })), reads };
  } catch (e) {
    if (e instanceof PyError) return { outcome: `${e.kind}: ${e.message}`, reads };
    throw e;
  }
}

describe("left-to-right order", () => {
  it.each([
    ["$.input.one + $.input.two * $.input.three", ["one", "two", "three"]],
    ["$.input.one - $.input.two - $.input.three", ["one", "two", "three"]],
    ["[$.input.one, ($.input.two, $.input.three)]", ["one", "two", "three"]],
    ["{$.input.s: $.input.one, $.input.two: $.input.three}", ["s", "one", "two", "three"]],
    ["$.input.l[$.input.zero]", ["l", "zero"]],
    ["$.input.l[$.input.zero:$.input.one:$.input.one]", ["l", "zero", "one", "one"]],
    ["max($.input.one, $.input.two, default=$.input.three)", ["one", "two", "three"]],
    ["$.input.s.startswith($.input.s, $.input.zero)", ["s", "s", "zero"]],
    ["-$.input.one < $.input.two", ["one", "two"]],
  ])("%s", (text, reads) => {
    expect(trace(text).reads).toEqual(reads);
  });

  it("raises the error of the leftmost failing operand", () => {
    expect(trace("($.input.zero).x + 1 / $.input.zero").outcome).toBe(
      "AttributeError: 'int' object has no attribute 'x'",
    );
    expect(trace("[1 / $.input.zero, ($.input.zero).x]").outcome).toBe("ZeroDivisionError: division by zero");
    expect(trace("{$.input.l: 1 / $.input.zero}").outcome).toBe("ZeroDivisionError: division by zero");
    expect(trace("($.input.zero).upper(1 / $.input.zero)").outcome).toBe(
      "AttributeError: 'int' object has no attribute 'upper'",
    );
    expect(trace("$.input.s.upper(1 / $.input.zero)").outcome).toBe("ZeroDivisionError: division by zero");
  });
});

describe("short-circuit and the conditional", () => {
  it.each([
    ["$.input.zero and $.input.one", "0", ["zero"]],
    ["$.input.one and $.input.two and $.input.three", "3", ["one", "two", "three"]],
    ["$.input.one and $.input.zero and $.input.three", "0", ["one", "zero"]],
    ["$.input.one or $.input.two", "1", ["one"]],
    ["$.input.zero or $.input.f or $.input.s", "'s'", ["zero", "f", "s"]],
    ["$.input.one if $.input.t else $.input.two", "1", ["t", "one"]],
    ["$.input.one if $.input.f else $.input.two", "2", ["f", "two"]],
    ["$.input.three < $.input.one < $.input.two", "False", ["three", "one"]],
    ["$.input.one < $.input.two < $.input.three", "True", ["one", "two", "three"]],
    [
      "$.input.one < $.input.two > $.input.s",
      "TypeError: '>' not supported between instances of 'int' and 'str'",
      ["one", "two", "s"],
    ],
    ["$.input.one in $.input.l in $.input.m", "False", ["one", "l", "m"]],
  ])("%s", (text, outcome, reads) => {
    expect(trace(text)).toEqual({ outcome, reads });
  });
});

describe("comprehensions and generators", () => {
  it("evaluates the first iterable once and inner iterables once per outer element", () => {
    const r = trace("[(x, y) for x in $.input.l for y in $.input.d]");
    expect(r.outcome).toBe("[(1, 'k'), (2, 'k')]");
    expect(r.reads).toEqual(["l", "d", "d"]);
  });

  it("evaluates conditions per element, and inner iterables only for elements that pass", () => {
    const r = trace("[y for x in $.input.m if x > $.input.one * 8 for y in $.input.l]");
    expect(r.outcome).toBe("[1, 2]");
    expect(r.reads).toEqual(["m", "one", "one", "one", "l"]);
  });

  it("creates a generator without evaluating anything but its first iterable", () => {
    const r = trace("(x + $.input.one for x in $.input.l for y in $.input.m)");
    expect(r.outcome).toBe("<generator object <genexpr>>");
    expect(r.reads).toEqual(["l"]);
  });

  it("stops consuming a generator at the first decisive element (any/all)", () => {
    const any = trace("any(x > $.input.one for x in $.input.m)");
    expect(any).toEqual({ outcome: "True", reads: ["m", "one"] });
    const all = trace("all(x < $.input.three for x in $.input.l + [5, 'a'])");
    expect(all).toEqual({ outcome: "False", reads: ["l", "three", "three", "three"] });
  });
});
