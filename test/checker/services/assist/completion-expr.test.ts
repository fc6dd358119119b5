// Completion inside expression strings: names per position, `result.` fields with their types,
// methods by static type, `$` paths, comprehension variables; every scalar style and incomplete
// text.
import { describe, expect, test } from "vitest";
import { completionsAt } from "../../../../checker/services/assist";
import { docAt, docWithRanges, HEAD, item, labels } from "./support";

const FLOW = `flows:
  main:
    input:
      repo: {type: string}
      depth: {type: integer}
    steps:
      - id: plan
        intent: "Plan it"
        output_contract: Plan
      - id: check
        intent: "Check it"
        output_contract: Review
        depends_on: [plan]
`;

const BUILTIN_NAMES = [
  "len",
  "bool",
  "int",
  "float",
  "str",
  "min",
  "max",
  "any",
  "all",
  "sum",
  "abs",
  "round",
  "sorted",
  "file_exists",
  "file_contains",
  "no_file_conflicts",
  "plan_completion",
  "vocabulary_compliance",
];

describe("result fields and methods", () => {
  test("`result.` in a double-quoted ensure: the contract's fields with types, then mapping methods", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.<|>"\n`);
    const items = completionsAt(doc, offset);
    expect(items.map((i) => [i.label, i.kind, i.detail])).toEqual([
      ["verdict", "field", "str{'pass','fail'}"],
      ["score", "field", "int | float"],
      ["notes", "field", "list[str]"],
      ["get", "method", "dict.get(key, default=None, /)"],
      ["keys", "method", "dict.keys() -> dict_keys"],
      ["values", "method", "dict.values() -> dict_values"],
      ["items", "method", "dict.items() -> dict_items"],
    ]);
    expect(item(items, "verdict")?.documentation).toBe(
      "Field `verdict` of contract `Review` (`type: string`).",
    );
    expect(items.every((i) => i.replace?.start === offset && i.replace.end === offset)).toBe(true);
  });

  test("a partial field name inside a complete expression is replaced whole", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}        ensure:\n          - "len(result.«no<|>tes») > 0"\n`,
    );
    const items = completionsAt(doc, offset);
    expect(labels(items).slice(0, 3)).toEqual(["verdict", "score", "notes"]);
    expect(item(items, "notes")?.replace).toEqual(ranges[0]);
  });

  test("methods by static type: str after a string field, list after a list field", () => {
    const a = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.verdict.<|>"\n`);
    expect(labels(completionsAt(a.doc, a.offset))).toEqual([
      "startswith",
      "endswith",
      "lower",
      "upper",
      "strip",
      "lstrip",
      "rstrip",
      "split",
      "join",
      "replace",
      "count",
      "find",
      "isdigit",
      "isalpha",
      "isalnum",
      "isspace",
    ]);
    const b = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.notes.<|> and True"\n`);
    const items = completionsAt(b.doc, b.offset);
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ["count", "list.count(x, /) -> int"],
      ["index", "list.index(x, start=0, end=len, /) -> int"],
    ]);
  });

  test("comprehension variables are in scope with their element type", () => {
    const { doc, offset } = docAt(
      `${HEAD}${FLOW}        ensure:\n          - "all(n.<|> for n in result.notes)"\n`,
    );
    expect(labels(completionsAt(doc, offset))).toContain("startswith");
    const names = docAt(`${HEAD}${FLOW}        ensure:\n          - "[<|> for note in result.notes]"\n`);
    const items = completionsAt(names.doc, names.offset);
    expect(items[0]).toMatchObject({ label: "note", kind: "variable", detail: "str" });
  });
});

describe("names in scope per position", () => {
  test("ensure: result, builtins with signatures, literals", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        ensure:\n          - "<|>"\n`);
    const items = completionsAt(doc, offset);
    expect(labels(items)).toEqual(["result", ...BUILTIN_NAMES, "True", "False", "None", "not"]);
    expect(item(items, "result")).toMatchObject({ kind: "variable", detail: "ns[Review]" });
    expect(item(items, "sorted")).toMatchObject({
      kind: "builtin",
      detail: "sorted(iterable, /, *, reverse=False) -> list",
    });
  });

  test("skip_if has no result; exit_criterion of an accumulating step has the accumulator names", () => {
    const a = docAt(`${HEAD}${FLOW}        skip_if: <|>\n`);
    expect(labels(completionsAt(a.doc, a.offset))).not.toContain("result");
    const b = docAt(`${HEAD}${FLOW}        max_iterations: 3
        accumulate: "result.notes"
        accumulate_key: "it<|>"
        exit_criterion: "dry_streak >= 2"
`);
    const key = completionsAt(b.doc, b.offset);
    expect(item(key, "item")).toMatchObject({ kind: "variable", detail: "str" });
    expect(labels(key)).not.toContain("result");
    const c = docAt(`${HEAD}${FLOW}        max_iterations: 3
        accumulate: "result.notes"
        exit_criterion: "new_count == 0 or <|>"
`);
    expect(
      completionsAt(c.doc, c.offset)
        .map((i) => [i.label, i.detail])
        .slice(0, 5),
    ).toEqual([
      ["result", "ns[Review]"],
      ["accumulator", "list[str]"],
      ["accumulated_count", "int"],
      ["new_count", "int | none"],
      ["dry_streak", "int"],
    ]);
  });

  test("score_expr sees result; the exit_criterion next to it has best_score, prior_scores, iteration", () => {
    const a = docAt(`${HEAD}${FLOW}        max_iterations: 3
        score_expr: "len(<|>)"
`);
    expect(item(completionsAt(a.doc, a.offset), "result")).toMatchObject({
      kind: "variable",
      detail: "ns[Review]",
    });
    const b = docAt(`${HEAD}${FLOW}        max_iterations: 3
        score_expr: "len(result.notes)"
        exit_criterion: "<|>"
`);
    const names = completionsAt(b.doc, b.offset).map((i) => [i.label, i.detail]);
    expect(names.slice(0, 4)).toEqual([
      ["result", "ns[Review]"],
      ["best_score", "float | none"],
      ["prior_scores", "list[float]"],
      ["iteration", "int"],
    ]);
    const c = docAt(`${HEAD}${FLOW}        max_iterations: 3
        exit_criterion: "<|>"
`);
    expect(labels(completionsAt(c.doc, c.offset))).not.toContain("best_score");
  });

  test("nothing inside a string literal or after a number", () => {
    const a = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.verdict == 'pa<|>ss'"\n`);
    expect(completionsAt(a.doc, a.offset)).toEqual([]);
    const b = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.score > 0.<|>"\n`);
    expect(completionsAt(b.doc, b.offset)).toEqual([]);
  });
});

