// `$` references in step inputs (docs/reference/language.md §8, docs/reference/language.md §9.5.5): exact codes, messages, paths, full
// ranges of the offending segment, suggestions and fixes; parsed references in the table.
import { describe, expect, it } from "vitest";
import { applyFix, diagnose, loc, locAt, runPhase, stepOf } from "./harness";

const SPEC = `version: "0.2"
contracts:
  Finding:
    id: {type: integer}
    severity: {type: string, values: [low, medium, high]}
  Review:
    summary: {type: string}
    findings: {type: array, items: {type: Finding}}
    meta: {type: object}
functions:
  review:
    mode: infer
    intent: "Review"
    input: {}
    output: Review
flows:
  f:
    input: {topic: {type: string}, count: {type: integer}}
    steps:
      - id: draft
        function: review
        inputs: {t: "$.input.topc"}
      - id: check
        intent: "Check"
        inputs:
          a: $.steps.drft.output
          b: "$.steps.draft.output.summry"
          c: '$.steps.draft.output.findings.0.sevrity'
          d: $.steps.draft.output.meta.anything.0
          e: "see $.input.nope"
          f: $.steps.draft.result
          g:
            "$.input.nope"
          h: $.steps.draft.output.findings.x.y
`;

describe("references in step inputs", () => {
  const run = runPhase(SPEC);
  const byPath = (path: string) => run.diagnostics.filter((d) => d.path === path);

  it("reports exactly the expected diagnostics", () => {
    expect(run.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["SPEC-REF-UNDECLARED-INPUT", "flows.f.steps.draft.inputs.t"],
      ["SPEC-REF-UNKNOWN-STEP", "flows.f.steps.check.inputs.a"],
      ["SPEC-REF-UNKNOWN-FIELD", "flows.f.steps.check.inputs.b"],
      ["SPEC-REF-UNKNOWN-FIELD", "flows.f.steps.check.inputs.c"],
      ["SPEC-REF-MALFORMED", "flows.f.steps.check.inputs.f"],
      ["SPEC-REF-UNDECLARED-INPUT", "flows.f.steps.check.inputs.g"],
    ]);
  });

  it("SPEC-REF-UNDECLARED-INPUT: the name segment, did-you-mean and a rename fix", () => {
    const [d] = byPath("flows.f.steps.draft.inputs.t");
    expect(d).toMatchObject({
      code: "SPEC-REF-UNDECLARED-INPUT",
      severity: "error",
      error_type: "ir_semantic_error",
      message: "Reference '$.input.topc' names input 'topc', which flow 'f' does not declare",
      suggestion: "Did you mean 'topic'?",
      ...loc(SPEC, "topc"),
    });
    expect(d?.fix).toEqual({
      description: "Replace 'topc' with 'topic'",
      edits: [{ ...loc(SPEC, "topc"), new_text: "topic" }],
    });
  });

  it("SPEC-REF-UNKNOWN-STEP in a plain scalar", () => {
    const [d] = byPath("flows.f.steps.check.inputs.a");
    expect(d).toMatchObject({
      message: "Reference '$.steps.drft.output' names unknown step 'drft' in flow 'f'",
      suggestion: "Did you mean 'draft'?",
      ...loc(SPEC, "drft"),
    });
    expect(d?.fix?.edits).toEqual([{ ...loc(SPEC, "drft"), new_text: "draft" }]);
  });

  it("SPEC-REF-UNKNOWN-FIELD below the output and below nested contracts and list items", () => {
    const [b] = byPath("flows.f.steps.check.inputs.b");
    expect(b).toMatchObject({
      code: "SPEC-REF-UNKNOWN-FIELD",
      message: "Reference '$.steps.draft.output.summry': contract 'Review' has no field 'summry'",
      suggestion: "Did you mean 'summary'?",
      ...loc(SPEC, "summry"),
    });
    const [c] = byPath("flows.f.steps.check.inputs.c");
    expect(c).toMatchObject({
      message:
        "Reference '$.steps.draft.output.findings.0.sevrity': contract 'Finding' has no field 'sevrity'",
      suggestion: "Did you mean 'severity'?",
      ...loc(SPEC, "sevrity"),
    });
    expect(c?.fix?.edits).toEqual([{ ...loc(SPEC, "sevrity"), new_text: "severity" }]);
  });

  it("segments below dict fields and non-digit segments below lists are not field errors", () => {
    expect(byPath("flows.f.steps.check.inputs.d")).toEqual([]);
    expect(byPath("flows.f.steps.check.inputs.h")).toEqual([]);
  });

  it("a value that does not start with $ is a literal", () => {
    expect(byPath("flows.f.steps.check.inputs.e")).toEqual([]);
  });

  it("SPEC-REF-MALFORMED covers the whole reference", () => {
    const [d] = byPath("flows.f.steps.check.inputs.f");
    expect(d).toMatchObject({
      code: "SPEC-REF-MALFORMED",
      message: "Expected '$.steps.<id>.output[.<field>]', got '$.steps.draft.result'",
      ...loc(SPEC, "$.steps.draft.result"),
    });
    expect(d?.suggestion).toBeUndefined();
  });

  it("a value written below its key is reported from the key's line (docs/reference/language.md §9.2 start line)", () => {
    const [d] = byPath("flows.f.steps.check.inputs.g");
    const key = locAt(SPEC, "  g:\n", "g");
    const seg = loc(SPEC, "nope", 1);
    expect(d).toMatchObject({
      line: key.line,
      column: key.column,
      end_line: seg.end_line,
      end_column: seg.end_column,
      message: "Reference '$.input.nope' names input 'nope', which flow 'f' does not declare",
    });
  });

  it("applying a fix removes the diagnostic", () => {
    for (const d of run.diagnostics.filter((x) => x.fix !== undefined)) {
      const fixed = diagnose(applyFix(SPEC, d));
      expect(fixed.filter((x) => x.path === d.path && x.code === d.code)).toEqual([]);
    }
  });

  it("returns the parsed inputs in the table", () => {
    const inputs = run.table.inputs(stepOf(run.model, "f", "check"));
    expect(inputs.map((i) => [i.name, i.raw, i.ref?.scope ?? null, i.ref?.name.name ?? null])).toEqual([
      ["a", "$.steps.drft.output", "steps", "drft"],
      ["b", "$.steps.draft.output.summry", "steps", "draft"],
      ["c", "$.steps.draft.output.findings.0.sevrity", "steps", "draft"],
      ["d", "$.steps.draft.output.meta.anything.0", "steps", "draft"],
      ["e", "see $.input.nope", null, null],
      ["f", "$.steps.draft.result", null, null],
      ["g", "$.input.nope", "input", "nope"],
      ["h", "$.steps.draft.output.findings.x.y", "steps", "draft"],
    ]);
    expect(inputs[1]?.ref?.fields).toEqual([{ name: "summry", start: 21, end: 27 }]);
  });
});

