// A function's ensure (docs/reference/language.md §8, docs/reference/language.md §10.12.2): checked once per using step (references read that
// step's flow; messages name it; the range is in the function's expression), with the output_schema
// properties common to all using steps; an unused function gets no reference checks.
import { describe, expect, it } from "vitest";
import { diagnose, loc, locAt, runPhase } from "./harness";

const SPEC = `version: "0.2"
contracts:
  Out: {v: {type: string}}
functions:
  work:
    mode: infer
    intent: "W"
    input: {}
    output: Out
    ensure:
      - "$.input.topic != '' and result.v != ''"
      - "$.steps.first.output.v != result.extra"
      - "result.only_a > 0"
  unused:
    mode: compute
    intent: "U"
    input: {}
    output: Out
    ensure: ["$.steps.nope.output.x and reslt"]
flows:
  f:
    input: {topic: {type: string}}
    steps:
      - id: first
        intent: "F"
        output_contract: Out
      - id: a
        function: work
        depends_on: [first]
        output_schema: {type: object, properties: {extra: {type: string}, only_a: {type: integer}}}
  g:
    input: {}
    steps:
      - id: b
        function: work
        output_schema: {properties: {extra: {type: string}}}
`;

describe("function ensure", () => {
  const run = runPhase(SPEC);

  it("checks references per using step and deduplicates identical diagnostics", () => {
    expect(run.diagnostics.map((d) => [d.code, d.path, d.message, d.suggestion ?? null])).toEqual([
      [
        "SPEC-REF-UNDECLARED-INPUT",
        "functions.work.ensure.0",
        "Reference '$.input.topic' names input 'topic', which flow 'g' does not declare",
        null,
      ],
      [
        "SPEC-REF-UNKNOWN-STEP",
        "functions.work.ensure.1",
        "Reference '$.steps.first.output.v' names unknown step 'first' in flow 'g'",
        null,
      ],
      ["EXPR-UNKNOWN-FIELD", "functions.work.ensure.2", "contract 'Out' has no field 'only_a'", null],
      [
        "EXPR-UNKNOWN-NAME",
        "functions.unused.ensure.0",
        "name 'reslt' is not defined",
        "Did you mean 'result'?",
      ],
    ]);
  });

  it("anchors inside the function's expression", () => {
    const [input, step, field, name] = run.diagnostics;
    expect(input).toMatchObject(locAt(SPEC, "$.input.topic", "topic"));
    expect(step).toMatchObject(locAt(SPEC, "$.steps.first", "first"));
    expect(field).toMatchObject(loc(SPEC, "only_a"));
    expect(name).toMatchObject(loc(SPEC, "reslt"));
    expect(name?.fix).toEqual({
      description: "Replace 'reslt' with 'result'",
      edits: [{ ...loc(SPEC, "reslt"), new_text: "result" }],
    });
  });

  it("keeps the first check of each expression in the table, not ok when any check failed", () => {
    const work = run.model.functionByName.get("work");
    const unused = run.model.functionByName.get("unused");
    if (work === undefined || unused === undefined) throw new Error("functions expected");
    expect(run.table.functionEnsure(work).map((e) => [e.text, e.ok, e.ast !== null])).toEqual([
      ["$.input.topic != '' and result.v != ''", false, true],
      ["$.steps.first.output.v != result.extra", false, true],
      ["result.only_a > 0", false, true],
    ]);
    expect(run.table.functionEnsure(unused).map((e) => e.ok)).toEqual([false]);
  });

  it("names the using step in SPEC-REF-MAY-NOT-HAVE-RUN", () => {
    const spec = `version: "0.2"
contracts:
  Out: {v: {type: string}}
functions:
  work:
    mode: infer
    intent: "W"
    input: {}
    output: Out
    ensure: ["$.steps.s.output.v == result.v"]
flows:
  f:
    input: {}
    steps:
      - id: s
        intent: "S"
        output_contract: Out
      - id: t
        function: work
      - id: u
        function: work
        depends_on: [s]
`;
    const ds = diagnose(spec);
    expect(ds.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "SPEC-REF-MAY-NOT-HAVE-RUN",
        "functions.work.ensure.0",
        "'$.steps.s.output.v' may not have run when step 't' evaluates ensure: 's' is not a dependency of 't' (add it to depends_on)",
      ],
    ]);
    expect(ds[0]).toMatchObject(loc(spec, "$.steps.s.output.v"));
    expect(ds[0]?.related?.[0]).toMatchObject({ path: "flows.f.steps.s", ...locAt(spec, "id: s", "s") });
  });

  it("the output_schema properties of the only using step extend the function's result", () => {
    const spec = `version: "0.2"
contracts:
  Out: {v: {type: string}}
functions:
  work:
    mode: infer
    intent: "W"
    input: {}
    output: Out
    ensure: ["result.extra > 1"]
flows:
  f:
    input: {}
    steps:
      - id: t
        function: work
        output_schema: {properties: {extra: {type: string}}, required: [extra]}
`;
    expect(diagnose(spec).map((d) => d.message)).toEqual([
      "'>' not supported between instances of 'str' and 'int' (this always fails at run time)",
    ]);
  });

  it("EXPR-DUNDER names the function", () => {
    const spec = `version: "0.2"
contracts:
  Out: {v: {type: string}}
functions:
  work: {mode: infer, intent: "W", input: {}, output: Out, ensure: ["result.__class__"]}
`;
    expect(diagnose(spec).map((d) => [d.code, d.path, d.message])).toEqual([
      ["EXPR-DUNDER", "functions.work.ensure.0", "Function 'work' ensure must not contain dunder attributes"],
    ]);
  });

  it("works the same in a 0.1 document", () => {
    const spec = `version: "0.1"
contracts:
  Out: {v: {type: string}}
functions:
  work:
    mode: infer
    intent: "W"
    input: {}
    output: Out
    ensure: ["result.v != $.input.topc"]
flows:
  f:
    input: {topic: {type: string}}
    output: Out
    steps:
      - id: a
        function: work
        inputs: {t: "$.input.topic"}
      - id: b
        function: work
        inputs: {t: "$.steps.a.output.w"}
`;
    const ds = diagnose(spec);
    expect(ds.map((d) => [d.code, d.path, d.message, d.suggestion ?? null])).toEqual([
      [
        "SPEC-REF-UNDECLARED-INPUT",
        "functions.work.ensure.0",
        "Reference '$.input.topc' names input 'topc', which flow 'f' does not declare",
        "Did you mean 'topic'?",
      ],
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "flows.f.steps.b.inputs.t",
        "Reference '$.steps.a.output.w': contract 'Out' has no field 'w'",
        "Did you mean 'v'?",
      ],
    ]);
    expect(ds[0]).toMatchObject(loc(spec, "topc"));
    expect(ds[1]).toMatchObject(locAt(spec, "output.w", "w"));
  });
});
