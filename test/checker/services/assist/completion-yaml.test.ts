// Completion in the YAML structure: keys per version and step kind, step ids, names, enum values,
// on documents that check cleanly and on documents being typed (broken YAML).
import { describe, expect, test } from "vitest";
import { completionsAt } from "../../../../checker/services/assist";
import { docAt, docWithRanges, HEAD, item, labels, sortedLabels } from "./support";

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
        inputs:
          diff: "$.input.repo"
`;

describe("keys", () => {
  test("a blank line in a function step offers the keys a function step may take, required first", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        <|>\n`);
    expect(sortedLabels(completionsAt(doc, offset))).toEqual([
      "agent",
      "depends_on",
      "output_schema",
      "on_fail",
      "next",
      "skip_if",
      "skip_reason",
      "max_iterations",
      "exit_criterion",
      "accumulate",
      "accumulate_key",
      "score_expr",
    ]);
  });

  test("a partial key is replaced whole and carries its description", () => {
    const { doc, offset, ranges } = docWithRanges(`${HEAD}${FLOW}        «dep<|>»\n`);
    const dep = item(completionsAt(doc, offset), "depends_on");
    expect(dep).toEqual({
      label: "depends_on",
      kind: "key",
      detail: "list of strings",
      documentation: "Ids of steps of the same flow that must run first.",
      insertText: "depends_on:",
      replace: ranges[0],
      sortText: "1006",
    });
    expect(doc.check.model).toBeNull();
  });

  test("a gate step gets the gate routes and policies, not next/on_fail", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}      - id: ok
        function: approve
        <|>
`);
    expect(sortedLabels(completionsAt(doc, offset))).toEqual([
      "agent",
      "inputs",
      "depends_on",
      "on_approve",
      "on_kill",
      "on_revise",
      "skip_if",
      "skip_reason",
      "policy",
      "policy_fallback",
    ]);
  });

  test("a new step item (`- `) offers the step keys, id first", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}      - <|>\n`);
    expect(sortedLabels(completionsAt(doc, offset)).slice(0, 4)).toEqual([
      "id",
      "function",
      "intent",
      "flow",
    ]);
  });

  test("root keys: version 0.1 has no workflow or properties, present keys are left out", () => {
    const { doc, offset } = docAt(`version: "0.1"\nfunctions: {}\n<|>\n`);
    expect(sortedLabels(completionsAt(doc, offset))).toEqual(["contracts", "flows"]);
    const v2 = docAt(`version: "0.2"\nfunctions: {}\n<|>\n`);
    expect(sortedLabels(completionsAt(v2.doc, v2.offset))).toEqual([
      "contracts",
      "flows",
      "workflow",
      "properties",
    ]);
  });

  test("keys of a function, under a key whose mapping is still empty", () => {
    const { doc, offset } = docAt(`version: "0.2"\nfunctions:\n  f:\n    <|>\n`);
    const items = completionsAt(doc, offset);
    expect(sortedLabels(items)).toEqual([
      "mode",
      "intent",
      "input",
      "output",
      "ensure",
      "retries",
      "budget",
      "model",
      "timeout",
      "guardrails",
      "cache",
    ]);
    expect(item(items, "mode")?.insertText).toBe("mode: ");
  });

  test("step inputs: the function's declared inputs that are not given yet", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}          <|>\n`);
    const items = completionsAt(doc, offset);
    expect(labels(items)).toEqual(["focus"]);
    expect(item(items, "focus")?.detail).toBe("input of review");
  });
});

describe("values", () => {
  test("depends_on in an unclosed flow sequence (YAML broken): the other steps", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}        depends_on: [<|>\n`);
    expect(doc.check.model).toBeNull();
    const items = completionsAt(doc, offset);
    expect(items).toEqual([
      {
        label: "plan",
        kind: "step",
        detail: "inline step",
        replace: { start: offset, end: offset },
        sortText: "0000",
      },
    ]);
  });

  test("depends_on block item: steps not yet listed", () => {
    const text = `${HEAD}${FLOW}      - id: third
        intent: x
        depends_on:
          - plan
          - <|>
`;
    const { doc, offset } = docAt(text);
    expect(labels(completionsAt(doc, offset))).toEqual(["check"]);
  });

  test("on_revise offers earlier steps only, and null", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}      - id: ok
        function: approve
        on_revise: <|>
      - id: later
        intent: x
`);
    const items = completionsAt(doc, offset);
    expect(labels(items)).toEqual(["plan", "check", "null"]);
    expect(item(items, "check")?.detail).toBe("function step → review");
  });

  test("next offers every other step; a partial id is replaced", () => {
    const { doc, offset, ranges } = docWithRanges(`${HEAD}${FLOW}        next: «pl<|>»\n`);
    const items = completionsAt(doc, offset);
    expect(labels(items)).toEqual(["plan"]);
    expect(items[0]?.replace).toEqual(ranges[0]);
  });

  test("function names with their modes; flow names for sub-flows", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}      - id: x
        function: <|>
`);
    expect(completionsAt(doc, offset).map((i) => [i.label, i.detail])).toEqual([
      ["review", "infer"],
      ["approve", "gate"],
    ]);
  });

  test("contract names for output_contract; field types take primitives too", () => {
    const a = docAt(`${HEAD}${FLOW}      - id: x
        intent: y
        output_contract: <|>
`);
    expect(labels(completionsAt(a.doc, a.offset))).toEqual(["Review", "Plan"]);
    const b = docAt(`version: "0.2"
contracts:
  C:
    f: {type: <|>}
  D:
    g: {type: string}
`);
    expect(sortedLabels(completionsAt(b.doc, b.offset))).toEqual([
      "string",
      "number",
      "integer",
      "boolean",
      "array",
      "object",
      "C",
      "D",
    ]);
  });

  test("enum values per version", () => {
    const v1 = docAt(`version: "0.1"\nfunctions:\n  f:\n    mode: <|>\n`);
    expect(labels(completionsAt(v1.doc, v1.offset))).toEqual(["infer", "compute"]);
    const v2 = docAt(`version: "0.2"\nfunctions:\n  f:\n    mode: <|>\n`);
    expect(labels(completionsAt(v2.doc, v2.offset))).toEqual(["infer", "compute", "gate"]);
  });

  test("the version is offered quoted (inside quotes: bare)", () => {
    const a = docAt(`version: <|>\n`);
    expect(labels(completionsAt(a.doc, a.offset))).toEqual(['"0.3"', '"0.2"', '"0.1"']);
    const b = docAt(`version: "<|>"\n`);
    expect(labels(completionsAt(b.doc, b.offset))).toEqual(["0.3", "0.2", "0.1"]);
  });

  test("nothing in free text (intent) or comments", () => {
    const { doc, offset } = docAt(`${HEAD}${FLOW}      - id: x\n        intent: "Do <|>it"\n`);
    expect(completionsAt(doc, offset)).toEqual([]);
    const c = docAt(`version: "0.2" # a comm<|>ent\n`);
    expect(completionsAt(c.doc, c.offset)).toEqual([]);
  });
});
