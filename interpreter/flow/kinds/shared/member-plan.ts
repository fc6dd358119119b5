// How the executor runs a member step's members (docs/reference/runtime.md §23.16): all at once, each with its
// own intent and agent (the task objects of member-tasks.ts), no worktree, the timeout the IR gives (the default: no key sets it), no
// certificate and no cascade (a quorum and a round need every member; a race's losers are
// cancelled when a candidate wins).
import { dictGetStr } from "../../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import type { ExecutorPlan } from "../../executor-plan";

export function memberPlan(taskTimeout: number, taskCount: number): ExecutorPlan {
  const text = (task: PyValue, key: string): string | null => {
    const v = task instanceof PyDict ? dictGetStr(task, key) : undefined;
    return typeof v === "string" ? v : null;
  };
  return {
    maxConcurrent: Math.max(1, taskCount),
    taskTimeout,
    isolation: "none",
    captureDiff: false,
    prompt: (task) => text(task, "intent") ?? "",
    agent: (task) => text(task, "agent"),
    certificate: () => null,
    lost: () => false,
  };
}
