// reasoning_template (the reference's STRAT-CERT, spec.py _apply_cert_defaults and CERT-1): only
// inline and decompose steps may carry one, and its sections (and those of a parallel_dispatch
// step's task_reasoning_template) must be mappings with id, label and description.

import type { PyValue } from "../../../stdlib/values/value";
import { typeName } from "../../../stdlib/values/value";
import { itemRange, keyRange, valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SpecNode } from "../../yaml/nodes";
import { has, type NamedStep, namedSteps, stepPath } from "../support";

const KIND_TEXT = { function: "function", flow: "flow" } as const;

export const SPEC_REASONING_TEMPLATE_STEP_KIND = defineRule({
  code: "SPEC-REASONING-TEMPLATE-STEP-KIND",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "reasoning_template on a step that is not inline",
  doc: "A reasoning_template makes the agent of an inline step structure its answer in the template's sections and checks the artifact for them. A function step (gate steps included) takes its instructions from its function and a sub-flow step has no agent of its own, so the reference rejects the template there. Move the template to an inline step, or make the step inline (intent instead of function).",
  example: {
    bad: "steps:\n  - id: review\n    function: review_fn\n    reasoning_template: {require_citations: true}",
    good: 'steps:\n  - id: review\n    intent: "Review the change"\n    reasoning_template: {require_citations: true}',
  },
  message: (step: string, flow: string, kind: "function" | "flow") =>
    `Step '${step}' in flow '${flow}' has 'reasoning_template' which is not valid on ${kind} steps. Use it on inline or decompose steps only.`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      const entry = step.entry("reasoning_template");
      // In 0.1 the key is unknown (SCHEMA-UNKNOWN-KEY); gate steps are function steps.
      if (entry === undefined || model.version === "0.1") continue;
      const kind = step.kind === "gate" ? "function" : step.kind;
      if (kind !== "function" && kind !== "flow") continue;
      reporter.report(SPEC_REASONING_TEMPLATE_STEP_KIND, {
        message: SPEC_REASONING_TEMPLATE_STEP_KIND.message(step.id, step.flow.name, KIND_TEXT[kind]),
        path: stepPath(step, "reasoning_template"),
        range: keyRange(entry),
        suggestion: `Move reasoning_template to an inline step (one with intent: "<what to do>")`,
      });
    }
  },
});

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
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      for (const key of TEMPLATE_KEYS) checkSections(model, reporter, step, key);
    }
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
