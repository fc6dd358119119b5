// SPEC-FLOW-RECURSION: a sub-flow step whose call leads back to its own flow (docs/reference/language.md §9.5.4
// "Recursion", DIV-RECURSION). Each such step is reported, with the shortest call chain; a flow
// that calls one sub-flow several times, or a diamond, is not recursive.
import { nonEmpty } from "../../anchors";
import type { SourceRange } from "../../base/source-range";
import type { SpecModel, StepDecl } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { buildCallGraph, type FlowCall, shortestCalls } from "../flow-calls";
import { stronglyConnected } from "../scc";
import { flowPath, stepPath } from "./paths";

export const SPEC_FLOW_RECURSION = defineRule({
  code: "SPEC-FLOW-RECURSION",
  severity: "error",
  family: "recursion",
  errorType: "ir_semantic_error",
  title: "A flow calls itself, directly or through other flows",
  doc:
    "A sub-flow step starts a child execution of its target flow; when the target leads back to " +
    "the calling flow, the executions never end. Break the chain shown in the message, for " +
    "example by moving the repeated work into a separate flow that does not call back.",
  example: {
    bad: "flows:\n  f:\n    input: {}\n    steps: [{id: a, flow: f}]",
  },
  message: (f: string, chain: readonly string[]) =>
    `Recursive flow reference detected: '${f}' is referenced from within its own call chain (${chain.join(" -> ")})`,
  related: (x: string, y: string) => `'${x}' calls '${y}' here`,
  check(model: SpecModel, reporter: Reporter): void {
    const graph = buildCallGraph(model);
    const { component } = stronglyConnected(graph.firstCalls.map((list) => list.map((c) => c.target)));
    const chains = new Map<number, FlowCall[] | null>();
    const n = model.flows.length;
    model.flows.forEach((flow, f) => {
      for (const call of graph.calls[f] ?? []) {
        const g = call.target;
        if (component[g] !== component[f]) continue;
        let chain = chains.get(g * n + f);
        if (chain === undefined) {
          chain = shortestCalls(graph, g, f);
          chains.set(g * n + f, chain);
        }
        if (chain === null) continue;
        const names = [flow.name, ...[call, ...chain].map((c) => model.flows[c.target]?.name ?? "")];
        reporter.report(SPEC_FLOW_RECURSION, {
          message: SPEC_FLOW_RECURSION.message(flow.name, names),
          path: flowPath(flow.name),
          range: flowValueRange(call.step),
          related: chain.map((c) => ({
            message: SPEC_FLOW_RECURSION.related(c.step.flow.name, model.flows[c.target]?.name ?? ""),
            path:
              c.step.id === null
                ? flowPath(c.step.flow.name)
                : `${stepPath(c.step.flow.name, c.step.id)}.flow`,
            range: flowValueRange(c.step),
          })),
        });
      }
    });
  },
}) satisfies SemanticRule;

/** The step's `flow` value; by docs/reference/language.md §9.2 it is not moved to its key's line. */
function flowValueRange(step: StepDecl): SourceRange {
  const entry = step.entry("flow");
  if (entry === undefined) return { start: 0, end: 0 };
  return nonEmpty(entry.value.range, entry.key.range);
}
