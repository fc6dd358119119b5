// Positions of expression diagnostics in the file for every scalar style (docs/reference/language.md §9.2): the
// offending token inside plain, multi-line plain, double-quoted with escapes, single-quoted,
// folded `>-` and literal `|` scalars, and fixes kept only where they reproduce the loaded text.
import { describe, expect, it } from "vitest";
import { applyFix, diagnose, loc, locAt } from "./harness";

const SPEC = String.raw`version: "0.2"
contracts:
  Out: {v: {type: string}, n: {type: integer}}
flows:
  f:
    input: {}
    steps:
      - id: a
        intent: "A"
        output_contract: Out
        ensure:
          - result.vv == 'x'
          - "result.v == \"\\u00e9\" and result.nn > 0"
          - "result.\x76v == 1"
          - >-
            result.v != ''
            and result.nnn > 0
          - 'result.vx == ''a'''
          - result.n is 1
          - |
            result.v != ''
              and reslt.n > 0
          - "result.v =="
          - result.v != ''
            and result.nnnn > 0
        skip_if: "$.input.x\n  and 1"
`;

describe("positions inside scalars", () => {
  const ds = diagnose(SPEC);
  const at = (path: string) => {
    const found = ds.filter((d) => d.path === path);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it("reports one diagnostic per expression", () => {
    expect(ds.map((d) => [d.path, d.code, d.message])).toEqual([
      ["flows.f.steps.a.ensure.0", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'vv'"],
      ["flows.f.steps.a.ensure.1", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'nn'"],
      ["flows.f.steps.a.ensure.2", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'vv'"],
      ["flows.f.steps.a.ensure.3", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'nnn'"],
      ["flows.f.steps.a.ensure.4", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'vx'"],
      ["flows.f.steps.a.ensure.5", "EXPR-IS-LITERAL", '"is" with a literal. Did you mean "=="?'],
      ["flows.f.steps.a.ensure.6", "EXPR-UNKNOWN-NAME", "name 'reslt' is not defined"],
      [
        "flows.f.steps.a.ensure.7",
        "EXPR-SYNTAX",
        `Cannot compile ensure expression 'result.v ==': unexpected end of expression`,
      ],
      ["flows.f.steps.a.ensure.8", "EXPR-UNKNOWN-FIELD", "contract 'Out' has no field 'nnnn'"],
      [
        "flows.f.steps.a.skip_if",
        "SPEC-REF-UNDECLARED-INPUT",
        "Reference '$.input.x' names input 'x', which flow 'f' does not declare",
      ],
    ]);
  });

  it("plain scalar: the token, with a rename fix", () => {
    const d = at("flows.f.steps.a.ensure.0");
    expect(d).toMatchObject({ ...locAt(SPEC, "result.vv", "vv"), suggestion: "Did you mean 'v'?" });
    expect(d?.fix?.edits).toEqual([{ ...locAt(SPEC, "result.vv", "vv"), new_text: "v" }]);
  });

  it("double-quoted scalar: columns after escapes are shifted back to the source", () => {
    const d = at("flows.f.steps.a.ensure.1");
    expect(d).toMatchObject({ ...locAt(SPEC, "result.nn", "nn"), suggestion: "Did you mean 'n'?" });
    expect(d?.fix?.edits).toEqual([{ ...locAt(SPEC, "result.nn", "nn"), new_text: "n" }]);
  });

  it("double-quoted scalar: a token produced by an escape starts at its backslash and has no fix", () => {
    const d = at("flows.f.steps.a.ensure.2");
    expect(d).toMatchObject({ ...loc(SPEC, String.raw`\x76v`), suggestion: "Did you mean 'v'?" });
    expect(d?.fix).toBeUndefined();
  });

  it("folded >- scalar: the token on its own physical line", () => {
    const d = at("flows.f.steps.a.ensure.3");
    expect(d).toMatchObject(loc(SPEC, "nnn"));
    expect(d?.line).toBe(loc(SPEC, "and result.nnn").line);
    expect(d?.suggestion).toBeUndefined();
  });

  it("single-quoted scalar with '' escapes", () => {
    const d = at("flows.f.steps.a.ensure.4");
    expect(d).toMatchObject(locAt(SPEC, "result.vx", "vx"));
    expect(d?.fix?.edits).toEqual([{ ...locAt(SPEC, "result.vx", "vx"), new_text: "v" }]);
  });

  it("EXPR-IS-LITERAL: the operator, with the replacement fix", () => {
    const d = at("flows.f.steps.a.ensure.5");
    expect(d).toMatchObject({ severity: "warning", ...locAt(SPEC, "n is 1", "is") });
    expect(d?.fix).toEqual({
      description: "Replace 'is' with '=='",
      edits: [{ ...locAt(SPEC, "n is 1", "is"), new_text: "==" }],
    });
  });

  it("literal | scalar: indentation is skipped", () => {
    const d = at("flows.f.steps.a.ensure.6");
    expect(d).toMatchObject({ ...loc(SPEC, "reslt"), suggestion: "Did you mean 'result'?" });
    expect(d?.fix?.edits).toEqual([{ ...loc(SPEC, "reslt"), new_text: "result" }]);
  });

  it("end of expression maps just after the scalar's content", () => {
    const d = at("flows.f.steps.a.ensure.7");
    const quote = locAt(SPEC, 'result.v =="', '"');
    expect(d).toMatchObject({
      line: quote.line,
      column: quote.column,
      end_line: quote.line,
      end_column: quote.column,
    });
  });

  it("multi-line plain scalar: the token on its continuation line", () => {
    expect(at("flows.f.steps.a.ensure.8")).toMatchObject(loc(SPEC, "nnnn"));
  });

  it("a $ reference after a \\n escape keeps its source column", () => {
    expect(at("flows.f.steps.a.skip_if")).toMatchObject(locAt(SPEC, String.raw`"$.input.x\n`, "x"));
  });

  it("every fix, applied to the file, removes its diagnostic", () => {
    const fixed = ds.filter((d) => d.fix !== undefined);
    expect(fixed.map((d) => d.path)).toEqual([
      "flows.f.steps.a.ensure.0",
      "flows.f.steps.a.ensure.1",
      "flows.f.steps.a.ensure.4",
      "flows.f.steps.a.ensure.5",
      "flows.f.steps.a.ensure.6",
    ]);
    for (const d of fixed) {
      const after = diagnose(applyFix(SPEC, d));
      expect(after.filter((x) => x.path === d.path)).toEqual([]);
      expect(after).toHaveLength(ds.length - 1);
    }
  });
});
