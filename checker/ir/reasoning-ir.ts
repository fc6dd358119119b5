// A reasoning certificate (`reasoning_template`, `task_reasoning_template`, a pipeline stage's) as
// the IR holds it: the reference's defaults applied (spec.py CERT_DEFAULT_SECTIONS).
import type { JsonObject } from "../base/json";
import type { MapNode } from "../yaml/nodes";
import { toJson } from "../yaml/to-json";
import type { ReasoningSectionIR, ReasoningTemplateIR } from "./types";

function jsonOf(node: MapNode): JsonObject {
  const j = toJson(node);
  return j !== null && typeof j === "object" && !Array.isArray(j)
    ? (j as JsonObject)
    : (Object.create(null) as JsonObject);
}

/** The template as the reference's payloads show it, defaults filled in (sections, then require_citations). */
export function reasoningTemplateJson(template: ReasoningTemplateIR): JsonObject {
  const out = Object.create(null) as Record<string, unknown>;
  out.sections = template.sections.map((s) => ({ id: s.id, label: s.label, description: s.description }));
  out.require_citations = template.requireCitations;
  return out as JsonObject;
}

/** The reference's default certificate sections (spec.py CERT_DEFAULT_SECTIONS). */
const DEFAULT_REASONING_SECTIONS: readonly ReasoningSectionIR[] = [
  {
    id: "premises",
    label: "Premises",
    description: "State every verifiable fact you are using. Each premise must cite a file:line.",
  },
  {
    id: "trace",
    label: "Trace",
    description: "Walk through the logic step by step. Reference premises by [P<n>] ID.",
  },
  {
    id: "conclusion",
    label: "Conclusion",
    description: "State your finding. Every claim must reference at least one premise.",
  },
];

/** A valid template (SPEC-REASONING-TEMPLATE-SECTIONS passed) with the reference's defaults. */
export function reasoningTemplateIR(node: MapNode | null): ReasoningTemplateIR | null {
  if (node === null) return null;
  const template = jsonOf(node);
  const sections = node.get("sections") === undefined ? DEFAULT_REASONING_SECTIONS : template.sections;
  const list = Array.isArray(sections) ? (sections as readonly JsonObject[]) : [];
  return {
    sections: list.map((s) => ({
      id: s.id ?? null,
      label: s.label ?? null,
      description: s.description ?? null,
    })),
    requireCitations:
      node.get("require_citations") === undefined ? false : (template.require_citations ?? null),
  };
}
