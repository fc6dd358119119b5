// The scenario comparison itself (test/conformance/recorded/README.md §2.2–2.3), on hand-made responses: so a passing replay
// means the engine agrees, not that the comparison is lax.
import { describe, expect, it } from "vitest";
import { firstDifference } from "./compare";
import { FlowIdNames, normaliseResponse } from "./normalise";
import { type ScenarioRun, scenarioFailures } from "./run-scenario";
import { parseScenario, type Scenario } from "./scenario";

const A = "0f8fad5b-d9cb-469f-a165-70867728950e";
const B = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

describe("firstDifference", () => {
  it("allows extra keys but not missing ones", () => {
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 })).toBeNull();
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toEqual({
      path: "$.b",
      reason: "missing key",
      expected: 2,
      actual: undefined,
    });
  });

  it("compares numbers numerically and everything else exactly", () => {
    expect(firstDifference({ n: 1 }, { n: 1.0 })).toBeNull();
    expect(firstDifference({ n: 1 }, { n: 1n })).toBeNull();
    expect(firstDifference({ n: 1 }, { n: "1" })?.reason).toBe("expected number, got string");
    expect(firstDifference({ s: "a" }, { s: "b" })?.path).toBe("$.s");
    expect(firstDifference(null, { status: "complete" })?.reason).toBe("expected null, got object");
    expect(firstDifference(false, null)?.reason).toBe("expected boolean, got null");
  });

  it("needs arrays of the same length and names the first differing element", () => {
    expect(firstDifference([1, 2], [1, 2, 3])?.reason).toBe("expected 2 elements, got 3");
    expect(
      firstDifference({ trace: [{ id: "a" }, { id: "b" }] }, { trace: [{ id: "a" }, { id: "c" }] }),
    ).toEqual({
      path: "$.trace[1].id",
      reason: "values differ",
      expected: "b",
      actual: "c",
    });
    expect(firstDifference({ "odd key": 1 }, { "odd key": 2 })?.path).toBe('$["odd key"]');
  });

  it("compares yaml texts as documents when asked", () => {
    const recorded = { yaml: "a: 1\nb: [x, y]\n" };
    const same = { yaml: "b:\n- x\n- 'y'\na: 1\n" };
    expect(firstDifference(recorded, same, { yamlKeys: true })).toBeNull();
    expect(firstDifference(recorded, same)?.reason).toBe("values differ");
    expect(firstDifference(recorded, { yaml: "a: 1\nb: [x, y]\nc: 2\n" }, { yamlKeys: true })?.path).toBe(
      "$.yaml<yaml>.c",
    );
    // PyYAML's typing: `yes` is a boolean, `y` is a string.
    expect(firstDifference({ yaml: "a: true" }, { yaml: "a: yes" }, { yamlKeys: true })).toBeNull();
    expect(firstDifference({ yaml: "a: 'y'" }, { yaml: "a: y" }, { yamlKeys: true })).toBeNull();
    expect(firstDifference({ yaml: "a: '1'" }, { yaml: "a: 1" }, { yamlKeys: true })?.reason).toBe(
      "expected string, got number",
    );
  });
});

describe("normalisation", () => {
  it("zeroes timing keys at any depth and replaces the working directory", () => {
    const got = normaliseResponse(
      {
        total_duration_ms: 12,
        trace: [{ duration_ms: 3, x: 4 }],
        path: "/w/s/a.yaml",
        remaining_seconds: 1.5,
      },
      "/w/s",
    );
    expect(got).toEqual({
      total_duration_ms: 0,
      trace: [{ duration_ms: 0, x: 4 }],
      path: "<CWD>/a.yaml",
      remaining_seconds: 0,
    });
  });

  it("renames flow ids one-to-one, including inside messages", () => {
    const names = new FlowIdNames();
    names.learn({ flow_id: "FLOW_1", child_flow_id: "FLOW_2" }, { flow_id: A, child_flow_id: B });
    expect(names.rename({ message: `No checkpoint 'x' on flow '${B}'`, id: A })).toEqual({
      message: "No checkpoint 'x' on flow 'FLOW_2'",
      id: "FLOW_1",
    });
    expect(names.conflicts).toEqual([]);
    names.learn({ flow_id: "FLOW_1" }, { flow_id: B });
    expect(names.conflicts).toHaveLength(1);
  });

  it("learns ids from recorded messages", () => {
    const names = new FlowIdNames();
    names.learn({ message: "No active flow with id 'FLOW_3'" }, { message: `No active flow with id '${A}'` });
    expect(names.rename(A)).toBe("FLOW_3");
  });
});

function scenario(reference: unknown[], extra: Partial<Scenario> = {}): Scenario {
  const base = parseScenario(
    JSON.stringify({
      name: "t",
      description: "",
      spec: "",
      flow: "f",
      inputs: {},
      actions: reference.slice(1).map(() => ({ op: "audit" })),
      reference: reference.map((response) => ({ op: "audit", response })),
    }),
  );
  return { ...base, ...extra };
}

function run(responses: unknown[], hooks: number[] = []): ScenarioRun {
  return { responses, hooks: new Set(hooks), problems: [] };
}

describe("scenarioFailures", () => {
  it("accepts a consistent renaming whatever the ids are", () => {
    const s = scenario([{ flow_id: "FLOW_1" }, { flow_id: "FLOW_1", child: "FLOW_2" }]);
    expect(scenarioFailures(s, run([{ flow_id: A }, { flow_id: A, child: B }]), "/cwd")).toEqual([]);
  });

  it("reports a response that swaps two flows", () => {
    const s = scenario([{ flow_id: "FLOW_1" }, { flow_id: "FLOW_2" }]);
    const failures = scenarioFailures(s, run([{ flow_id: A }, { flow_id: A }]), "/cwd");
    expect(failures.length).toBeGreaterThan(0);
  });

  it("skips hooks and divergences without expect, and checks divergence subsets", () => {
    const s = scenario([{ status: "a" }, { status: "x" }, { status: "y" }, { status: "z" }], {
      expect_divergences: [
        { id: "D7", ops: [2], note: "" },
        { id: "D7", ops: [3], note: "", expect: { "3": { status: "complete" } } },
      ],
    });
    expect(
      scenarioFailures(
        s,
        run([{ status: "a" }, undefined, { status: "?" }, { status: "complete", more: 1 }], [1]),
        "/c",
      ),
    ).toEqual([]);
    const failures = scenarioFailures(
      s,
      run([{ status: "a" }, undefined, {}, { status: "error" }], [1]),
      "/c",
    );
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain("#3 audit (vs expect of D7) at $.status: values differ");
  });
});
