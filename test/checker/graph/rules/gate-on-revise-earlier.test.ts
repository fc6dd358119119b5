// SPEC-GATE-ON-REVISE-EARLIER (docs/reference/language.md §9.5.4, DIV-ON-REVISE-ORDER): positions in the
// execution order over depends_on and input references.
import { describe, expect, it } from "vitest";
import { SPEC_GATE_ON_REVISE_EARLIER } from "../../../../checker/graph/rules/SPEC-GATE-ON-REVISE-EARLIER";
import { runRules } from "../support/model";
import { flowSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_GATE_ON_REVISE_EARLIER]);
const GATE = "function: review, on_approve: null, on_kill: null";

describe("SPEC-GATE-ON-REVISE-EARLIER", () => {
  it("a target that depends on the gate executes after it", () => {
    expect(
      run(
        flowSpec([`{id: r, ${GATE}, on_revise: a}`, "{id: a, function: work, inputs: {}, depends_on: [r]}"]),
      ),
    ).toEqual([
      {
        code: "SPEC-GATE-ON-REVISE-EARLIER",
        severity: "error",
        path: "flows.f.steps.r.on_revise",
        message:
          "Gate step 'r' on_revise must target a topologically-earlier step, but 'a' executes at or after 'r'",
        line: 10,
        column: 79,
        end_line: 10,
        end_column: 80,
        related: [
          {
            message: "'a' is declared here",
            path: "flows.f.steps.a",
            line: 11,
            column: 14,
            end_line: 11,
            end_column: 15,
          },
        ],
      },
    ]);
  });

  it("a later-declared target with no dependency executes after the gate", () => {
    expect(
      run(flowSpec([`{id: r, ${GATE}, on_revise: a}`, "{id: a, intent: x}"])).map((d) => d.path),
    ).toEqual(["flows.f.steps.r.on_revise"]);
  });

  it("DIV-ON-REVISE-ORDER: a gate declared first that reads its target's output is fine", () => {
    expect(
      run(
        flowSpec([`{id: r, ${GATE}, inputs: {w: "$.steps.a.output"}, on_revise: a}`, "{id: a, intent: A}"]),
      ),
    ).toEqual([]);
  });

  it("an earlier target is fine", () => {
    expect(run(flowSpec(["{id: a, intent: x}", `{id: r, ${GATE}, on_revise: a}`]))).toEqual([]);
  });

  it("not checked for itself, unknown or null targets, non-gates, or a flow with a cycle", () => {
    expect(run(flowSpec([`{id: r, ${GATE}, on_revise: r}`]))).toEqual([]);
    expect(run(flowSpec([`{id: r, ${GATE}, on_revise: zz}`]))).toEqual([]);
    expect(run(flowSpec([`{id: r, ${GATE}, on_revise: null}`, "{id: a, intent: x}"]))).toEqual([]);
    expect(run(flowSpec(["{id: r, intent: x, on_revise: a}", "{id: a, intent: x}"]))).toEqual([]);
    expect(
      run(
        flowSpec([
          `{id: r, ${GATE}, on_revise: a}`,
          "{id: a, intent: x, depends_on: [b]}",
          "{id: b, intent: x, depends_on: [a]}",
        ]),
      ),
    ).toEqual([]);
  });

  it("a block value below its key is reported from the key; related at the target's first line", () => {
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
      "        on_revise:",
      "          publish",
      "      - intent: x",
      "        id: publish",
      "",
    ].join("\n");
    const [d] = run(text);
    expect(d).toMatchObject({ line: 12, column: 9, end_line: 13, end_column: 18 });
    expect(d?.related).toEqual([
      {
        message: "'publish' is declared here",
        path: "flows.f.steps.publish",
        line: 14,
        column: 9,
        end_line: 14,
        end_column: 15,
      },
    ]);
  });
});
