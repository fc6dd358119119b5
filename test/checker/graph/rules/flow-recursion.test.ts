// SPEC-FLOW-RECURSION (docs/reference/language.md §9.5.4 "Recursion", DIV-RECURSION): shortest call chain,
// one diagnostic per calling step, path `flows.<F>`, anchor the step's `flow` value (not moved).
import { describe, expect, it } from "vitest";
import { SPEC_FLOW_RECURSION } from "../../../../checker/graph/rules/SPEC-FLOW-RECURSION";
import { runRules } from "../support/model";
import { flowsSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_FLOW_RECURSION]);
const brief = (text: string) => run(text).map((d) => [d.path, d.line, d.message]);

describe("SPEC-FLOW-RECURSION", () => {
  it("a flow that calls itself", () => {
    expect(run(flowsSpec([["f", ["{id: a, flow: f}"]]]))).toEqual([
      {
        code: "SPEC-FLOW-RECURSION",
        severity: "error",
        path: "flows.f",
        message:
          "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> f)",
        line: 6,
        column: 23,
        end_line: 6,
        end_column: 24,
      },
    ]);
  });

  it("f -> g -> h -> f: every step of the ring, each with its own chain and related calls", () => {
    const out = run(
      flowsSpec([
        ["f", ["{id: a, flow: g}"]],
        ["g", ["{id: b, flow: h}"]],
        ["h", ["{id: c, flow: f}"]],
      ]),
    );
    expect(out.map((d) => [d.path, d.line, d.message])).toEqual([
      [
        "flows.f",
        6,
        "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> g -> h -> f)",
      ],
      [
        "flows.g",
        10,
        "Recursive flow reference detected: 'g' is referenced from within its own call chain (g -> h -> f -> g)",
      ],
      [
        "flows.h",
        14,
        "Recursive flow reference detected: 'h' is referenced from within its own call chain (h -> f -> g -> h)",
      ],
    ]);
    expect(out[0]?.related).toEqual([
      {
        message: "'g' calls 'h' here",
        path: "flows.g.steps.b.flow",
        line: 10,
        column: 23,
        end_line: 10,
        end_column: 24,
      },
      {
        message: "'h' calls 'f' here",
        path: "flows.h.steps.c.flow",
        line: 14,
        column: 23,
        end_line: 14,
        end_column: 24,
      },
    ]);
  });

  it("diamonds and repeated calls are not recursion (the DIV-RECURSION false positive)", () => {
    expect(
      brief(
        flowsSpec([
          ["leaf", ["{id: x, intent: y}"]],
          ["m1", ["{id: a, flow: leaf}", "{id: a2, flow: leaf}"]],
          ["top", ["{id: p, flow: m1}", "{id: q, flow: leaf}", "{id: r, flow: m1}"]],
        ]),
      ),
    ).toEqual([]);
  });

  it("flows that only call into a recursive group are not reported", () => {
    expect(
      brief(
        flowsSpec([
          ["top", ["{id: t, flow: f}"]],
          ["f", ["{id: a, flow: g}"]],
          ["g", ["{id: b, flow: f}"]],
        ]),
      ),
    ).toEqual([
      [
        "flows.f",
        10,
        "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> g -> f)",
      ],
      [
        "flows.g",
        14,
        "Recursive flow reference detected: 'g' is referenced from within its own call chain (g -> f -> g)",
      ],
    ]);
  });

  it("each calling step is reported; the chain is the shortest, ties by flow then step order", () => {
    // f calls g twice; g reaches f directly (via its second step) and through h (longer).
    const out = run(
      flowsSpec([
        ["f", ["{id: a, flow: g}", "{id: a2, flow: g}", "{id: a3, intent: x}"]],
        ["h", ["{id: c, flow: f}"]],
        ["g", ["{id: b, flow: h}", "{id: b2, flow: f}", "{id: b3, flow: f}"]],
      ]),
    );
    expect(out.filter((d) => d.path === "flows.f").map((d) => [d.line, d.message, d.related])).toEqual([
      [
        6,
        "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> g -> f)",
        [
          {
            message: "'g' calls 'f' here",
            path: "flows.g.steps.b2.flow",
            line: 17,
            column: 24,
            end_line: 17,
            end_column: 25,
          },
        ],
      ],
      [
        7,
        "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> g -> f)",
        [
          {
            message: "'g' calls 'f' here",
            path: "flows.g.steps.b2.flow",
            line: 17,
            column: 24,
            end_line: 17,
            end_column: 25,
          },
        ],
      ],
    ]);
    expect(out.map((d) => [d.path, d.line])).toEqual([
      ["flows.f", 6],
      ["flows.f", 7],
      ["flows.h", 12],
      ["flows.g", 16],
      ["flows.g", 17],
      ["flows.g", 18],
    ]);
  });

  it("among equally short chains the earlier-declared intermediate flow wins", () => {
    // From g, f is reached through p (g's first step) or q (declared before p): q wins.
    const out = run(
      flowsSpec([
        ["f", ["{id: a, flow: g}"]],
        ["q", ["{id: c, flow: f}"]],
        ["g", ["{id: b, flow: p}", "{id: b2, flow: q}"]],
        ["p", ["{id: d, flow: f}"]],
      ]),
    );
    expect(out[0]?.message).toBe(
      "Recursive flow reference detected: 'f' is referenced from within its own call chain (f -> g -> q -> f)",
    );
  });

  it("the anchor is the flow value even when it is written below its key", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        flow:",
      "          f",
      "",
    ].join("\n");
    expect(run(text).map((d) => [d.path, d.line, d.column, d.end_line, d.end_column])).toEqual([
      ["flows.f", 8, 11, 8, 12],
    ]);
  });

  it("calls to undefined flows are ignored", () => {
    expect(brief(flowsSpec([["f", ["{id: a, flow: nope}"]]]))).toEqual([]);
  });
});
