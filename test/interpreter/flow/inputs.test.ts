// Step input resolution at dispatch (docs/reference/runtime.md §3.3): the exact failure messages and navigation.
import { describe, expect, it } from "vitest";
import { ExecutionFailure } from "../../../interpreter/base/tool-errors";
import { resolveInputs, resolveValue } from "../../../interpreter/flow/inputs";
import { json, runOf, text } from "./fixtures";

const SPEC = `version: "0.2"
flows:
  main:
    input: {doc: {type: object}, n: {type: integer}}
    steps:
      - id: a
        intent: "A"
        inputs: {lit: "plain text", d: "$.input.doc", deep: "$.input.doc.meta.owner"}
      - id: b
        intent: "B"
        depends_on: [a]
`;

function failure(
  raw: string,
  outputs: Record<string, string> = {},
  inputs = '{"doc": {"meta": {"owner": "ann"}, "list": [1, 2]}}',
): string {
  const run = runOf(SPEC, "main", inputs);
  for (const [id, out] of Object.entries(outputs)) run.state.step_outputs.set(id, json(out));
  try {
    resolveValue(run, raw);
  } catch (e) {
    if (e instanceof ExecutionFailure) return e.message;
    throw e;
  }
  return "(resolved)";
}

describe("resolving step inputs", () => {
  it("passes literals through and resolves $.input paths in declaration order", () => {
    const run = runOf(SPEC, "main", '{"doc": {"meta": {"owner": "ann"}}}');
    const step = run.flow.stepById.get("a")!;
    expect(text(resolveInputs(run, step))).toBe(
      '{"lit": "plain text", "d": {"meta": {"owner": "ann"}}, "deep": "ann"}',
    );
  });

  it("navigates into step outputs: keys, list indexes, null stays null", () => {
    const run = runOf(SPEC, "main");
    run.state.step_outputs.set("a", json('{"items": [{"id": 7}], "skipped": null}'));
    run.state.step_outputs.set("s", null);
    expect(text(resolveValue(run, "$.steps.a.output.items.0.id"))).toBe("7");
    expect(text(resolveValue(run, "$.steps.a.output.skipped.x.y"))).toBe("null");
    expect(text(resolveValue(run, "$.steps.s.output.field"))).toBe("null");
    expect(text(resolveValue(run, "$.steps.a.output"))).toBe('{"items": [{"id": 7}], "skipped": null}');
  });

  it("reports each malformed or unresolvable reference with the reference's message", () => {
    expect(failure("$")).toBe("Empty $ reference: '$'");
    expect(failure("$.input")).toBe("$.input requires a field name: '$.input'");
    expect(failure("$.input.missing")).toBe("$.input.missing not found in flow inputs");
    expect(failure("$.steps.a")).toBe("$.steps requires $.steps.<id>.output: '$.steps.a'");
    expect(failure("$.steps.a.output")).toBe("$.steps.a not yet executed — check depends_on ordering");
    expect(failure("$.steps.a.result", { a: "{}" })).toBe(
      "Expected '$.steps.a.output[.<field>]', got '$.steps.a.result'",
    );
    expect(failure("$.bogus.x")).toBe("Unknown $ prefix 'bogus' in '$.bogus.x'");
  });

  it("reports navigation failures against the base text", () => {
    expect(failure("$.input.doc.nope")).toBe(
      "Key 'nope' not found in $.input.doc — available keys: ['list', 'meta']",
    );
    expect(failure("$.input.doc.list.5")).toBe("Index 5 out of range in $.input.doc");
    expect(failure("$.input.doc.list.x")).toBe("Attribute 'x' not found on $.input.doc");
    expect(failure("$.steps.a.output.v.w", { a: '{"v": "text"}' })).toBe(
      "Attribute 'w' not found on $.steps.a.output",
    );
  });
});
