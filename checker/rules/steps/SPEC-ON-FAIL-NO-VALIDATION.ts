// SPEC-ON-FAIL-NO-VALIDATION: on_fail is taken when validation keeps failing, so there must be some.
import type { StepDecl } from "../../model/types";
import { defineRule } from "../../rule";
import { NON_GATE_KINDS } from "../placement";
import { has, keyOf, lacks, stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_ON_FAIL_NO_VALIDATION = defineRule({
  code: "SPEC-ON-FAIL-NO-VALIDATION",
  severity: "error",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "on_fail on a step that validates nothing",
  doc: "A step fails only when its result violates its ensure expressions, its guardrails (the step's, or its function's for a function step), its output_schema or (for a Claude agent) its reasoning_template until the attempts are used up. Without any of them (contracts do not count), on_fail can never be taken. Add an ensure, guardrails or output_schema, or remove on_fail.",
  example: {
    bad: "- {id: a, intent: x, on_fail: b}",
    good: '- {id: a, intent: x, ensure: ["result.ok"], on_fail: b}',
  },
  message: (step: string) =>
    `Step '${step}' has on_fail but no ensure/guardrails — on_fail can never trigger`,
  visit(on: RuleVisitor): void {
    // On a gate only SPEC-GATE-ON-FAIL is reported.
    on.onStep(NON_GATE_KINDS, (step, { reporter }) => {
      if (!has(step, "on_fail")) return;
      if (validates(step) !== false) return;
      reporter.report(SPEC_ON_FAIL_NO_VALIDATION, {
        message: SPEC_ON_FAIL_NO_VALIDATION.message(step.id),
        path: stepPath(step, "on_fail"),
        range: keyOf(step, "on_fail"),
      });
    });
  },
});

/**
 * Whether the step validates its result: a non-empty step ensure or guardrails list, a non-empty
 * ensure or guardrails list of its function, or a non-empty output_schema. Null when that cannot
 * be known (an invalid field).
 */
function validates(step: StepDecl): boolean | null {
  const sources: { fields: StepDecl | NonNullable<StepDecl["fn"]>; key: string }[] = [
    { fields: step, key: "ensure" },
    { fields: step, key: "output_schema" },
    { fields: step, key: "guardrails" },
  ];
  if (step.kind === "function" && step.fn !== null)
    sources.push({ fields: step.fn, key: "ensure" }, { fields: step.fn, key: "guardrails" });
  // A reasoning certificate is validation for Claude agents (the reference's has_cert).
  if (has(step, "reasoning_template") && claudeAgent(step)) return true;
  let unknown = false;
  for (const { fields, key } of sources) {
    if (lacks(fields, key)) continue;
    if (!fields.valid(key)) {
      unknown = true;
      continue;
    }
    const list = key === "ensure" || key === "guardrails" ? fields.seq(key) : null;
    const map = key === "output_schema" ? fields.map(key) : null;
    if ((list?.value.items.length ?? 0) > 0 || (map?.value.entries.length ?? 0) > 0) return true;
  }
  return unknown ? null : false;
}

/** The reference checks certificates only for Claude agents: no agent, or one starting with `claude`. */
function claudeAgent(step: StepDecl): boolean {
  if (lacks(step, "agent")) return true;
  const agent = step.string("agent");
  return agent === null || agent.value === "" || agent.value.startsWith("claude");
}
