// SPEC-PARALLEL-KEY-IGNORED (warning): capture_diff and defer_advance act only on a parallel_dispatch
// step, and capture_diff only with isolation: worktree (there is no worktree to diff otherwise).
// The reference accepts them anywhere and ignores them.
import { keyRange } from "../../anchors";
import { STEP_KINDS } from "../../base/step-kinds";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

const KEYS = ["capture_diff", "defer_advance"] as const;

export const SPEC_PARALLEL_KEY_IGNORED = defineRule({
  code: "SPEC-PARALLEL-KEY-IGNORED",
  severity: "warning",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "capture_diff or defer_advance where it has no effect",
  doc: "capture_diff (keep each task's diff) and defer_advance (wait for stratum_parallel_advance) are options of a parallel_dispatch step run by the server; on any other step they are ignored, and capture_diff needs isolation: worktree, because only a worktree has a diff to capture. Remove the key, or set isolation: worktree.",
  example: {
    bad: "- {id: run, type: parallel_dispatch, source: $.input.tasks, intent_template: Do {task.id}, isolation: none, capture_diff: true}",
    good: "- {id: run, type: parallel_dispatch, source: $.input.tasks, intent_template: Do {task.id}, capture_diff: true}",
  },
  message: (step: string, key: string) =>
    `Step '${step}' has '${key}' but is not a parallel_dispatch step; it is ignored`,
  isolationMessage: (step: string, isolation: string) =>
    `Step '${step}' has capture_diff but isolation is '${isolation}'; diffs are captured only from worktrees`,
  visit(on: RuleVisitor): void {
    // A step of unknown kind is not known to ignore anything.
    on.onStep(STEP_KINDS, (step, { reporter }) => {
      if (step.kind !== "parallel_dispatch") {
        for (const key of KEYS) {
          const entry = step.entry(key);
          if (entry === undefined || !step.valid(key)) continue;
          reporter.report(SPEC_PARALLEL_KEY_IGNORED, {
            message: SPEC_PARALLEL_KEY_IGNORED.message(step.id, key),
            path: stepPath(step, key),
            range: keyRange(entry),
            suggestion: `Remove '${key}'`,
          });
        }
        return;
      }
      const capture = step.boolean("capture_diff");
      const isolation = step.string("isolation")?.value;
      if (capture?.value !== true || isolation === undefined || isolation === "worktree") return;
      reporter.report(SPEC_PARALLEL_KEY_IGNORED, {
        message: SPEC_PARALLEL_KEY_IGNORED.isolationMessage(step.id, isolation),
        path: stepPath(step, "capture_diff"),
        range: keyRange(capture.entry),
        suggestion: "Use isolation: worktree, or remove capture_diff",
      });
    });
  },
});
