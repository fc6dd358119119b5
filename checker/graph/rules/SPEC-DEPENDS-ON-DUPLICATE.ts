// SPEC-DEPENDS-ON-DUPLICATE (warning): a `depends_on` entry that repeats an earlier entry of the same
// list. It changes nothing at run time (the order is a set of edges), but the slip usually hides the
// step that was meant, so it is worth a look; the fix removes the repeated entry with its separator
// (a flow sequence's `, x`, a block sequence's whole `- x` line) when nothing else stands there.
import type { SpecFix } from "../../diagnostic";
import type { FlowDecl, SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import type { SpecSource } from "../../source";
import type { SeqNode } from "../../yaml/nodes";
import { stepPath } from "./paths";

export const SPEC_DEPENDS_ON_DUPLICATE = defineRule({
  code: "SPEC-DEPENDS-ON-DUPLICATE",
  severity: "warning",
  family: "duplicate",
  errorType: "ir_semantic_error",
  title: "depends_on names the same step twice",
  doc:
    "A step waits for each step its depends_on names; naming one twice adds nothing, so the second " +
    "entry is dead. It is usually a copy-and-paste slip where another step was meant: check which " +
    "steps this one really needs, then name each once.",
  example: {
    bad: "- {id: c, intent: z, depends_on: [a, a]}",
    good: "- {id: c, intent: z, depends_on: [a, b]}",
  },
  fix: "Removes the repeated entry together with its separator (the `, x` of a flow sequence, the `- x` line of a block sequence), when no comment or other text shares its place.",
  message: (step: string, dep: string) => `Step '${step}' names '${dep}' in depends_on more than once`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) checkFlow(model, flow, reporter);
  },
}) satisfies SemanticRule;

function checkFlow(model: SpecModel, flow: FlowDecl, reporter: Reporter): void {
  for (const step of flow.steps) {
    const deps = step.entry("depends_on");
    if (step.id === null || deps === undefined || deps.value.kind !== "seq") continue;
    const seq = deps.value;
    const seen = new Set<string>();
    seq.items.forEach((node, index) => {
      if (node.kind !== "scalar" || typeof node.value !== "string" || step.id === null) return;
      if (!seen.has(node.value)) {
        seen.add(node.value);
        return;
      }
      const fix = removeItemFix(model.source, seq, index, node.value);
      reporter.report(SPEC_DEPENDS_ON_DUPLICATE, {
        message: SPEC_DEPENDS_ON_DUPLICATE.message(step.id, node.value),
        path: `${stepPath(flow.name, step.id)}.depends_on`,
        range: node.range,
        ...(fix !== undefined ? { fix } : {}),
      });
    });
  }
}

/** The edit that deletes item `index` (never the first) and its separator, or undefined. */
function removeItemFix(source: SpecSource, seq: SeqNode, index: number, name: string): SpecFix | undefined {
  const text = source.text;
  const item = seq.items[index];
  const previous = seq.items[index - 1];
  if (item === undefined || previous === undefined) return undefined;
  let start: number;
  let end: number;
  if (seq.flow) {
    // `[a, b, a]`: from the end of the previous item to the end of this one.
    start = previous.range.end;
    end = item.range.end;
    if (!/^\s*,\s*$/.test(text.slice(start, item.range.start))) return undefined;
  } else {
    // A block item: its whole line, if the line holds nothing else.
    const dash = seq.itemStarts[index] ?? item.range.start;
    start = text.lastIndexOf("\n", dash - 1) + 1;
    const lineEnd = text.indexOf("\n", item.range.end);
    end = lineEnd < 0 ? text.length : lineEnd + 1;
    if (!/^[ \t]*$/.test(text.slice(start, dash))) return undefined;
    if (!/^[ \t]*\r?\n?$/.test(text.slice(item.range.end, end))) return undefined;
  }
  return { description: `Remove the repeated '${name}'`, edits: [{ range: { start, end }, newText: "" }] };
}
