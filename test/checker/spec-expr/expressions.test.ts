// Expressions of steps (docs/reference/language.md §9.5.5, docs/reference/language.md §10.6, docs/reference/language.md §10.12): result typing (contract fields,
// output_schema extension, accumulator fields, enumerations), `$` path typing and references
// inside expressions, environments per kind, misplaced fields, and the expression table.
import { describe, expect, it } from "vitest";
import { typeToString } from "../../../stdlib/types/print";
import { diagnose, loc, locAt, runPhase, stepOf } from "./harness";

const rows = (yaml: string) => diagnose(yaml).map((d) => [d.code, d.path, d.message]);

describe("result typing", () => {
  const spec = `version: "0.2"
contracts:
  Finding:
    id: {type: integer}
    severity: {type: string, values: [low, high]}
  Out:
    findings: {type: array, items: {type: Finding}}
    status: {type: string, values: [ok, failed]}
    score: {type: number, required: false}
functions:
  work: {mode: infer, intent: "W", input: {}, output: Out}
flows:
  f:
    input: {}
    steps:
      - id: a
        intent: "A"
        output_contract: Out
        max_iterations: 3
        accumulate: "result.findings"
        accumulate_key: "item.idd"
        exit_criterion: "accumulated_count >= 2 and accumulator[0].severity == 'mid'"
        ensure: ["result.status == 'done'", "result.quality >= 0.9"]
      - id: b
        intent: "B"
        depends_on: [a]
        skip_if: "$.steps.a.output.accumulated.0.sevrity == 'low' or $.steps.a.output.accumulated_count > 'x'"
        output_contract: Out
        output_schema:
          type: object
          properties:
            extra: {type: integer}
            note: {type: [string, "null"]}
          required: [extra]
        ensure: ["result.extra > 'a'", "result.note.upper() == 'X'", "result.notes"]
      - id: c
        function: work
      - id: d
        flow: f2
      - id: e
        intent: "E"
        ensure: ["result.anything > 1 and result.x.y"]
  f2:
    input: {}
    steps:
      - id: z
        intent: "Z"
`;

  it("reports the typing diagnostics with exact messages", () => {
    expect(rows(spec)).toEqual([
      ["EXPR-UNKNOWN-FIELD", "flows.f.steps.a.accumulate_key", "contract 'Finding' has no field 'idd'"],
      [
        "EXPR-ENUM-VALUE",
        "flows.f.steps.a.exit_criterion",
        "'mid' is not an allowed value of field 'severity' (allowed: ['low', 'high'])",
      ],
      [
        "EXPR-ENUM-VALUE",
        "flows.f.steps.a.ensure.0",
        "'done' is not an allowed value of field 'status' (allowed: ['ok', 'failed'])",
      ],
      ["EXPR-UNKNOWN-FIELD", "flows.f.steps.a.ensure.1", "contract 'Out' has no field 'quality'"],
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "flows.f.steps.b.skip_if",
        "Reference '$.steps.a.output.accumulated.0.sevrity': contract 'Finding' has no field 'sevrity'",
      ],
      [
        "EXPR-TYPE",
        "flows.f.steps.b.skip_if",
        "'>' not supported between instances of 'int' and 'str' (this always fails at run time)",
      ],
      [
        "EXPR-TYPE",
        "flows.f.steps.b.ensure.0",
        "'>' not supported between instances of 'int' and 'str' (this always fails at run time)",
      ],
      ["EXPR-UNKNOWN-FIELD", "flows.f.steps.b.ensure.2", "contract 'Out' has no field 'notes'"],
    ]);
  });

  it("anchors field errors at the field name, with did-you-mean", () => {
    const ds = diagnose(spec);
    const idd = ds.find((d) => d.path === "flows.f.steps.a.accumulate_key");
    expect(idd).toMatchObject({ ...loc(spec, "idd"), suggestion: "Did you mean 'id'?" });
    const sevrity = ds.find((d) => d.code === "SPEC-REF-UNKNOWN-FIELD");
    expect(sevrity).toMatchObject({ ...loc(spec, "sevrity"), suggestion: "Did you mean 'severity'?" });
    expect(sevrity?.fix?.edits).toEqual([{ ...loc(spec, "sevrity"), new_text: "severity" }]);
    const notes = ds.find((d) => d.path === "flows.f.steps.b.ensure.2");
    expect(notes).toMatchObject({ ...loc(spec, "notes"), suggestion: "Did you mean 'note'?" });
  });

  it("types R(s) per step kind (the table's resultType)", () => {
    const run = runPhase(spec);
    const r = (id: string) => typeToString(run.table.resultType(stepOf(run.model, "f", id)));
    expect([r("a"), r("b"), r("c"), r("d"), r("e")]).toEqual(["Out", "Out", "Out", "any", "dict[str, any]"]);
    const b = run.table.resultType(stepOf(run.model, "f", "b"));
    const a = run.table.resultType(stepOf(run.model, "f", "a"));
    if (b.k !== "record" || a.k !== "record") throw new Error("records expected");
    expect(b.record).not.toBe(a.record);
    expect([...b.record.fields].map(([n, f]) => `${n}: ${typeToString(f.type)} ${f.optional}`)).toEqual([
      "findings: list[Finding] false",
      "status: str{'ok','failed'} false",
      "score: int | float | none true",
      "extra: int false",
      "note: str | none true",
    ]);
  });

  it("records the checked expressions with their types", () => {
    const run = runPhase(spec);
    const a = run.table.step(stepOf(run.model, "f", "a"));
    expect(typeToString(a.accumulate?.type ?? { k: "none" })).toBe("list[Finding]");
    expect(a.accumulate?.ok).toBe(true);
    expect(a.accumulateKey?.ok).toBe(false);
    expect(a.ensure.map((e) => [e.text, e.ok])).toEqual([
      ["result.status == 'done'", false],
      ["result.quality >= 0.9", false],
    ]);
    expect(a.skipIf).toBeNull();
    expect(typeToString(a.exitCriterion?.type ?? { k: "none" })).toBe("bool");
  });
});

