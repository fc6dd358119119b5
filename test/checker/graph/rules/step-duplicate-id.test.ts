// SPEC-STEP-DUPLICATE-ID (docs/reference/language.md §9.5.4): index path, V:id anchor, related first declaration.
import { describe, expect, it } from "vitest";
import { SPEC_STEP_DUPLICATE_ID } from "../../../../checker/graph/rules/SPEC-STEP-DUPLICATE-ID";
import { runRules } from "../support/model";
import { flowSpec, flowsSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_STEP_DUPLICATE_ID]);

describe("SPEC-STEP-DUPLICATE-ID", () => {
  it("reports every repetition after the first, each related to the first declaration", () => {
    const out = run(
      flowSpec(["{id: a, intent: x}", "{id: b, intent: y}", "{id: a, intent: z}", "{id: 'a', intent: w}"]),
    );
    const first = {
      message: "'a' is first declared here",
      path: "flows.f.steps.0.id",
      line: 10,
      column: 14,
      end_line: 10,
      end_column: 15,
    };
    expect(out).toEqual([
      {
        code: "SPEC-STEP-DUPLICATE-ID",
        severity: "error",
        path: "flows.f.steps.2.id",
        message: "Step id 'a' is declared more than once in flow 'f'",
        line: 12,
        column: 14,
        end_line: 12,
        end_column: 15,
        related: [first],
      },
      {
        code: "SPEC-STEP-DUPLICATE-ID",
        severity: "error",
        path: "flows.f.steps.3.id",
        message: "Step id 'a' is declared more than once in flow 'f'",
        line: 13,
        column: 14,
        end_line: 13,
        end_column: 17,
        related: [first],
      },
    ]);
  });

  it("an id value below its key is reported from the key (start-line rule)", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - intent: x",
      "        id: s",
      "      - intent: y",
      "        id:",
      "          s",
      "",
    ].join("\n");
    const [d] = run(text);
    expect(d).toMatchObject({ path: "flows.f.steps.1.id", line: 9, column: 9, end_line: 10, end_column: 12 });
    expect(d?.related).toEqual([
      {
        message: "'s' is first declared here",
        path: "flows.f.steps.0.id",
        line: 7,
        column: 13,
        end_line: 7,
        end_column: 14,
      },
    ]);
  });

  it("the same id in two flows, and steps without a valid id, are fine", () => {
    expect(
      run(
        flowsSpec([
          ["f", ["{id: a, intent: x}"]],
          ["g", ["{id: a, intent: y}"]],
        ]),
      ),
    ).toEqual([]);
    expect(run(flowSpec(["{id: 1, intent: x}", "{id: 1, intent: y}", "{intent: z}", "{intent: w}"]))).toEqual(
      [],
    );
  });

  it("names the flow in the message", () => {
    const out = run(flowsSpec([["main", ["{id: x, intent: a}", "{id: x, intent: b}"]]]));
    expect(out.map((d) => [d.path, d.message])).toEqual([
      ["flows.main.steps.1.id", "Step id 'x' is declared more than once in flow 'main'"],
    ]);
  });
});