describe("$ paths", () => {
  test("`$.steps.` in a folded block scalar: the other steps", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        skip_if: >-
          len($.steps.<|>) > 0
`);
    const items = completionsAt(doc, offset);
    expect(items.map((i) => [i.label, i.kind, i.detail])).toEqual([["plan", "step", "inline step"]]);
    expect(items[0]?.replace).toEqual({ start: offset, end: offset });
  });

  test("`$.steps.<id>.` → output; `$.steps.<id>.output.` → the output's fields", () => {
    const a = docAt(`${HEAD}${FLOW}        skip_if: "$.steps.plan.<|>"\n`);
    expect(labels(completionsAt(a.doc, a.offset))).toEqual(["output"]);
    const b = docAt(`${HEAD}${FLOW}        skip_if: "len($.steps.plan.output.<|>"\n`);
    expect(completionsAt(b.doc, b.offset).map((i) => [i.label, i.detail])).toEqual([["steps", "list[str]"]]);
  });

  test("`$.input.` → the flow's inputs with their declared types; `$.` → input and steps", () => {
    const a = docAt(`${HEAD}${FLOW}        skip_if: "$.input.<|> == 'x'"\n`);
    expect(completionsAt(a.doc, a.offset).map((i) => [i.label, i.detail])).toEqual([
      ["repo", "str | none"],
      ["depth", "int | none"],
    ]);
    const b = docAt(`${HEAD}${FLOW}        skip_if: "$.<|>"\n`);
    expect(labels(completionsAt(b.doc, b.offset))).toEqual(["input", "steps"]);
  });

  test("step input values: whole references when empty, segments after `$.`", () => {
    const a = docAt(`${HEAD}${FLOW}        inputs:\n          x: <|>\n`);
    expect(labels(completionsAt(a.doc, a.offset))).toEqual([
      "$.input.repo",
      "$.input.depth",
      "$.steps.plan.output",
    ]);
    const b = docAt(`${HEAD}${FLOW}        inputs:\n          x: "$.steps.plan.output.<|>"\n`);
    expect(labels(completionsAt(b.doc, b.offset))).toEqual(["steps"]);
  });
});

describe("scalar styles", () => {
  test("double-quoted with escapes: the replace range is mapped back into the file", () => {
    const { doc, offset, ranges } = docWithRanges(
      `${HEAD}${FLOW}        ensure:\n          - "result.verdict != \\"x\\" and result.«sc<|>»"\n`,
    );
    const items = completionsAt(doc, offset);
    expect(labels(items).slice(0, 3)).toEqual(["verdict", "score", "notes"]);
    expect(item(items, "score")?.replace).toEqual(ranges[0]);
  });

  test("literal block scalar on its second line", () => {
    const { doc, offset, ranges } = docWithRanges(`${HEAD}${FLOW}        ensure:
          - |
            result.score > 0 and
            result.«ver<|>»
`);
    expect(item(completionsAt(doc, offset), "verdict")?.replace).toEqual(ranges[0]);
  });

  test("a function's ensure sees the function's output contract", () => {
    const { doc, offset } = docAt(`version: "0.2"
contracts:
  Out:
    ok: {type: boolean}
functions:
  f:
    mode: compute
    output: Out
    ensure: ["result.<|>"]
`);
    expect(completionsAt(doc, offset)[0]).toMatchObject({ label: "ok", detail: "bool" });
  });
});

describe("documents being typed", () => {
  test("an unterminated double-quoted expression (YAML broken): completion from the recovered tree", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        ensure:\n          - "result.<|>\n`);
    expect(doc.check.model).toBeNull();
    expect(labels(completionsAt(doc, offset)).slice(0, 3)).toEqual(["verdict", "score", "notes"]);
  });

  test("a key typed without its value yet (YAML broken) and `$.steps.` in the same document", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        skip_if: "$.steps.<|>"
        retr
`);
    expect(doc.check.model).toBeNull();
    expect(labels(completionsAt(doc, offset))).toEqual(["plan"]);
  });
});