describe("$ paths in expressions", () => {
  const spec = `version: "0.2"
contracts:
  Out:
    v: {type: string}
    n: {type: integer}
functions:
  g: {mode: gate}
flows:
  f:
    input: {topic: {type: string}, n: {type: integer}, free: {}}
    steps:
      - id: a
        intent: "A"
        output_contract: Out
      - id: gate
        function: g
        on_approve: null
        on_revise: a
        on_kill: null
      - id: b
        intent: "B"
        depends_on: [a, gate]
        skip_if: "$.steps.a.output.w == 'x' or $.input.topc == 'y' or $.steps.zz.output"
        ensure:
          - "$.input.n > 'a'"
          - "$.steps.a.output.v > 1"
          - "$.steps.gate.output > 1"
          - "$.steps.gate.output.x.y is None and $.input.free.x.y > 'a' and $.input.topic.upper() == 'A'"
          - "$.steps.a.result or $.input"
`;

  it("reports references and types with exact messages, ranges and suggestions", () => {
    const ds = diagnose(spec);
    expect(ds.map((d) => [d.code, d.path, d.message, d.suggestion ?? null])).toEqual([
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "flows.f.steps.b.skip_if",
        "Reference '$.steps.a.output.w': contract 'Out' has no field 'w'",
        "Did you mean 'v'?",
      ],
      [
        "SPEC-REF-UNDECLARED-INPUT",
        "flows.f.steps.b.skip_if",
        "Reference '$.input.topc' names input 'topc', which flow 'f' does not declare",
        "Did you mean 'topic'?",
      ],
      [
        "SPEC-REF-UNKNOWN-STEP",
        "flows.f.steps.b.skip_if",
        "Reference '$.steps.zz.output' names unknown step 'zz' in flow 'f'",
        null,
      ],
      [
        "EXPR-TYPE",
        "flows.f.steps.b.ensure.0",
        "'>' not supported between instances of 'int' and 'str' (this always fails at run time)",
        null,
      ],
      [
        "EXPR-TYPE",
        "flows.f.steps.b.ensure.1",
        "'>' not supported between instances of 'str' and 'int' (this always fails at run time)",
        null,
      ],
      [
        "EXPR-TYPE",
        "flows.f.steps.b.ensure.2",
        "'>' not supported between instances of 'NoneType' and 'int' (this always fails at run time)",
        null,
      ],
      [
        "SPEC-REF-MALFORMED",
        "flows.f.steps.b.ensure.4",
        "Expected '$.steps.<id>.output[.<field>]', got '$.steps.a.result'",
        null,
      ],
      ["SPEC-REF-MALFORMED", "flows.f.steps.b.ensure.4", "$.input requires a field name: '$.input'", null],
    ]);
    // `w` is one edit from both `v` and `n`: a suggestion but no fix.
    expect(ds[0]).toMatchObject(locAt(spec, "output.w", "w"));
    expect(ds[0]?.fix).toBeUndefined();
    expect(ds[1]).toMatchObject(loc(spec, "topc"));
    expect(ds[1]?.fix?.edits).toEqual([{ ...loc(spec, "topc"), new_text: "topic" }]);
    expect(ds[2]).toMatchObject(loc(spec, "zz"));
    expect(ds[6]).toMatchObject(loc(spec, "$.steps.a.result"));
    expect(ds[7]).toMatchObject(locAt(spec, '$.input"', "$.input"));
  });
});

