// Go to definition and find references: step ids (scoped to their flow) in every reference
// position, `$` paths in inputs and in expressions of every scalar style, functions, flows,
// contracts, flow inputs, a function's ensure used by several flows, and broken documents.
import { describe, expect, it } from "vitest";
import { definitionAt, referencesAt } from "../../../../checker/services/navigation";
import { cursor, markedDoc, show } from "./support";

const SPEC = `version: "0.2"
contracts:
  «Finding»:
    file: {type: string}
  Review:
    findings: {type: array, items: {type: Find<|>ing}}
    summary: {type: string}
functions:
  review_code:
    mode: infer
    intent: Review the code
    input: {}
    output: Review
flows:
  main:
    input:
      repo: {type: string}
    steps:
      - id: «scan»
        function: review_code
        inputs:
          repo: "$.input.repo"
      - id: fix
        intent: Fix what the review found
        inputs:
          findings: "$.steps.«scan».output.findings"
        depends_on: [«scan»]
        skip_if: "len($.steps.«\\x73can».output.findings) == 0"
        ensure:
          - |
            len($.steps.«scan».output.findings) >= 0
          - >-
            $.steps.«scan».output.summary
            != ''
      - id: last
        intent: Report
        inputs:
          summary: '$.steps.«sc<|>an».output.summary'
        depends_on:
          - «scan»
          - fix
`;

describe("definitionAt / referencesAt", () => {
  const m = markedDoc(SPEC);
  const { doc } = m;

  it("the spec checks clean", () => {
    expect(doc.check.errors).toEqual([]);
  });

  it("a contract named in items.type goes to the contract key", () => {
    expect(show(doc, definitionAt(doc, cursor(m, 0)))).toEqual(["3:Finding"]);
    expect(definitionAt(doc, cursor(m, 0))).toEqual([m.ranges[0]]);
  });

  it("a step id in a single-quoted input reference goes to the id value", () => {
    expect(definitionAt(doc, cursor(m, 1))).toEqual([m.ranges[1]]);
  });

  it("finds every reference of a step: inputs, depends_on (flow and block), double-quoted escapes, block scalars", () => {
    const refs = referencesAt(doc, cursor(m, 1), false);
    expect(refs).toEqual(m.ranges.slice(2));
    expect(show(doc, refs)).toEqual([
      "26:scan",
      "27:scan",
      "28:\\x73can",
      "31:scan",
      "33:scan",
      "38:scan",
      "40:scan",
    ]);
    expect(referencesAt(doc, cursor(m, 1), true)).toEqual(m.ranges.slice(1));
  });

  it("works from the definition and from the end of a name", () => {
    const def = m.ranges[1];
    if (def === undefined) throw new Error("range");
    expect(definitionAt(doc, def.start)).toEqual([def]);
    expect(definitionAt(doc, def.end)).toEqual([def]);
    expect(referencesAt(doc, def.end, true)).toEqual(m.ranges.slice(1));
  });

  it("a contract's references: function output and field types", () => {
    const review = markedDoc(SPEC.replace("  Review:\n", "  Rev<|>iew:\n"));
    expect(show(review.doc, referencesAt(review.doc, cursor(review, 0), true))).toEqual([
      "5:Review",
      "13:Review",
    ]);
  });

  it("nothing outside a name", () => {
    expect(definitionAt(doc, 0)).toEqual([]);
    expect(referencesAt(doc, 0, true)).toEqual([]);
  });
});

