// Hover: types of sub-expressions (exact ranges in every scalar style), fields, builtins, methods,
// `$` paths, step/function/contract summaries and key descriptions.
import { describe, expect, test } from "vitest";
import { hoverAt } from "../../../../checker/services/assist";
import { docAt, docWithRanges, HEAD } from "./support";

const FLOW = `flows:
  main:
    input:
      repo: {type: string}
    steps:
      - id: plan
        intent: "Plan it"
        output_contract: Plan
      - id: check
        function: review
        depends_on: [plan]
        inputs:
          diff: "$.input.repo"
`;

const INLINE = `      - id: final
        intent: "Finish"
        output_contract: Review
        depends_on: [check]
`;

describe("expressions", () => {
  test("a field access: the field's type and contract, over the attribute name", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "result.«ver<|>dict» == 'pass'"\n`,
    );
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "```\n(field) Review.verdict: str{'pass','fail'}\n```\n\nField `verdict` of contract `Review` (`type: string`).",
      range: ranges[0],
    });
  });

  test("the innermost sub-expression: a call's type over its whole span", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "«len(result.notes<|>)» > 0"\n`,
    );
    expect(hoverAt(doc, offset)).toEqual({ contents: "```\nlen(result.notes): int\n```", range: ranges[0] });
  });

  test("a builtin: its signature and doc", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "«so<|>rted»(result.notes) == result.notes"\n`,
    );
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "```\nsorted(iterable, /, *, reverse=False) -> list\n```\n\nA new list of the elements in ascending order (descending with reverse=True); stable.",
      range: ranges[0],
    });
  });

  test("a method by the receiver's type", () => {
    const { doc, offset } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "result.verdict.st<|>rip() != ''"\n`,
    );
    expect(hoverAt(doc, offset)?.contents).toBe(
      "```\nstr.strip(chars=None, /) -> str\n```\n\nThe string with leading and trailing characters in chars removed (Unicode whitespace when chars is None).",
    );
  });

  test("result itself: the namespace type and what it is", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "«res<|>ult».score > 0"\n`,
    );
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "```\n(parameter) result: ns[Review]\n```\n\nThe step's result: its fields are the output contract's fields (and output_schema properties).",
      range: ranges[0],
    });
  });

  test("a `$.steps` path in a folded block scalar: its type, and the step's summary on the id", () => {
    const { doc, offset, ranges } = docWithRanges(`${HEAD}${FLOW}${INLINE}        skip_if: >-
          len(«$.steps.pl<|>an.output.steps») == 0
`);
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "```\n$.steps.plan.output.steps: list[str] | none\n```\n\n**step `plan`** — inline step in flow `main`\n\n- `intent`: Plan it\n- `output_contract`: Plan",
      range: ranges[0],
    });
  });

  test("a double-quoted scalar with escapes: ranges are mapped to the source text", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "result.verdict != \\"a\\" and result.«sc<|>ore»"\n`,
    );
    expect(hoverAt(doc, offset)?.range).toEqual(ranges[0]);
    const field = docWithRanges(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "«'\\u00e9<|>'» in result.notes"\n`,
    );
    expect(hoverAt(field.doc, field.offset)).toEqual({
      contents: "```\n'é': str\n```",
      range: field.ranges[0],
    });
  });

  test("an incomplete expression still hovers what parses", () => {
    const { doc, offset } = docAt(
      `${HEAD}${FLOW}${INLINE}        ensure:\n          - "len(res<|>ult.notes"\n`,
    );
    expect(hoverAt(doc, offset)?.contents).toContain("(parameter) result: ns[Review]");
  });
});

describe("the YAML structure", () => {
  test("a step id in depends_on: the step's summary", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}${INLINE}`.replace("depends_on: [check]", "depends_on: [«ch<|>eck»]"),
    );
    expect(hoverAt(doc, offset)).toEqual({
      contents:
        "**step `check`** — function step → review in flow `main`\n\n- `function`: review\n- `depends_on`: ['plan']\n- `inputs`: diff",
      range: ranges[0],
    });
  });

  test("a function name value: the function's summary", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}`.replace("function: review", "function: rev<|>iew"));
    expect(hoverAt(doc, offset)?.contents).toBe(
      "**function `review`**\n\n- `mode`: infer\n- `intent`: Review the change\n- `output`: Review\n- `input`: diff, focus",
    );
  });

  test("a contract field key: its checker type", () => {
    const { doc, offset, ranges } = docWithRanges(`${HEAD}${FLOW}`.replace("    score:", "    «sc<|>ore»:"));
    expect(hoverAt(doc, offset)).toEqual({
      contents: "```\nReview.score: int | float\n```\n\nField `score` of contract `Review` (`type: number`).",
      range: ranges[0],
    });
  });

  test("a schema key: its value kind and description", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}`.replace("depends_on: [plan]", "depends_<|>on: [plan]"));
    expect(hoverAt(doc, offset)?.contents).toBe(
      "```\ndepends_on: list of strings\n```\n\nIds of steps of the same flow that must run first.",
    );
  });

  test("score_expr: its description", () => {
    const text = `${HEAD}${FLOW}        max_iterations: 3\n        score_<|>expr: "len(result.notes)"\n`;
    const { doc, offset } = docAt(text);
    expect(hoverAt(doc, offset)?.contents).toBe(
      "```\nscore_expr: string\n```\n\nExpression over result giving a number: each iteration's score; the loop keeps the best-scored result. (since 0.2)",
    );
  });

  test("nothing on free text", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}`.replace('"Plan it"', '"Plan <|>it"'));
    expect(hoverAt(doc, offset)).toBeNull();
  });
});