describe("misplaced expression fields are not checked (docs/reference/language.md §9.3)", () => {
  const spec = `version: "0.2"
contracts:
  Out: {v: {type: string}}
functions:
  work: {mode: infer, intent: "W", input: {}, output: Out}
  g: {mode: gate, ensure: ["reslt.v"]}
flows:
  f:
    input: {}
    steps:
      - id: a
        function: work
        ensure: ["reslt.v"]
      - id: r
        function: g
        on_approve: null
        on_revise: a
        on_kill: null
        skip_if: "reslt"
        exit_criterion: "reslt"
        accumulate: "reslt"
        accumulate_key: "reslt"
      - id: c
        intent: "C"
        exit_criterion: "reslt"
        accumulate: "reslt"
        accumulate_key: "reslt"
      - id: d
        intent: "D"
        max_iterations: 2
        accumulate_key: "reslt"
`;

  it("checks only the gate's skip_if (allowed on gates) and an accumulate_key next to an accumulate", () => {
    // c's accumulate is misplaced (no max_iterations); its accumulate_key is not: it has an accumulate.
    expect(rows(spec)).toEqual([
      ["EXPR-UNKNOWN-NAME", "flows.f.steps.r.skip_if", "name 'reslt' is not defined"],
      ["EXPR-UNKNOWN-NAME", "flows.f.steps.c.accumulate_key", "name 'reslt' is not defined"],
    ]);
  });

  it("misplaced fields are absent from the table", () => {
    const run = runPhase(spec);
    const r = run.table.step(stepOf(run.model, "f", "r"));
    expect([r.skipIf?.text, r.exitCriterion, r.accumulate, r.accumulateKey]).toEqual([
      "reslt",
      null,
      null,
      null,
    ]);
    expect(run.table.step(stepOf(run.model, "f", "a")).ensure).toEqual([]);
    const g = run.model.functionByName.get("g");
    if (g === undefined) throw new Error("no g");
    expect(run.table.functionEnsure(g)).toEqual([]);
  });
});

describe("syntax errors", () => {
  const spec = `version: "0.2"
flows:
  f:
    input: {}
    steps:
      - id: a
        intent: "A"
        skip_if: "$.steps.nope.output ==="
`;

  it("stop further checks, including references", () => {
    const run = runPhase(spec);
    expect(run.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["EXPR-SYNTAX", "Cannot compile skip_if expression '$.steps.nope.output ===': unexpected '='"],
    ]);
    const checked = run.table.step(stepOf(run.model, "f", "a")).skipIf;
    expect(checked?.ast).toBeNull();
    expect(checked?.ok).toBe(false);
  });
});
