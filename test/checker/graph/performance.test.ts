// Large flows: 5,000 steps (long chains, one huge cycle, many gates) and long flow-call chains.
// Every algorithm is iterative (no stack overflow) and near-linear; the time limits are generous
// ceilings that a quadratic blow-up would exceed.
import { describe, expect, it } from "vitest";
import { analyseFlow } from "../../../checker/graph/analysis";
import { GRAPH_RULES } from "../../../checker/graph/index";
import type { SpecModel } from "../../../checker/model/types";
import { DiagnosticSink } from "../../../checker/report";
import { flowOf, specModel } from "./support/model";
import { flowSpec, flowsSpec } from "./support/specs";

const N = 5000;
// About 50 ms each here; a quadratic algorithm on 5,000 steps would take seconds.
const LIMIT_MS = 1500;

function timed(model: SpecModel): { ms: number; sink: DiagnosticSink } {
  const sink = new DiagnosticSink();
  const t0 = performance.now();
  for (const rule of GRAPH_RULES) rule.check(model, sink);
  return { ms: performance.now() - t0, sink };
}

describe("graph performance", () => {
  it("a chain of 5,000 steps declared in reverse order", () => {
    const steps = Array.from({ length: N }, (_, i) =>
      i === N - 1 ? `{id: s${i}, intent: x}` : `{id: s${i}, intent: x, depends_on: [s${i + 1}]}`,
    );
    const model = specModel(flowSpec(steps));
    const { ms, sink } = timed(model);
    expect(sink.diagnostics).toEqual([]);
    const graph = analyseFlow(flowOf(model, "f")).graph;
    expect(graph.order?.[0]?.id).toBe(`s${N - 1}`);
    expect(graph.order?.[N - 1]?.id).toBe("s0");
    const first = flowOf(model, "f").steps[0];
    if (first === undefined) throw new Error("no step");
    expect(graph.transitiveDependencies(first).size).toBe(N - 1);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("one cycle through 5,000 steps is one diagnostic", () => {
    const steps = Array.from(
      { length: N },
      (_, i) => `{id: s${i}, intent: x, depends_on: [s${(i + 1) % N}]}`,
    );
    const model = specModel(flowSpec(steps));
    const { ms, sink } = timed(model);
    expect(sink.diagnostics.map((d) => d.code)).toEqual(["SPEC-DEPENDENCY-CYCLE"]);
    expect(sink.diagnostics[0]?.related?.length).toBe(N);
    expect(sink.diagnostics[0]?.message.endsWith(`s${N - 1} -> s0`)).toBe(true);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("5,000 steps with fan-in dependencies and gates", () => {
    const steps = Array.from({ length: N }, (_, i) => {
      if (i > 0 && i % 10 === 0) {
        return `{id: s${i}, function: review, on_approve: s${i + 1}, on_kill: null, on_revise: s${i - 1}, depends_on: [s${i - 1}]}`;
      }
      const deps = [i - 1, i - 7, Math.floor(i / 2)].filter((d) => d >= 0 && d < i).map((d) => `s${d}`);
      return `{id: s${i}, intent: x, depends_on: [${[...new Set(deps)].join(", ")}]}`;
    });
    const model = specModel(flowSpec(steps));
    const { ms, sink } = timed(model);
    // Every gate routes on to the next step, so everything is reachable; revise targets are earlier.
    expect(sink.diagnostics).toEqual([]);
    expect(ms).toBeLessThan(LIMIT_MS);
  });

  it("a chain of 3,000 flows is not recursive; a ring of 200 flows reports each call", () => {
    const chain = flowsSpec(
      Array.from({ length: 3000 }, (_, i) => [
        `F${i}`,
        [i === 2999 ? "{id: x, intent: y}" : `{id: c, flow: F${i + 1}}`],
      ]),
    );
    const a = timed(specModel(chain));
    expect(a.sink.diagnostics).toEqual([]);
    expect(a.ms).toBeLessThan(LIMIT_MS);
    const ring = flowsSpec(
      Array.from({ length: 200 }, (_, i) => [`F${i}`, [`{id: c, flow: F${(i + 1) % 200}}`]]),
    );
    const b = timed(specModel(ring));
    expect(b.sink.diagnostics.length).toBe(200);
    expect(b.sink.diagnostics[0]?.related?.length).toBe(199);
    expect(b.ms).toBeLessThan(LIMIT_MS);
  });
});
