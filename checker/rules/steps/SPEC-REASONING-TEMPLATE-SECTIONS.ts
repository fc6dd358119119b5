// SPEC-REASONING-TEMPLATE-SECTIONS (the reference's CERT-1): the sections of a reasoning_template
// (and of a parallel_dispatch step's or a pipeline stage's task_reasoning_template) must be
// mappings with id, label and description.

import type { PyValue } from "../../../stdlib/values/value";
import { typeName } from "../../../stdlib/values/value";
import { itemRange, valueRange } from "../../anchors";
import { stagesOf } from "../../kinds/pipeline/stages";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { MapEntry, SpecNode } from "../../yaml/nodes";
import { has, stepPath } from "../support";
import type { RuleVisitor } from "../types";

const SECTION_KEYS = ["id", "label", "description"] as const;
/** The two certificate templates: an inline or decompose step's own, a parallel step's per task. */
const TEMPLATE_KEYS = ["reasoning_template", "task_reasoning_template"] as const;

/** Python's type name of a loaded YAML value (the reference's `type(section).__name__`). */
function pythonTypeName(node: SpecNode): string {
  if (node.kind === "seq") return "list";
  if (node.kind === "map") return "dict";
  return typeName(node.value as PyValue);
}

export const SPEC_REASONING_TEMPLATE_SECTIONS = defineRule({
  code: "SPEC-REASONING-TEMPLATE-SECTIONS",
  severity: "error",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "A reasoning_template section is malformed",
  doc: "Each entry of reasoning_template.sections (and of the task_reasoning_template.sections of a parallel_dispatch step or of a pipeline stage) is a mapping with id, label and description: the agent is asked for a '## <label>' heading followed by the description, and the artifact is checked for the heading. Without sections the reference's three defaults apply (Premises, Trace, Conclusion); an empty list is an error.",
  example: {
    bad: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises}",
    good: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises, description: List the facts you use, with file:line}",
  },
  /** `key`: reasoning_template or task_reasoning_template. */
  message: (detail: string, key: string = "reasoning_template") => `${key} ${detail}`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      for (const key of TEMPLATE_KEYS) {
        if (!has(step, key)) continue;
        const sections = step.map(key)?.value.get("sections");
        if (sections !== undefined)
          checkSections(model, reporter, sections, key, `${stepPath(step, key)}.sections`);
      }
      // A pipeline stage's own template is checked as the step's (the reference applies the same
      // defaults and checks to each stage).
      for (const stage of stagesOf(step)) {
        const template = stage.node.get("task_reasoning_template");
        if (template?.value.kind !== "map") continue;
        const sections = template.value.get("sections");
        const path = `${stepPath(step, "stages")}.${stage.index}.task_reasoning_template.sections`;
        if (sections !== undefined) checkSections(model, reporter, sections, "task_reasoning_template", path);
      }
    });
  },
});

function checkSections(
  model: SpecModel,
  reporter: Reporter,
  entry: MapEntry,
  key: string,
  path: string,
): void {
  const report = (detail: string, at: string, range = valueRange(model.source, entry), suggestion?: string) =>
    reporter.report(SPEC_REASONING_TEMPLATE_SECTIONS, {
      message: SPEC_REASONING_TEMPLATE_SECTIONS.message(detail, key),
      path: at,
      range,
      suggestion:
        suggestion ??
        "Write each section as {id: <id>, label: <heading>, description: <what to write>}, or remove sections to use the defaults",
    });
  const sections = entry.value;
  if (
    sections.kind === "scalar" &&
    (sections.value === null || sections.value === "" || sections.value === false)
  ) {
    report("must have at least one section", path);
    return;
  }
  if (sections.kind !== "seq") {
    report("sections must be a list of mappings", path);
    return;
  }
  if (sections.items.length === 0) {
    report("must have at least one section", path);
    return;
  }
  sections.items.forEach((item, i) => {
    const range = itemRange(model.source, entry, i);
    if (item.kind !== "map") {
      report(`section ${i} must be a mapping, got ${pythonTypeName(item)}`, `${path}.${i}`, range);
      return;
    }
    const missing = SECTION_KEYS.filter((k) => item.get(k) === undefined);
    for (const k of missing) {
      report(
        `section ${i} is missing required field '${k}'`,
        `${path}.${i}`,
        range,
        `Add ${k}: <${k}> to section ${i}`,
      );
    }
  });
}
