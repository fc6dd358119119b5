// SPEC-REASONING-TEMPLATE-SECTIONS (the reference's CERT-1): the sections of a reasoning_template
// (and of a parallel_dispatch step's task_reasoning_template) must be mappings with id, label and
// description.

import type { PyValue } from "../../../stdlib/values/value";
import { typeName } from "../../../stdlib/values/value";
import { itemRange, valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SpecNode } from "../../yaml/nodes";
import { has, type NamedStep, stepPath } from "../support";
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
  doc: "Each entry of reasoning_template.sections (and of a parallel_dispatch step's task_reasoning_template.sections) is a mapping with id, label and description: the agent is asked for a '## <label>' heading followed by the description, and the artifact is checked for the heading. Without sections the reference's three defaults apply (Premises, Trace, Conclusion); an empty list is an error.",
  example: {
    bad: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises}",
    good: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises, description: List the facts you use, with file:line}",
  },
  /** `key`: reasoning_template or task_reasoning_template. */
  message: (detail: string, key: string = "reasoning_template") => `${key} ${detail}`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      for (const key of TEMPLATE_KEYS) checkSections(model, reporter, step, key);
    });
  },
});

function checkSections(model: SpecModel, reporter: Reporter, step: NamedStep, key: string): void {
  if (!has(step, key)) return;
  const template = step.map(key);
  const entry = template?.value.get("sections");
  if (template === null || entry === undefined) return;
  const path = `${stepPath(step, key)}.sections`;
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
