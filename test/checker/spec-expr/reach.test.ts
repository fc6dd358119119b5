// The targeted dependency search used by SPEC-REF-MAY-NOT-HAVE-RUN agrees with the flow graph's
// transitive dependencies on random graphs (depends_on and input edges, cycles and self-edges).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFlowGraph } from "../../../checker/graph/index";
import { dependsOn } from "../../../checker/spec-expr/reach";
import { runPhase } from "./harness";

function specOf(n: number, edges: readonly [number, number, boolean][]): string {
  const lines = ['version: "0.2"', "flows:", "  f:", "    input: {}", "    steps:"];
  for (let i = 0; i < n; i++) {
    lines.push(`      - id: s${i}`, `        intent: "S"`);
    const deps = edges.filter(([from, , input]) => from === i && !input).map(([, to]) => `s${to}`);
    const inputs = edges.filter(([from, , input]) => from === i && input);
    if (deps.length > 0) lines.push(`        depends_on: [${deps.join(", ")}]`);
    if (inputs.length > 0) {
      lines.push("        inputs:");
      inputs.forEach(([, to], k) => {
        lines.push(`          i${k}: $.steps.s${to}.output`);
      });
    }
  }
  return `${lines.join("\n")}\n`;
}

describe("dependsOn", () => {
  it("agrees with transitiveDependencies", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 9 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.boolean()), { maxLength: 2 * n }),
            ),
          ),
        ([n, edges]) => {
          const { model } = runPhase(specOf(n, edges));
          const flow = model.flows[0];
          if (flow === undefined) throw new Error("no flow");
          const graph = buildFlowGraph(flow);
          for (const s of flow.steps) {
            const deps = graph.transitiveDependencies(s);
            for (const t of flow.steps) {
              expect(dependsOn(flow, s, t.id ?? "")).toBe(deps.has(t.id ?? ""));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("answers every query on a 3,000-step chain", () => {
    const n = 3000;
    const { model } = runPhase(
      specOf(
        n,
        Array.from({ length: n - 1 }, (_, i) => [i + 1, i, true] as const),
      ),
    );
    const flow = model.flows[0];
    if (flow === undefined) throw new Error("no flow");
    let count = 0;
    for (const s of flow.steps) if (dependsOn(flow, s, "s0")) count++;
    expect(count).toBe(n - 1);
  });
});
