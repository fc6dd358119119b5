// SPEC-STEP-KIND-IGNORED-KEY (warning): keys that a step whose kind `type` selects (decompose,
// parallel_dispatch, and stratumc's quorum, race and debate) ignores. `type` decides the kind before
// function / intent / flow are looked at, and the gate keys only matter on gate steps; the
// reference accepts all of them silently.
import { keyRange } from "../../anchors";
import type { StepKind } from "../../model/types";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

const GATE_KEYS = ["on_approve", "on_revise", "on_kill", "policy", "policy_fallback"] as const;
const DECOMPOSE_IGNORED = ["function", "flow", ...GATE_KEYS] as const;
/** A parallel step's own instruction is intent_template, so `intent` is ignored too. */
const PARALLEL_IGNORED = ["function", "intent", "flow", ...GATE_KEYS] as const;
/** A debate's result is its synthesis's: the step's own output_contract is not read. */
const DEBATE_IGNORED = [...DECOMPOSE_IGNORED, "output_contract"] as const;

const IGNORED: Readonly<Partial<Record<StepKind, readonly string[]>>> = {
  decompose: DECOMPOSE_IGNORED,
  parallel_dispatch: PARALLEL_IGNORED,
  pipeline: PARALLEL_IGNORED,
  quorum: DECOMPOSE_IGNORED,
  race: DECOMPOSE_IGNORED,
  debate: DEBATE_IGNORED,
};

export const SPEC_STEP_KIND_IGNORED_KEY = defineRule({
  code: "SPEC-STEP-KIND-IGNORED-KEY",
  severity: "warning",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key that a decompose, parallel_dispatch, quorum, race or debate step ignores",
  doc: "type: decompose, parallel_dispatch, quorum, race or debate decides the kind of a step on its own: function and flow (and, on a parallel_dispatch step, intent; on a debate step, output_contract, since the synthesis has its own) are not looked at, and the gate keys (on_approve, on_revise, on_kill, policy, policy_fallback) only act on gate steps. Such a key usually means the step is not what its author thinks; remove it, or drop type to get the kind the key selects.",
  example: {
    bad: "- {id: plan, type: decompose, function: planner, agent: claude, intent: Plan, output_contract: TaskGraph}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph}",
  },
  message: (step: string, kind: string, key: string) =>
    `Step '${step}' is a ${kind} step: '${key}' is ignored`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      const kind = step.kind;
      const ignored = kind === null ? undefined : IGNORED[kind];
      if (kind === null || ignored === undefined) return;
      for (const key of ignored) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_STEP_KIND_IGNORED_KEY, {
          message: SPEC_STEP_KIND_IGNORED_KEY.message(step.id, kind, key),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Remove '${key}'`,
        });
      }
    });
  },
});
