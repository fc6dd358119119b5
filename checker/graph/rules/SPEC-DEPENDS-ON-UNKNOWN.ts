// SPEC-DEPENDS-ON-UNKNOWN: a `depends_on` entry that names no step of the flow (docs/reference/language.md §9.5.4),
// one diagnostic per entry, with a did-you-mean over the flow's step ids.
import { itemRange } from "../../anchors";
import { suggest } from "../../expr/did-you-mean";
import { didYouMean } from "../../messages";
import type { FlowDecl, SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { stepPath } from "./paths";
import { renameScalarFix } from "./rename-fix";

export const SPEC_DEPENDS_ON_UNKNOWN = defineRule({
  code: "SPEC-DEPENDS-ON-UNKNOWN",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "depends_on names a step that does not exist in the flow",
  doc:
    "Every depends_on entry must be the id of a step in the same flow; an unknown id makes the " +
    "flow impossible to order. Fix the spelling or remove the entry.",
  example: {
    bad: "- {id: b, intent: y, depends_on: [aa]}",
    good: "- {id: b, intent: y, depends_on: [a]}",
  },
  fix: "Replaces the entry with the one step id of the flow close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the new id reads back as the same string in the entry's quoting style (a plain yes or null would not).",
  message: (s: string, dep: string) => `Step '${s}' depends_on unknown step '${dep}'`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) checkFlow(model, flow, reporter);
  },
}) satisfies SemanticRule;

function checkFlow(model: SpecModel, flow: FlowDecl, reporter: Reporter): void {
  let ids: string[] | null = null;
  for (const step of flow.steps) {
    const deps = step.entry("depends_on");
    if (step.id === null || deps === undefined || deps.value.kind !== "seq") continue;
    deps.value.items.forEach((node, index) => {
      if (node.kind !== "scalar" || typeof node.value !== "string" || step.id === null) return;
      const dep = node.value;
      if (flow.stepById.has(dep)) return;
      ids ??= flow.steps.flatMap((s) => (s.id === null ? [] : [s.id]));
      const s = suggest(dep, ids);
      const fix = s?.unique === true ? renameScalarFix(node, dep, s.candidate) : undefined;
      reporter.report(SPEC_DEPENDS_ON_UNKNOWN, {
        message: SPEC_DEPENDS_ON_UNKNOWN.message(step.id, dep),
        path: `${stepPath(flow.name, step.id)}.depends_on`,
        range: itemRange(model.source, deps, index),
        ...(s !== null ? { suggestion: didYouMean(s.candidate) } : {}),
        ...(fix !== undefined ? { fix } : {}),
      });
    });
  }
}
