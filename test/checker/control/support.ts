// Helpers of the control model's tests: a spec of one or more flows from flow-style step items,
// its verdicts, and its control diagnostics.
import { checkSpec } from "../../../checker/check-spec";
import { controlSoundness } from "../../../checker/control/soundness";
import type { FlowVerdict } from "../../../checker/control/types";
import type { Diagnostic } from "../../../checker/diagnostic";
import { buildFlowGraph } from "../../../checker/graph/index";
import { buildIR } from "../../../checker/ir/build";
import type { CheckedSpec } from "../../../checker/ir/types";

const HEADER = [
  'version: "0.2"',
  "functions:",
  "  work: {mode: infer, intent: w, input: {}, output: Out, retries: 2}",
  "  once: {mode: infer, intent: w, input: {}, output: Out, retries: 1}",
  "  review: {mode: gate}",
  "contracts: {Out: {v: {type: string}}}",
  "flows:",
];

/** One flow per entry: `[name, step items, extra flow keys]`. */
export function specOf(flows: readonly (readonly [string, readonly string[], string?])[]): string {
  const lines = [...HEADER];
  for (const [name, steps, extra] of flows) {
    lines.push(`  ${name}:`, "    input: {}");
    if (extra !== undefined) lines.push(`    ${extra}`);
    lines.push("    steps:", ...steps.map((s) => `      - ${s}`));
  }
  return `${lines.join("\n")}\n`;
}

export const CONTROL_CODES = new Set([
  "SPEC-FLOW-NEVER-COMPLETES",
  "SPEC-FLOW-TRAP",
  "SPEC-STEP-ALWAYS-SKIPPED",
  "SPEC-STEP-DEAD",
  "SPEC-REVISE-UNBOUNDED",
]);

/** The verdict of flow `name` (default `f`) of a spec that has no errors but the control ones. */
export function verdict(text: string, name = "f"): FlowVerdict {
  const v = controlSoundness(irOf(text)).flows.get(name);
  if (v === undefined) throw new Error(`no flow ${name}`);
  return v;
}

/** The IR as the pipeline builds it before the control rules (which may add an error). */
function irOf(text: string): CheckedSpec {
  const result = checkSpec(text, { suppressions: false });
  const others = result.errors.filter((d) => !CONTROL_CODES.has(d.code));
  if (others.length > 0) throw new Error(`spec has errors: ${others.map((d) => d.message).join("; ")}`);
  if (result.model === null || result.expressions === null) throw new Error("no model");
  return buildIR(result.model, result.expressions, buildFlowGraph);
}

export function controlDiagnostics(text: string): Diagnostic[] {
  return checkSpec(text).diagnostics.filter((d) => CONTROL_CODES.has(d.code));
}

export function summary(v: FlowVerdict): Record<string, unknown> {
  return {
    completes: v.completes,
    optionToComplete: v.optionToComplete,
    dead: v.deadSteps.map((d) => `${d.step}:${d.reason.kind}`),
    traps: v.traps.map(
      (t) => `${t.steps.join("+")}${t.closing === null ? "" : `@${t.closing.step}.${t.closing.route}`}`,
    ),
    revise: v.unboundedRevise,
  };
}
