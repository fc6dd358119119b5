// SPEC-REF-MAY-NOT-HAVE-RUN (docs/reference/language.md §8, docs/reference/language.md §9.5.5): both message variants, the related location,
// transitive dependencies through inputs and depends_on, and references in expressions adding no
// dependency edge.
import { describe, expect, it } from "vitest";
import { diagnose, loc, locAt } from "./harness";

const SPEC = `version: "0.2"
flows:
  f:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
        inputs: {x: "$.steps.a.output"}
      - id: c
        intent: "C"
        depends_on: [b]
        skip_if: "$.steps.a.output.done"
      - id: d
        intent: "D"
        skip_if: "$.steps.a.output.done"
        ensure: ["$.steps.d.output == None"]
      - id: e
        intent: "E"
        depends_on: [d]
        skip_if: "$.steps.a.output.x or $.steps.d.output.y"
      -
        id: late
        intent: "L"
      - id: early
        intent: "R"
        max_iterations: 2
        exit_criterion: "$.steps.late.output"
`;

describe("SPEC-REF-MAY-NOT-HAVE-RUN", () => {
  const ds = diagnose(SPEC);

  it("warns exactly where the referenced step is not a transitive dependency", () => {
    expect(ds.map((d) => [d.code, d.severity, d.path, d.message])).toEqual([
      [
        "SPEC-REF-MAY-NOT-HAVE-RUN",
        "warning",
        "flows.f.steps.d.skip_if",
        "'$.steps.a.output.done' may not have run when step 'd' evaluates skip_if: 'a' is not a dependency of 'd' (add it to depends_on)",
      ],
      [
        "SPEC-REF-MAY-NOT-HAVE-RUN",
        "warning",
        "flows.f.steps.d.ensure.0",
        "'$.steps.d.output' reads step 'd' itself, whose output is not stored when ensure is evaluated",
      ],
      [
        "SPEC-REF-MAY-NOT-HAVE-RUN",
        "warning",
        "flows.f.steps.e.skip_if",
        "'$.steps.a.output.x' may not have run when step 'e' evaluates skip_if: 'a' is not a dependency of 'e' (add it to depends_on)",
      ],
      [
        "SPEC-REF-MAY-NOT-HAVE-RUN",
        "warning",
        "flows.f.steps.early.exit_criterion",
        "'$.steps.late.output' may not have run when step 'early' evaluates exit_criterion: 'late' is not a dependency of 'early' (add it to depends_on)",
      ],
    ]);
  });

  it("anchors the whole reference and relates the referenced step's E anchor", () => {
    const [first, self, , late] = ds;
    expect(first).toMatchObject(loc(SPEC, "$.steps.a.output.done", 1));
    expect(first?.related).toEqual([
      { message: "'a' is declared here", path: "flows.f.steps.a", ...locAt(SPEC, "id: a", "a") },
    ]);
    expect(self).toMatchObject(locAt(SPEC, "$.steps.d.output ==", "$.steps.d.output"));
    expect(self?.related).toEqual([
      { message: "'d' is declared here", path: "flows.f.steps.d", ...locAt(SPEC, "id: d", "d") },
    ]);
    // `late`'s id is not on the line of its `-`: E is the `-` indicator.
    const dash = loc(SPEC, "-\n        id: late");
    expect(late?.related).toEqual([
      {
        message: "'late' is declared here",
        path: "flows.f.steps.late",
        line: dash.line,
        column: dash.column,
        end_line: dash.line,
        end_column: dash.column + 1,
      },
    ]);
    expect(first?.fix).toBeUndefined();
    expect(first?.suggestion).toBeUndefined();
  });
});
