// A flow's fuzz depends on the flows it can run and on nothing else in the spec: flows it cannot
// reach, declared before it, leave its report as it was, witnesses included (the scenario draws
// values for the steps of reachable flows only). Those flows share the function of the others and
// add no literal, and where they are left out comment lines keep every line number the same.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/fuzz-spec";

const HEAD = `version: "0.2"
contracts:
  R:
    a: { type: integer }
    b: { type: integer }
functions:
  divide:
    mode: infer
    intent: "x"
    input: {}
    output: R
    ensure:
      - "result.a // (result.b - 0) >= 0"
    retries: 1
flows:
`;

const TAIL = `  main:
    input: {}
    steps:
      - id: first
        function: divide
        inputs: {}
      - id: nested
        flow: child
        inputs: {}
        depends_on: [first]
  child:
    input: {}
    steps:
      - id: inner
        function: divide
        inputs: {}
`;

function unrelated(n: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `  u${i}:\n    input: {}\n    steps:\n      - id: s\n        function: divide\n        inputs: {}\n`,
  ).join("");
}

/** The same lines as `unrelated(n)`, all comments. */
function blank(n: number): string {
  return unrelated(n).replace(/^.*$/gm, (line) => (line === "" ? line : "#"));
}

describe("a flow's fuzz and the flows it cannot reach", () => {
  it("unreachable flows declared before it leave its report unchanged, witnesses included", async () => {
    for (const seed of [1, 42]) {
      const withoutOthers = HEAD + blank(12) + TAIL;
      const withOthers = HEAD + unrelated(12) + TAIL;
      const alone = await fuzzSpec(withoutOthers, { flow: "main", seed, runs: 60 });
      const among = await fuzzSpec(withOthers, { flow: "main", seed, runs: 60 });
      expect(alone.report?.findings.length).toBeGreaterThan(0);
      expect(alone.report?.findings.some((f) => f.counterexample !== null)).toBe(true);
      // The report quotes the spec (the witnesses' plan calls): the same once each is named.
      const named = (report: unknown, text: string) =>
        JSON.stringify(report).split(JSON.stringify(text).slice(1, -1)).join("SPEC");
      expect(named(among.report, withOthers)).toEqual(named(alone.report, withoutOthers));
    }
  });
});

/** `main` always runs `child` in fast mode, where child's `extra` step is skipped. */
const MODES = `version: "0.2"
contracts:
  Out:
    n: { type: integer }
functions:
  work:
    mode: infer
    intent: "x"
    input: {}
    output: Out
flows:
  spare:
    input: {}
    steps:
      - id: never_asked
        function: work
        inputs: {}
  main:
    input: {}
    steps:
      - id: nested
        flow: child
        inputs:
          mode: "fast"
  child:
    input:
      mode: { type: string }
    steps:
      - id: always
        function: work
        inputs: {}
      - id: extra
        function: work
        inputs: {}
        skip_if: "$.input.mode == 'fast'"
`;

describe("dead steps when one flow is fuzzed", () => {
  it("none is claimed in a flow left out, nor in a sub-flow that other inputs would take further", async () => {
    const one = await fuzzSpec(MODES, { flow: "main" });
    expect(one.report?.findings.filter((f) => f.code === "FUZZ-DEAD-STEP")).toEqual([]);
    expect(one.report?.soundness.main?.no_dead_steps).toBe("proven");
    // Every flow fuzzed: child planned on its own takes the other mode, and spare runs its step.
    const all = await fuzzSpec(MODES);
    expect(all.report?.findings.filter((f) => f.code === "FUZZ-DEAD-STEP")).toEqual([]);
    expect(Object.keys(all.report?.soundness ?? {}).sort()).toEqual(["child", "main", "spare"]);
  });

  it("a step no run can dispatch is still dead in the flow that was fuzzed", async () => {
    // escalate is reached only through an on_fail its step's ensure never takes.
    const text = readFileSync(join(__dirname, "corpus/dead-step-1.stratum.yaml"), "utf8");
    const one = await fuzzSpec(text, { flow: "main" });
    const dead = one.report?.findings.filter((f) => f.code === "FUZZ-DEAD-STEP").map((f) => f.step);
    expect(dead).toEqual(["escalate"]);
  });
});
