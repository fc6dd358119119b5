// buildFlowGraph (docs/reference/language.md §9.5.4 "Dependency graph", docs/reference/runtime.md §2): edges, the stable
// topological order, cycles and transitive dependencies.
import { describe, expect, it } from "vitest";
import { buildFlowGraph } from "../../../checker/graph/index";
import type { FlowGraph } from "../../../checker/graph/types";
import type { StepDecl } from "../../../checker/model/types";
import { flowOf, graphOf, specModel } from "./support/model";
import { flowSpec } from "./support/specs";

function ids(steps: readonly StepDecl[] | null): string[] | null {
  return steps === null ? null : steps.map((s) => s.id ?? "?");
}

function edgeList(graph: FlowGraph): string[] {
  return graph.edges.map((e) => {
    const where =
      e.source.kind === "depends_on"
        ? `depends_on[${e.source.index}]`
        : e.source.kind === "source"
          ? "source"
          : `inputs.${e.source.name}`;
    return `${e.from.id} -> ${e.to.id} (${where})`;
  });
}

function deps(graph: FlowGraph, step: StepDecl | undefined): string[] {
  if (step === undefined) throw new Error("no step");
  return [...graph.transitiveDependencies(step)].sort();
}

describe("buildFlowGraph: order", () => {
  it("docs/reference/runtime.md §2 example: a, b(dep a), c, d(inputs $.steps.c.output), e runs a, b, c, d, e", () => {
    const { graph } = graphOf(
      flowSpec([
        "{id: a, intent: x}",
        "{id: b, intent: x, depends_on: [a]}",
        "{id: c, intent: x}",
        '{id: d, intent: x, inputs: {p: "$.steps.c.output"}}',
        "{id: e, intent: x}",
      ]),
    );
    expect(ids(graph.order)).toEqual(["a", "b", "c", "d", "e"]);
    expect(graph.hasCycle).toBe(false);
  });

  it("places a step after its later-declared dependency, ties by declaration index", () => {
    const { graph } = graphOf(
      flowSpec([
        "{id: a, intent: x, depends_on: [d]}",
        "{id: b, intent: x}",
        '{id: c, intent: x, inputs: {p: "$.steps.a.output.v"}}',
        "{id: d, intent: x}",
      ]),
    );
    expect(ids(graph.order)).toEqual(["b", "d", "a", "c"]);
  });

  it("is null when there is a cycle, including a self-edge", () => {
    const self = graphOf(
      flowSpec(['{id: a, intent: x, inputs: {me: "$.steps.a.output"}}', "{id: b, intent: x}"]),
    );
    expect(self.graph.order).toBeNull();
    expect(self.graph.hasCycle).toBe(true);
    const two = graphOf(
      flowSpec(["{id: a, intent: x, depends_on: [b]}", "{id: b, intent: x, depends_on: [a]}"]),
    );
    expect(two.graph.order).toBeNull();
    expect(two.graph.hasCycle).toBe(true);
  });

  it("an empty flow has an empty order", () => {
    const model = specModel('version: "0.2"\nflows:\n  f:\n    input: {}\n    steps: []\n');
    const graph = buildFlowGraph(flowOf(model, "f"));
    expect(graph.order).toEqual([]);
    expect(graph.edges).toEqual([]);
    expect(graph.hasCycle).toBe(false);
  });
});

describe("buildFlowGraph: edges", () => {
  it("lists depends_on items, then $.steps inputs, per step in declaration order", () => {
    const { graph } = graphOf(
      flowSpec([
        "{id: a, intent: x}",
        "{id: b, intent: x}",
        '{id: c, intent: x, inputs: {p: "$.steps.a.output", q: "$.steps.b.output.v.w", lit: "see $.steps.a"}, depends_on: [b, a, b]}',
      ]),
    );
    expect(edgeList(graph)).toEqual([
      "c -> b (depends_on[0])",
      "c -> a (depends_on[1])",
      "c -> b (depends_on[2])",
      "c -> a (inputs.p)",
      "c -> b (inputs.q)",
    ]);
  });

  it("ignores unknown ids, non-string items, $.input references and other $ forms", () => {
    const { graph } = graphOf(
      flowSpec([
        "{id: a, intent: x}",
        '{id: b, intent: x, depends_on: [zz, 3, a], inputs: {p: "$.steps.zz.output", q: "$.input.a", r: "$.steps", s: "$.stepsa.output"}}',
      ]),
    );
    expect(edgeList(graph)).toEqual(["b -> a (depends_on[2])"]);
  });

  it("takes the third segment of the input reference even without .output", () => {
    const { graph } = graphOf(
      flowSpec(["{id: a, intent: x}", '{id: b, intent: x, inputs: {p: "$.steps.a"}}']),
    );
    expect(edgeList(graph)).toEqual(["b -> a (inputs.p)"]);
  });

  it("steps without a valid id take no part; a repeated id refers to the first declaration", () => {
    const { graph, flow } = graphOf(
      flowSpec([
        "{id: a, intent: x}",
        "{id: 7, intent: x, depends_on: [a]}",
        "{id: a, intent: y, depends_on: [b]}",
        "{id: b, intent: x, depends_on: [a]}",
      ]),
    );
    expect(edgeList(graph)).toEqual(["a -> b (depends_on[0])", "b -> a (depends_on[0])"]);
    expect(graph.edges[1]?.to).toBe(flow.steps[0]);
    expect(ids(graph.order)).toEqual(["a", "b", "a"]);
    expect(graph.order?.[2]).toBe(flow.steps[2]);
  });

  it("is memoised per flow", () => {
    const model = specModel(flowSpec(["{id: a, intent: x}"]));
    const flow = flowOf(model, "f");
    expect(buildFlowGraph(flow)).toBe(buildFlowGraph(flow));
  });
});

describe("buildFlowGraph: transitive dependencies", () => {
  const text = flowSpec([
    "{id: a, intent: x}",
    "{id: b, intent: x, depends_on: [a]}",
    '{id: c, intent: x, inputs: {p: "$.steps.b.output"}}',
    "{id: d, intent: x}",
    "{id: e, intent: x, depends_on: [f2]}",
    "{id: f2, intent: x, depends_on: [e]}",
    '{id: g, intent: x, inputs: {me: "$.steps.g.output"}, depends_on: [c]}',
  ]);

  it("follows edges transitively, excluding the step itself off cycles", () => {
    const { graph, flow } = graphOf(text);
    const by = (id: string) => flow.stepById.get(id);
    expect(deps(graph, by("a"))).toEqual([]);
    expect(deps(graph, by("b"))).toEqual(["a"]);
    expect(deps(graph, by("c"))).toEqual(["a", "b"]);
    expect(deps(graph, by("d"))).toEqual([]);
  });

  it("includes the step itself when it is on a cycle (a self-edge counts)", () => {
    const { graph, flow } = graphOf(text);
    const by = (id: string) => flow.stepById.get(id);
    expect(deps(graph, by("e"))).toEqual(["e", "f2"]);
    expect(deps(graph, by("f2"))).toEqual(["e", "f2"]);
    expect(deps(graph, by("g"))).toEqual(["a", "b", "c", "g"]);
  });

  it("is empty for a step without a valid id", () => {
    const { graph, flow } = graphOf(
      flowSpec(["{id: a, intent: x}", "{id: [x], intent: x, depends_on: [a]}"]),
    );
    expect(deps(graph, flow.steps[1])).toEqual([]);
  });
});
