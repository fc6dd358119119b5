// SPEC-DEPENDENCY-CYCLE (docs/reference/language.md §9.5.4 "Dependency graph"): once per cyclic component, the
// path from its earliest-declared step, anchored on the first edge, every edge as related.
import { describe, expect, it } from "vitest";
import { SPEC_DEPENDENCY_CYCLE } from "../../../../checker/graph/rules/SPEC-DEPENDENCY-CYCLE";
import { runRules } from "../support/model";
import { flowSpec } from "../support/specs";

const run = (text: string) => runRules(text, [SPEC_DEPENDENCY_CYCLE]);

describe("SPEC-DEPENDENCY-CYCLE", () => {
  it("language.md example: a depends on b, b reads $.steps.a.output", () => {
    expect(
      run(
        flowSpec([
          "{id: a, intent: x, depends_on: [b]}",
          '{id: b, intent: y, inputs: {p: "$.steps.a.output"}}',
        ]),
      ),
    ).toEqual([
      {
        code: "SPEC-DEPENDENCY-CYCLE",
        severity: "error",
        path: "flows.f.steps.a.depends_on",
        message: "Cycle detected in step dependencies: a -> b -> a",
        line: 10,
        column: 41,
        end_line: 10,
        end_column: 42,
        related: [
          {
            message: "'a' depends on 'b' here",
            path: "flows.f.steps.a.depends_on",
            line: 10,
            column: 41,
            end_line: 10,
            end_column: 42,
          },
          {
            message: "'b' depends on 'a' here",
            path: "flows.f.steps.b.inputs.p",
            line: 11,
            column: 40,
            end_line: 11,
            end_column: 58,
          },
        ],
      },
    ]);
  });

  it("a step that reads its own output is a cycle of one (path on the input)", () => {
    const out = run(
      flowSpec(["{id: a, intent: x}", '{id: b, intent: y, inputs: {me: "$.steps.b.output.v"}}']),
    );
    expect(out).toEqual([
      {
        code: "SPEC-DEPENDENCY-CYCLE",
        severity: "error",
        path: "flows.f.steps.b.inputs.me",
        message: "Cycle detected in step dependencies: b -> b",
        line: 11,
        column: 41,
        end_line: 11,
        end_column: 61,
        related: [
          {
            message: "'b' depends on 'b' here",
            path: "flows.f.steps.b.inputs.me",
            line: 11,
            column: 41,
            end_line: 11,
            end_column: 61,
          },
        ],
      },
    ]);
  });

  it("prefers the depends_on entry when an input reference leads to the same step", () => {
    const [d] = run(
      flowSpec([
        '{id: a, intent: x, inputs: {p: "$.steps.b.output"}, depends_on: [c, b]}',
        "{id: b, intent: y, depends_on: [a]}",
        "{id: c, intent: z}",
      ]),
    );
    expect(d).toMatchObject({
      path: "flows.f.steps.a.depends_on",
      message: "Cycle detected in step dependencies: a -> b -> a",
      line: 10,
      column: 77,
      end_line: 10,
      end_column: 78,
    });
    expect(d?.related?.map((r) => r.path)).toEqual([
      "flows.f.steps.a.depends_on",
      "flows.f.steps.b.depends_on",
    ]);
  });

  it("starts at the earliest-declared step of the component", () => {
    const out = run(
      flowSpec([
        "{id: p, intent: x, depends_on: [r]}",
        "{id: q, intent: y, depends_on: [p]}",
        "{id: r, intent: z, depends_on: [q]}",
      ]),
    );
    expect(out.map((d) => [d.path, d.message])).toEqual([
      ["flows.f.steps.p.depends_on", "Cycle detected in step dependencies: p -> r -> q -> p"],
    ]);
    expect(out[0]?.related?.map((r) => r.message)).toEqual([
      "'p' depends on 'r' here",
      "'r' depends on 'q' here",
      "'q' depends on 'p' here",
    ]);
  });

  it("follows the earliest successor and backtracks out of a dead end", () => {
    // a -> b; b -> c (earliest), c -> b only: stuck, back to b, then b -> d -> a.
    const out = run(
      flowSpec([
        "{id: a, intent: x, depends_on: [b]}",
        "{id: b, intent: x, depends_on: [d, c]}",
        "{id: c, intent: x, depends_on: [b]}",
        "{id: d, intent: x, depends_on: [a]}",
      ]),
    );
    expect(out.map((d) => d.message)).toEqual(["Cycle detected in step dependencies: a -> b -> d -> a"]);
  });

  it("one diagnostic per cyclic component, none for acyclic parts", () => {
    const out = run(
      flowSpec([
        "{id: a, intent: A, depends_on: [b]}",
        "{id: b, intent: B, depends_on: [a]}",
        '{id: c, intent: C, inputs: {x: "$.steps.d.output"}}',
        "{id: d, intent: D, depends_on: [c]}",
        "{id: e, intent: E, depends_on: [a, d]}",
        "{id: g, intent: G, depends_on: [g, e]}",
      ]),
    );
    expect(out.map((d) => [d.path, d.line, d.message])).toEqual([
      ["flows.f.steps.a.depends_on", 10, "Cycle detected in step dependencies: a -> b -> a"],
      ["flows.f.steps.c.inputs.x", 12, "Cycle detected in step dependencies: c -> d -> c"],
      ["flows.f.steps.g.depends_on", 15, "Cycle detected in step dependencies: g -> g"],
    ]);
  });

  it("a block input value below its key is reported from the key", () => {
    const text = [
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        intent: x",
      "        inputs:",
      "          me:",
      '            "$.steps.a.output"',
      "",
    ].join("\n");
    expect(
      run(text).map((d) => ({
        path: d.path,
        line: d.line,
        column: d.column,
        end_line: d.end_line,
        end_column: d.end_column,
      })),
    ).toEqual([{ path: "flows.f.steps.a.inputs.me", line: 9, column: 11, end_line: 10, end_column: 31 }]);
  });

  it("nothing for an acyclic flow, unknown ids or expression references", () => {
    expect(
      run(
        flowSpec([
          "{id: a, intent: x, depends_on: [zz], skip_if: '$.steps.b.output == None'}",
          '{id: b, intent: y, depends_on: [a], inputs: {p: "$.steps.a.output"}, ensure: ["$.steps.b.output"]}',
        ]),
      ),
    ).toEqual([]);
  });
});
