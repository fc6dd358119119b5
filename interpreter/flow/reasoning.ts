// reasoning_template at run time (the reference's STRAT-CERT, executor.py inject_cert_instructions
// and validate_certificate): a Claude agent's intent gets the sections as a required structure,
// and its result's artifact must contain each section as a `## <label>` heading (and, with
// require_citations, a `[P<n>]` citation in the last section).

import type { JsonValue } from "../../checker/base/json";
import type { ReasoningTemplateIR, StepIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { pyEquals } from "../../stdlib/values/equality";
import { fromJsonValue } from "../../stdlib/values/json";
import { str } from "../../stdlib/values/repr";
import { truthy } from "../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../stdlib/values/value";

/** The template that applies to a step's agent: only Claude agents (no agent, or `claude…`). */
export function certificateOf(step: StepIR): ReasoningTemplateIR | null {
  const template = step.reasoningTemplate ?? null;
  if (template === null) return null;
  const agent = step.agent === null || step.agent === "" ? "claude" : step.agent;
  return agent.startsWith("claude") ? template : null;
}

/** Python `str()` of a template value (labels and descriptions are usually strings). */
function text(v: JsonValue): string {
  return typeof v === "string" ? v : str(fromJsonValue(v));
}

/** The intent followed by the structure the agent must use (inject_cert_instructions). */
export function injectCertInstructions(intent: string, template: ReasoningTemplateIR): string {
  const citations = truthy(fromJsonValue(template.requireCitations));
  const lines = [intent, "", "---", "", "You MUST structure your response with these sections:", ""];
  template.sections.forEach((section, i) => {
    lines.push(`## ${text(section.label)}`);
    lines.push(text(section.description));
    if (i === 0 && citations)
      lines.push("Format each fact as: [P1] <fact, citing file:line>, [P2] ..., etc.");
    if (i > 0 && citations) lines.push("Reference premises by their [P<n>] ID.");
    lines.push("");
  });
  return lines.join("\n");
}

/** `artifact in`-style membership: substring for strings, element equality for lists. */
function mentions(artifact: PyValue, heading: string): boolean {
  if (typeof artifact === "string") return artifact.includes(heading);
  if (Array.isArray(artifact)) return artifact.some((x) => pyEquals(x, heading));
  return false;
}

/** The certificate violations of a result (validate_certificate); empty when it passes. */
export function certificateViolations(template: ReasoningTemplateIR, result: PyValue): string[] {
  const get = (key: string): PyValue => (result instanceof PyDict ? (dictGetStr(result, key) ?? null) : null);
  const artifactValue = get("artifact");
  const reasoning = get("reasoning");
  const artifact: PyValue = truthy(artifactValue) ? artifactValue : truthy(reasoning) ? reasoning : "";
  const violations: string[] = [];
  for (const section of template.sections) {
    const label = text(section.label);
    if (!mentions(artifact, `## ${label}`)) violations.push(`certificate missing section: ${label}`);
  }
  const last = template.sections[template.sections.length - 1];
  if (truthy(fromJsonValue(template.requireCitations)) && violations.length === 0 && last !== undefined) {
    if (typeof artifact === "string") {
      const at = artifact.indexOf(`## ${text(last.label)}`);
      if (at >= 0 && !/\[P\d+\]/.test(artifact.slice(at))) {
        violations.push("certificate violation: conclusion contains no premise citations [P<n>]");
      }
    }
  }
  return violations;
}
