// SPEC-STEP-UNREACHABLE (docs/reference/language.md §9.5.4 "Reachability"): a warning at the step's E anchor.
import { describe, expect, it } from "vitest";
import { SPEC_STEP_UNREACHABLE } from "../../../../checker/graph/rules/SPEC-STEP-UNREACHABLE";
import { runRules } from "../support/model";
import { flowSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_STEP_UNREACHABLE]);
const unreachable = (steps: readonly string[]) =>
  run(flowSpec(steps)).map((d) => d.path.replace("flows.f.steps.", ""));
const GATE = "function: review, on_approve: null, on_kill: null";

describe("SPEC-STEP-UNREACHABLE", () => {
  it("a step after a terminal gate that nothing routes to", () => {
    expect(
      run(
        flowSpec([
          "{id: a, function: work, inputs: {}}",
          `{id: r, ${GATE}, on_revise: a}`,
          "{id: z, intent: never}",
        ]),
      ),
    ).toEqual([
      {
        code: "SPEC-STEP-UNREACHABLE",
        severity: "warning",
        path: "flows.f.steps.z",
        message: "Step 'z' can never run: no route from the first step reaches it",
        line: 12,
        column: 14,
        end_line: 12,
        end_column: 15,
      },
    ]);
  });

  it("gate routes reach their targets; a gate does not fall through", () => {
    expect(
      unreachable([
        "{id: a, intent: x}",
        "{id: r, function: review, on_approve: c, on_kill: null, on_revise: a}",
        "{id: b, intent: skipped}",
        "{id: c, intent: y}",
      ]),
    ).toEqual(["b"]);
    expect(
      unreachable([
        "{id: a, intent: x}",
        "{id: r, function: review, on_approve: null, on_kill: k, on_revise: a}",
        "{id: b, intent: y}",
        "{id: k, intent: z}",
      ]),
    ).toEqual(["b"]);
    expect(
      unreachable([
        "{id: r, function: review, on_approve: null, on_kill: null, on_revise: b}",
        "{id: a, intent: y}",
        "{id: b, intent: z}",
      ]),
    ).toEqual(["a"]);
  });

  it("an absent on_approve or on_kill leads to the end (its default null)", () => {
    expect(unreachable(["{id: r, function: review, on_revise: r}", "{id: z, intent: y}"])).toEqual(["z"]);
  });

  it("next and on_fail add edges; a non-gate step always falls through", () => {
    expect(
      unreachable([
        "{id: a, intent: x, next: c}",
        `{id: g1, ${GATE}, on_revise: a}`,
        "{id: dead1, intent: x}",
        "{id: c, intent: x, on_fail: e}",
        `{id: g2, ${GATE}, on_revise: a}`,
        "{id: dead2, intent: x}",
        "{id: e, intent: x}",
        "{id: last, intent: x}",
      ]),
    ).toEqual(["dead1", "dead2"]);
  });

  it("positions follow the execution order, not the declaration order", () => {
    // Execution order: a, b, r (r reads b's output), z. r is a terminal gate, so z is dead.
    expect(
      unreachable([
        "{id: a, intent: x}",
        `{id: r, ${GATE}, on_revise: a, inputs: {p: "$.steps.b.output"}}`,
        "{id: b, intent: y}",
        "{id: z, intent: y}",
      ]),
    ).toEqual(["z"]);
    // Declared order would make b dead; in execution order b runs before the gate.
    expect(
      unreachable([
        "{id: a, intent: x}",
        `{id: r, ${GATE}, on_revise: a, depends_on: [b]}`,
        "{id: b, intent: y}",
      ]),
    ).toEqual([]);
  });

  it("a step whose kind is unknown is treated as a non-gate step", () => {
    expect(unreachable(["{id: a, function: undefined_fn}", "{id: b, intent: y}"])).toEqual([]);
    expect(unreachable(["{id: a, intent: x, flow: f}", "{id: b, intent: y}"])).toEqual([]);
  });

  it("skipped when the flow has a cycle or a route is structurally invalid", () => {
    expect(
      unreachable([`{id: r, ${GATE}, on_revise: r, depends_on: [z]}`, "{id: z, intent: y, depends_on: [r]}"]),
    ).toEqual([]);
    expect(
      unreachable([
        "{id: r, function: review, on_approve: [x], on_kill: null, on_revise: r}",
        "{id: z, intent: y}",
      ]),
    ).toEqual([]);
  });

  it("the anchor is the step's first line for a block step whose id comes later", () => {
    const text = [
      'version: "0.2"',
      "functions:",
      "  review: {mode: gate}",
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: r",
      "        function: review",
      "        on_approve: null",
      "        on_kill: null",
      "        on_revise: r",
      "      - intent: never",
      "        id: z",
      "",
    ].join("\n");
    expect(run(text).map((d) => [d.path, d.line, d.column, d.end_line, d.end_column])).toEqual([
      ["flows.f.steps.z", 13, 9, 13, 15],
    ]);
  });

  it("every step of a plain sequence is reachable", () => {
    expect(unreachable(["{id: a, intent: x}", "{id: b, intent: y}", "{id: c, intent: z}"])).toEqual([]);
  });
});
