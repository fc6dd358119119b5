// SPEC-PARALLEL-KEY-IGNORED (warning): capture_diff, defer_advance and pre_merge_verify act only on a
// parallel_dispatch step, and capture_diff and pre_merge_verify only with isolation: worktree (there
// is no worktree to diff or to run the commands in otherwise).
// The reference accepts them anywhere and ignores them.
import { keyRange } from "../../anchors";
import { STEP_KINDS } from "../../base/step-kinds";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

const KEYS = ["capture_diff", "defer_advance", "pre_merge_verify"] as const;
/** The keys that need a task worktree. */
const WORKTREE_KEYS = ["capture_diff", "pre_merge_verify"] as const;

export const SPEC_PARALLEL_KEY_IGNORED = defineRule({
  code: "SPEC-PARALLEL-KEY-IGNORED",
  severity: "warning",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "capture_diff, defer_advance or pre_merge_verify where it has no effect",
  doc: "capture_diff (keep each task's diff), defer_advance (wait for stratum_parallel_advance) and pre_merge_verify (commands a task's worktree must pass before its diff is kept) are options of a parallel_dispatch step run by the server; on any other step they are ignored, and capture_diff and pre_merge_verify need isolation: worktree, because only a worktree has a diff to capture and a tree to run the commands in. Remove the key, or set isolation: worktree.",
  example: {
    bad: "- {id: run, type: parallel_dispatch, source: $.input.tasks, intent_template: Do {task.id}, isolation: none, capture_diff: true}",
    good: "- {id: run, type: parallel_dispatch, source: $.input.tasks, intent_template: Do {task.id}, capture_diff: true}",
  },
  message: (step: string, key: string) =>
    `Step '${step}' has '${key}' but is not a parallel_dispatch step; it is ignored`,
  isolationMessage: (step: string, isolation: string) =>
    `Step '${step}' has capture_diff but isolation is '${isolation}'; diffs are captured only from worktrees`,
  verifyIsolationMessage: (step: string, isolation: string) =>
    `Step '${step}' has pre_merge_verify but isolation is '${isolation}'; the commands run only in task worktrees`,
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
      const isolation = step.string("isolation")?.value;
      if (isolation === undefined || isolation === "worktree") return;
      for (const key of WORKTREE_KEYS) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        if (key === "capture_diff" && step.boolean(key)?.value !== true) continue;
        const message =
          key === "capture_diff"
            ? SPEC_PARALLEL_KEY_IGNORED.isolationMessage(step.id, isolation)
            : SPEC_PARALLEL_KEY_IGNORED.verifyIsolationMessage(step.id, isolation);
        reporter.report(SPEC_PARALLEL_KEY_IGNORED, {
          message,
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Use isolation: worktree, or remove ${key}`,
        });
      }
    });
  },
});