describe("functions, flows, inputs and the workflow", () => {
  const m = markedDoc(`version: "0.2"
workflow:
  name: «deploy»
  description: Deploy
  input:
    «target»: {type: string}
functions:
  «check»:
    mode: compute
    intent: Check
    output: Out
contracts:
  Out:
    ok: {type: boolean}
flows:
  «dep<|>loy»:
    input:
      «tar<|>get»: {type: string}
    steps:
      - id: first
        function: «ch<|>eck»
        inputs:
          where: "$.input.«target»"
      - id: child
        flow: «sub»
        inputs:
          «item»: "$.input.«target»"
        skip_if: "$.input.«target» == ''"
  «sub»:
    input:
      «it<|>em»: {type: string}
    steps:
      - id: one
        function: «check»
        inputs:
          thing: $.input.«item»
`);
  const { doc } = m;
  const texts = (offset: number, decl: boolean): string[] => show(doc, referencesAt(doc, offset, decl));

  it("the spec checks clean", () => {
    expect(doc.check.errors).toEqual([]);
  });

  it("a flow: its key, workflow.name (the entry flow)", () => {
    expect(texts(cursor(m, 0), true)).toEqual(["3:deploy", "16:deploy"]);
    expect(show(doc, definitionAt(doc, m.ranges[0]?.start ?? -1))).toEqual(["16:deploy"]);
  });

  it("a flow input: $.input paths of its flow, workflow.input keys of the entry flow", () => {
    expect(texts(cursor(m, 1), true)).toEqual([
      "6:target",
      "18:target",
      "23:target",
      "27:target",
      "28:target",
    ]);
  });

  it("a function: its key and the function values of steps", () => {
    expect(texts(cursor(m, 2), false)).toEqual(["21:check", "34:check"]);
    expect(show(doc, definitionAt(doc, cursor(m, 2)))).toEqual(["8:check"]);
  });

  it("a sub-flow's input: the input keys of steps running the flow", () => {
    expect(texts(cursor(m, 3), true)).toEqual(["27:item", "31:item", "36:item"]);
    expect(show(doc, referencesAt(doc, m.ranges[7]?.start ?? -1, true))).toEqual(["25:sub", "29:sub"]);
  });
});

describe("step ids are scoped to their flow; a function's ensure reads every using flow", () => {
  const m = markedDoc(`version: "0.2"
contracts:
  Out:
    ok: {type: boolean}
functions:
  work:
    mode: infer
    intent: Work
    output: Out
    ensure:
      - "$.steps.«prep».output.ok or True"
flows:
  a:
    input: {}
    steps:
      - id: «prep»
        intent: Prepare
        output_contract: Out
      - id: run
        function: work
        depends_on: [«pr<|>ep»]
  b:
    input: {}
    steps:
      - id: «prep»
        intent: Prepare
        output_contract: Out
      - id: run
        function: work
        depends_on: [prep]
`);
  const { doc } = m;

  it("the spec checks clean", () => {
    expect(doc.check.errors).toEqual([]);
  });

  it("a depends_on item names the step of its own flow only", () => {
    expect(show(doc, definitionAt(doc, cursor(m, 0)))).toEqual(["16:prep"]);
    expect(show(doc, referencesAt(doc, cursor(m, 0), true))).toEqual(["11:prep", "16:prep", "21:prep"]);
  });

  it("the path in the function's ensure goes to the step of each flow using the function", () => {
    const ensure = m.ranges[0]?.start ?? -1;
    expect(show(doc, definitionAt(doc, ensure))).toEqual(["16:prep", "25:prep"]);
    expect(show(doc, referencesAt(doc, ensure, false))).toEqual(["11:prep", "21:prep", "30:prep"]);
  });
});

describe("broken documents", () => {
  it("broken YAML: no model, so no navigation (and no exception)", () => {
    const m = markedDoc(
      `version: "0.2"\nflows:\n  main:\n    steps:\n      - id: a<|>\n        inputs: {x: [\n`,
    );
    expect(m.doc.check.model).toBeNull();
    expect(definitionAt(m.doc, cursor(m))).toEqual([]);
    expect(referencesAt(m.doc, cursor(m), true)).toEqual([]);
  });

  it("semantic errors: references to an unknown step are still found together, without a definition", () => {
    const m = markedDoc(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: A
        next: «mis<|>sing»
      - id: b
        intent: B
        depends_on: [«missing»]
`);
    expect(m.doc.check.errors.length).toBeGreaterThan(0);
    expect(definitionAt(m.doc, cursor(m))).toEqual([]);
    expect(referencesAt(m.doc, cursor(m), true)).toEqual(m.ranges);
  });

  it("an expression that does not parse still has its paths", () => {
    const m = markedDoc(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: «a»
        intent: A
      - id: b
        intent: B
        depends_on: [a]
        skip_if: "$.steps.«a<|>».output.x ==  ("
`);
    expect(m.doc.check.errors.map((d) => d.code)).toEqual(["EXPR-SYNTAX"]);
    expect(definitionAt(m.doc, cursor(m))).toEqual([m.ranges[0]]);
  });
});
