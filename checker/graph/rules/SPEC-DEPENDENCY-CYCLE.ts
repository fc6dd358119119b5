// SPEC-DEPENDENCY-CYCLE: one diagnostic per strongly connected component of a flow's dependency
// graph that contains a cycle (docs/reference/language.md §9.5.4), on the first edge of the reported path.
import type { FlowDecl, SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { analyseFlow } from "../analysis";
import { cyclePath } from "../cycle-path";
import type { DependencyEdge } from "../types";
import { edgeLocation } from "./edge-source";

export const SPEC_DEPENDENCY_CYCLE = defineRule({
  code: "SPEC-DEPENDENCY-CYCLE",
  severity: "error",
  family: "cycle",
  errorType: "ir_semantic_error",
  title: "Steps depend on each other in a cycle",
  doc:
    "depends_on entries and $.steps.<id> references in inputs order the steps of a flow; when they " +
    "form a cycle (a step reading its own output included), no step of the cycle can ever run. " +
    "Remove one of the listed edges; to read a later result in an expression, use skip_if or " +
    "ensure, which create no edges.",
  example: {
    bad: "- {id: a, intent: x, depends_on: [b]}\n- {id: b, intent: y, depends_on: [a]}",
    good: "- {id: a, intent: x}\n- {id: b, intent: y, depends_on: [a]}",
  },
  message: (ids: readonly string[]) => `Cycle detected in step dependencies: ${ids.join(" -> ")}`,
  related: (a: string, b: string) => `'${a}' depends on '${b}' here`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) checkFlow(model, flow, reporter);
  },
}) satisfies SemanticRule;

function checkFlow(model: SpecModel, flow: FlowDecl, reporter: Reporter): void {
  const a = analyseFlow(flow);
  for (const members of a.cyclic) {
    const path = cyclePath(members, a.components.component, a.succ);
    const edges: DependencyEdge[] = path.map((from, i) => {
      const to = a.nodes[path[(i + 1) % path.length] as number];
      // The first edge to `to` in source order: a depends_on item before an input reference.
      return (a.edgesFrom[from] as readonly DependencyEdge[]).find((e) => e.to === to) as DependencyEdge;
    });
    const ids = [...path, path[0] as number].map((i) => a.nodes[i]?.id ?? "");
    const first = edgeLocation(model.source, flow.name, edges[0] as DependencyEdge);
    reporter.report(SPEC_DEPENDENCY_CYCLE, {
      message: SPEC_DEPENDENCY_CYCLE.message(ids),
      path: first.path,
      range: first.range,
      related: edges.map((e) => ({
        message: SPEC_DEPENDENCY_CYCLE.related(e.from.id ?? "", e.to.id ?? ""),
        ...edgeLocation(model.source, flow.name, e),
      })),
    });
  }
}
