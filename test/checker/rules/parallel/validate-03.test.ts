// The stratumc extensions of parallel_dispatch steps (docs/design/concurrency-constructs.md §2):
// `require: 0`, `member_contract` and the `validate` expression with its own environment.
import { describe, expect, it } from "vitest";
import { CONTRACTS, check, parallel, shown, spec03 } from "./support";

const S = "flows.f.steps";

/** The standard parallel step with a member contract and extra lines. */
function withReport(...extra: string[]): string {
  return parallel(...extra).replace(
    CONTRACTS,
    `${CONTRACTS}  Report:\n    tests_added: {type: integer}\n    summary: {type: string}\n`,
  );
}

/** `CODE line:col-line:col` of each diagnostic (1-based lines and columns as the checker reports). */
function located(text: string): string[] {
  return check(text).diagnostics.map((d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column}`);
}

/** 1-based line and column of the first occurrence of `needle` in `text` (plus `offset` characters). */
function at(text: string, needle: string, offset = 0): string {
  const i = text.indexOf(needle) + offset;
  const before = text.slice(0, i).split("\n");
  return `${before.length}:${(before.at(-1) ?? "").length + 1}`;
}

describe("valid specs", () => {
  it("require: 0, a member contract and a validate over every bound name pass", () => {
    const text = withReport(
      "require: 0",
      "member_contract: Report",
      "validate: \"sum(r.tests_added for r in results) >= len(results) and len(completed) + len(failed) == len(tasks) and all(t['status'] in ('complete', 'failed') for t in tasks)\"",
    );
    expect(shown(text)).toEqual([]);
  });

  it("the IR carries validate, the member contract and require 0", () => {
    const text = withReport("require: 0", "member_contract: Report", 'validate: "len(results) > 0"');
    const run = check(text).ir?.flows.get("f")?.stepById.get("run");
    expect(run?.parallel?.require).toEqual({ value: 0, float: false });
    expect(run?.parallel?.memberContract).toBe("Report");
    expect(run?.parallel?.validate?.text).toBe("len(results) > 0");
    expect(run?.parallel?.validate?.kind).toBe("ensure");
  });

  it("without the keys the IR fields are null", () => {
    const run = check(parallel()).ir?.flows.get("f")?.stepById.get("run");
    expect(run?.parallel?.validate).toBeNull();
    expect(run?.parallel?.memberContract).toBeNull();
  });

  it("without a member contract the elements of results are any", () => {
    expect(shown(parallel('validate: "results[0].anything.goes"'))).toEqual([]);
  });

  it("validate may read the step's $ inputs like ensure", () => {
    expect(shown(parallel('validate: "len(results) <= len($.input.tasks)"'))).toEqual([]);
  });
});

describe("diagnostics", () => {
  it("an undefined member_contract: message, path, range at the value, a fix to the close name", () => {
    const text = withReport("member_contract: Reprot");
    const d = check(text).diagnostics;
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-MEMBER-CONTRACT-UNDEFINED ${S}.run.member_contract: Step 'run' member_contract 'Reprot' not defined`,
    ]);
    const start = at(text, "Reprot");
    expect(located(text)).toEqual([
      `SPEC-PARALLEL-MEMBER-CONTRACT-UNDEFINED ${start}-${at(text, "Reprot", 6)}`,
    ]);
    expect(d[0]?.fix?.edits[0]?.new_text).toBe("Report");
  });

  it("an unknown field of a member-contract result, at the field name", () => {
    const text = withReport("member_contract: Report", 'validate: "results[0].test_added > 0"');
    const [d] = check(text).diagnostics;
    expect(d?.code).toBe("EXPR-UNKNOWN-FIELD");
    expect(d?.path).toBe(`${S}.run.validate`);
    expect(`${d?.line}:${d?.column}-${d?.end_line}:${d?.end_column}`).toBe(
      `${at(text, "test_added")}-${at(text, "test_added", "test_added".length)}`,
    );
  });

  it("result is not bound in validate: an unknown name at its range", () => {
    const text = parallel('validate: "result.tasks"');
    const [d] = check(text).diagnostics;
    expect(d?.path).toBe(`${S}.run.validate`);
    expect(d?.code).toMatch(/^EXPR-/);
    expect(`${d?.line}:${d?.column}-${d?.end_line}:${d?.end_column}`).toBe(
      `${at(text, "result.tasks")}-${at(text, "result.tasks", "result".length)}`,
    );
  });

  it("a type error over the bound names (completed is a list of strings)", () => {
    const text = parallel('validate: "completed + 1"');
    expect(check(text).diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual([
      `EXPR-TYPE ${S}.run.validate`,
    ]);
  });

  it("a syntax error, at the expression", () => {
    const text = parallel('validate: "len(results) >"');
    expect(check(text).diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual([
      `EXPR-SYNTAX ${S}.run.validate`,
    ]);
  });

  it("validate and member_contract on another step kind: the parallel-only ban", () => {
    const text = spec03("- id: other", "  intent: x", '  validate: "True"', "  member_contract: Task");
    expect(shown(text)).toEqual([
      `SPEC-PARALLEL-ONLY-KEY ${S}.other.validate: Step 'other' has 'validate' but is not a parallel_dispatch step`,
      `SPEC-PARALLEL-ONLY-KEY ${S}.other.member_contract: Step 'other' has 'member_contract' but is not a parallel_dispatch step`,
    ]);
  });
});
