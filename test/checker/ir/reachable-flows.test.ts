// The flows a run of one flow can touch: itself and every flow its `flow:` steps start, however
// deep. Against an independent closure over random call graphs (acyclic, as the checker requires).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec, reachableFlows } from "../../../checker/index";

/** `calls[i]`: the flows flow i starts (each later than i, so the graph has no cycle). */
function specOf(calls: readonly (readonly number[])[]): string {
  const flows = calls.map((called, i) => {
    const steps = [`      - id: work\n        function: work\n        inputs: {}`];
    for (const j of called) steps.push(`      - id: run_f${j}\n        flow: f${j}\n        inputs: {}`);
    return `  f${i}:\n    input: {}\n    steps:\n${steps.join("\n")}`;
  });
  return [
    'version: "0.2"',
    "contracts:\n  Out:\n    n: { type: integer }",
    'functions:\n  work:\n    mode: infer\n    intent: "x"\n    input: {}\n    output: Out',
    `flows:\n${flows.join("\n")}`,
    "",
  ].join("\n");
}

/** Every flow reachable from `root` by repeated steps along `calls`, as a sorted list of names. */
function closure(calls: readonly (readonly number[])[], root: number): string[] {
  const seen = new Set<number>([root]);
  const todo = [root];
  while (todo.length > 0) for (const j of calls[todo.pop()!]!) if (!seen.has(j) && seen.add(j)) todo.push(j);
  return [...seen].map((i) => `f${i}`).sort();
}

const callGraph = fc
  .integer({ min: 1, max: 7 })
  .chain((n) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        i + 1 < n
          ? fc.uniqueArray(fc.integer({ min: i + 1, max: n - 1 }), { maxLength: 3 })
          : fc.constant<number[]>([]),
      ),
    ),
  );

describe("reachableFlows", () => {
  it("is the root, then each flow its sub-flow steps reach, once, whatever the call graph", () => {
    fc.assert(
      fc.property(callGraph, (calls) => {
        const spec = checkSpec(specOf(calls));
        expect(spec.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        for (let i = 0; i < calls.length; i++) {
          const names = reachableFlows(spec.ir!, spec.ir!.flows.get(`f${i}`)!).map((f) => f.name);
          expect(names[0]).toBe(`f${i}`);
          expect(new Set(names).size).toBe(names.length);
          expect([...names].sort()).toEqual(closure(calls, i));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("follows a sub-flow that is called from several steps once, depth first in step order", () => {
    const spec = checkSpec(specOf([[2, 1], [3], [3], []]));
    const order = reachableFlows(spec.ir!, spec.ir!.flows.get("f0")!).map((f) => f.name);
    expect(order).toEqual(["f0", "f2", "f3", "f1"]);
  });
});
