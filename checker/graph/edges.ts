// The dependency edges of one flow (docs/reference/language.md §9.5.4 "Dependency graph", docs/reference/runtime.md §2): `s → d`
// for every `depends_on` entry `d` of `s` and every `inputs` value of `s` that starts with
// `$.steps.` (`d` = its third `.`-separated segment), and the `source` of a parallel_dispatch step
// read the same way (0.3: the task list must exist before dispatch), when `d` is an existing step id. Only steps
// with a valid id take part; an item or input of the wrong type is skipped (SCHEMA-* reports it).

import { CHECKER_KINDS } from "../kinds/index";
import type { FlowDecl, StepDecl } from "../model/types";
import type { DependencyEdge } from "./types";

const STEPS_PREFIX = "$.steps.";

/** The step id named by an `inputs` value, or null when the value is not a `$.steps.` reference. */
function inputStepId(value: string): string | null {
  if (!value.startsWith(STEPS_PREFIX)) return null;
  const end = value.indexOf(".", STEPS_PREFIX.length);
  return end < 0 ? value.slice(STEPS_PREFIX.length) : value.slice(STEPS_PREFIX.length, end);
}

/**
 * The edges whose source is `step`, in source order: its `depends_on` items first, then its
 * `inputs` (so that, for a pair of steps, the first edge is a `depends_on` one when there is one).
 */
export function edgesOf(step: StepDecl, flow: FlowDecl): DependencyEdge[] {
  const out: DependencyEdge[] = [];
  if (step.id === null) return out;
  const deps = step.entry("depends_on");
  if (deps !== undefined && deps.value.kind === "seq") {
    deps.value.items.forEach((node, index) => {
      if (node.kind !== "scalar" || typeof node.value !== "string") return;
      const to = flow.stepById.get(node.value);
      if (to === undefined || to.id === null) return;
      out.push({ from: step, to, source: { kind: "depends_on", entry: deps, index, node } });
    });
  }
  const inputs = step.entry("inputs");
  if (inputs !== undefined && inputs.value.kind === "map") {
    for (const entry of inputs.value.entries) {
      const node = entry.value;
      if (entry.name === null || node.kind !== "scalar" || typeof node.value !== "string") continue;
      const id = inputStepId(node.value);
      const to = id === null ? undefined : flow.stepById.get(id);
      if (to === undefined || to.id === null) continue;
      out.push({ from: step, to, source: { kind: "input", entry, name: entry.name, node } });
    }
  }
  // A kind whose `source` is an expression (parallel_dispatch) depends on the step it reads.
  const source =
    step.kind !== null && CHECKER_KINDS[step.kind].expressions.includes("source")
      ? step.entry("source")
      : undefined;
  const node = source?.value;
  if (source !== undefined && node?.kind === "scalar" && typeof node.value === "string") {
    const id = inputStepId(node.value);
    const to = id === null ? undefined : flow.stepById.get(id);
    if (to !== undefined && to.id !== null)
      out.push({ from: step, to, source: { kind: "source", entry: source, node } });
  }
  return out;
}
