// reasoning_template (the reference's STRAT-CERT, spec.py _apply_cert_defaults and CERT-1): only
// inline steps may carry one, and its sections must be mappings with id, label and description.
import { itemRange, keyRange, valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import { has, namedSteps, stepPath } from "../support";

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
      if (entry === undefined || model.version !== "0.2") continue;
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

export const SPEC_REASONING_TEMPLATE_SECTIONS = defineRule({
  code: "SPEC-REASONING-TEMPLATE-SECTIONS",
  severity: "error",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "A reasoning_template section is malformed",
  doc: "Each entry of reasoning_template.sections is a mapping with id, label and description: the agent is asked for a '## <label>' heading followed by the description, and the artifact is checked for the heading. Without sections the reference's three defaults apply (Premises, Trace, Conclusion); an empty list is an error.",
  example: {
    bad: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises}",
    good: "reasoning_template:\n  sections:\n    - {id: premises, label: Premises, description: List the facts you use, with file:line}",
  },
  message: (detail: string) => `reasoning_template ${detail}`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      if (!has(step, "reasoning_template")) continue;
      const template = step.map("reasoning_template");
      const entry = template?.value.get("sections");
      if (template === null || entry === undefined) continue;
      const path = `${stepPath(step, "reasoning_template")}.sections`;
      const report = (
        detail: string,
        at: string,
        range = valueRange(model.source, entry),
        suggestion?: string,
      ) =>
        reporter.report(SPEC_REASONING_TEMPLATE_SECTIONS, {
          message: SPEC_REASONING_TEMPLATE_SECTIONS.message(detail),
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
        continue;
      }
      if (sections.kind !== "seq") {
        report("sections must be a list of mappings", path);
        continue;
      }
      if (sections.items.length === 0) {
        report("must have at least one section", path);
        continue;
      }
      sections.items.forEach((item, i) => {
        const range = itemRange(model.source, entry, i);
        if (item.kind !== "map") {
          report(`section ${i} must be a mapping`, `${path}.${i}`, range);
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
  },
});
