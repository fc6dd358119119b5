// SPEC-DEPENDS-ON-UNKNOWN (docs/reference/language.md §9.5.4): one diagnostic per unknown entry, V:depends_on[i]
// with the start-line rule, did-you-mean over the flow's step ids and a rename fix.
import { describe, expect, it } from "vitest";
import { SPEC_DEPENDS_ON_UNKNOWN } from "../../../../checker/graph/rules/SPEC-DEPENDS-ON-UNKNOWN";
import { runRules } from "../support/model";
import { flowSpec, flowsSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_DEPENDS_ON_UNKNOWN]);

describe("SPEC-DEPENDS-ON-UNKNOWN", () => {
  it("reports each unknown entry at the item, with suggestion and fix for a unique close match", () => {
    const out = run(
      flowSpec(["{id: review, intent: x}", "{id: b, intent: y, depends_on: [revew, review, 'reviw', zzz]}"]),
    );
    expect(out).toEqual([
      {
        code: "SPEC-DEPENDS-ON-UNKNOWN",
        severity: "error",
        path: "flows.f.steps.b.depends_on",
        message: "Step 'b' depends_on unknown step 'revew'",
        line: 11,
        column: 41,
        end_line: 11,
        end_column: 46,
        suggestion: "Did you mean 'review'?",
        fix: {
          description: "Replace 'revew' with 'review'",
          edits: [{ line: 11, column: 41, end_line: 11, end_column: 46, new_text: "review" }],
        },
      },
      {
        code: "SPEC-DEPENDS-ON-UNKNOWN",
        severity: "error",
        path: "flows.f.steps.b.depends_on",
        message: "Step 'b' depends_on unknown step 'reviw'",
        line: 11,
        column: 56,
        end_line: 11,
        end_column: 63,
        suggestion: "Did you mean 'review'?",
        // The quotes stay: only the content is replaced.
        fix: {
          description: "Replace 'reviw' with 'review'",
          edits: [{ line: 11, column: 57, end_line: 11, end_column: 62, new_text: "review" }],
        },
      },
      {
        code: "SPEC-DEPENDS-ON-UNKNOWN",
        severity: "error",
        path: "flows.f.steps.b.depends_on",
        message: "Step 'b' depends_on unknown step 'zzz'",
        line: 11,
        column: 65,
        end_line: 11,
        end_column: 68,
      },
    ]);
  });

  it("a block item on its own line is reported from the depends_on key", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: plan",
      "        intent: x",
      "      - id: b",
      "        intent: y",
      "        depends_on:",
      "          - plan",
      "          - pln",
      "",
    ].join("\n");
    expect(run(text)).toEqual([
      {
        code: "SPEC-DEPENDS-ON-UNKNOWN",
        severity: "error",
        path: "flows.f.steps.b.depends_on",
        message: "Step 'b' depends_on unknown step 'pln'",
        line: 10,
        column: 9,
        end_line: 12,
        end_column: 16,
        suggestion: "Did you mean 'plan'?",
        fix: {
          description: "Replace 'pln' with 'plan'",
          edits: [{ line: 12, column: 13, end_line: 12, end_column: 16, new_text: "plan" }],
        },
      },
    ]);
  });

  it("suggests without a fix when several ids are equally close; ties go to the first declared", () => {
    const [d] = run(
      flowSpec(["{id: ab, intent: x}", "{id: ac, intent: x}", "{id: z, intent: y, depends_on: [ad]}"]),
    );
    expect(d?.suggestion).toBe("Did you mean 'ab'?");
    expect(d?.fix).toBeUndefined();
  });

  it("offers no fix when the id would not load as the same string in a plain scalar", () => {
    const [d] = run(flowSpec(["{id: 'yes', intent: x}", "{id: z, intent: y, depends_on: [yess]}"]));
    expect(d?.suggestion).toBe("Did you mean 'yes'?");
    expect(d?.fix).toBeUndefined();
  });

  it("the candidates are only the step ids of the same flow", () => {
    const out = run(
      flowsSpec([
        ["f", ["{id: a, intent: x, depends_on: [build]}"]],
        ["g", ["{id: build, intent: y}"]],
      ]),
    );
    expect(out.map((d) => [d.message, d.suggestion])).toEqual([
      ["Step 'a' depends_on unknown step 'build'", undefined],
    ]);
  });

  it("known ids (a repeated id, the step itself) and non-string items are not reported", () => {
    expect(
      run(
        flowSpec([
          "{id: a, intent: x}",
          "{id: b, intent: y, depends_on: [a, b, 3, null]}",
          "{id: a, intent: z}",
        ]),
      ),
    ).toEqual([]);
  });

  it("a step without a valid id is skipped (its message could not name it)", () => {
    expect(run(flowSpec(["{id: [x], intent: y, depends_on: [nope]}"]))).toEqual([]);
  });
});