describe("reference segments inside quoted scalars with escapes", () => {
  const spec = `version: "0.2"
flows:
  f:
    input: {text: {type: string}}
    steps:
      - id: a
        intent: "A"
        inputs:
          x: "$.input.t\\x78t"
          y: "\\u0024.steps.nop.output"
          z: '$.input.''q''x'
`;

  it("maps the segment through the escapes and drops fixes that would not reproduce the text", () => {
    const ds = diagnose(spec);
    expect(ds.map((d) => [d.code, d.path, d.message, d.suggestion ?? null])).toEqual([
      [
        "SPEC-REF-UNDECLARED-INPUT",
        "flows.f.steps.a.inputs.x",
        "Reference '$.input.txt' names input 'txt', which flow 'f' does not declare",
        "Did you mean 'text'?",
      ],
      [
        "SPEC-REF-UNKNOWN-STEP",
        "flows.f.steps.a.inputs.y",
        "Reference '$.steps.nop.output' names unknown step 'nop' in flow 'f'",
        null,
      ],
      [
        "SPEC-REF-UNDECLARED-INPUT",
        "flows.f.steps.a.inputs.z",
        "Reference '$.input.'q'x' names input ''q'x', which flow 'f' does not declare",
        null,
      ],
    ]);
    // `t\x78t`: the escape is inside the segment, so no fix.
    expect(ds[0]).toMatchObject(loc(spec, "t\\x78t"));
    expect(ds[0]?.fix).toBeUndefined();
    // The escape before the segment shifts nothing in the segment itself.
    expect(ds[1]).toMatchObject(loc(spec, "nop"));
    // `''` maps to its first quote: the segment `'q'x` spans `''q''x`.
    expect(ds[2]).toMatchObject(loc(spec, "''q''x"));
  });
});
