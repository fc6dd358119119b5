// The step keys of version 0.3's parallel step kinds (docs/reference/language.md §6.2, docs/reference/language.md §6.4,
// docs/reference/language.md §6.5): the reference's parallel_dispatch keys and stratumc's extensions (quorum,
// member_contract, validate: docs/design/concurrency-constructs.md), with the defaults the IR applies.
// A part of the step shape of spec-schema.ts, kept apart so each file has one subject.
import type { KeySpec, ValueSpec } from "./spec-schema-types";

/** Version 0.3 parallel_dispatch defaults (docs/reference/language.md §6.2), as the reference's dispatch applies them. */
export const DEFAULT_MAX_CONCURRENT = 3;
export const DEFAULT_ISOLATION = "worktree";
export const DEFAULT_REQUIRE = "all";
export const DEFAULT_MERGE = "sequential_apply";
/** Seconds a server-dispatched task may run (`task_timeout` absent or null). */
export const DEFAULT_TASK_TIMEOUT = 1800;
const ISOLATIONS = ["worktree", "branch", "none"] as const;
const MERGES = ["sequential_apply", "manual"] as const;
const REQUIRE_WORDS = ["all", "any"] as const;

const STRING: ValueSpec = { kind: "string" };
const POSITIVE_INTEGER: ValueSpec = { kind: "integer", minimum: 1 };

/** The 0.3 keys of a step, in catalogue order after the 0.2 keys. */
export const PARALLEL_STEP_KEYS: readonly KeySpec[] = [
  {
    name: "source",
    since: "0.3",
    value: STRING,
    description: "parallel_dispatch: a $ reference to the task list, e.g. $.steps.plan.output.tasks.",
    default: "none (a parallel_dispatch step must set it)",
    example: 'source: "$.steps.plan.output.tasks"',
  },
  {
    name: "intent_template",
    since: "0.3",
    value: STRING,
    description:
      "parallel_dispatch: the instruction of each task; {task.<field>} and {<field>} are replaced by the task's fields.",
    default: "none (a parallel_dispatch step must set it)",
    example: 'intent_template: "Implement {task.description}"',
  },
  {
    name: "max_concurrent",
    since: "0.3",
    value: POSITIVE_INTEGER,
    description: "parallel_dispatch: how many tasks the server runs at once.",
    default: `\`${DEFAULT_MAX_CONCURRENT}\``,
    example: "max_concurrent: 2",
  },
  {
    name: "isolation",
    since: "0.3",
    value: { kind: "enum", values: ISOLATIONS },
    description: "parallel_dispatch: worktree (each task in its own git worktree), branch or none.",
    default: `\`${DEFAULT_ISOLATION}\``,
    example: "isolation: none",
  },
  {
    name: "require",
    since: "0.3",
    value: { kind: "enumOrInteger", values: REQUIRE_WORDS, minimum: 0 },
    description:
      "parallel_dispatch: all, any, or the number of tasks that must complete; 0 (a stratumc extension) never fails the step, validate and ensure decide.",
    default: `\`${DEFAULT_REQUIRE}\``,
    example: "require: any",
  },
  {
    name: "merge",
    since: "0.3",
    value: { kind: "enum", values: MERGES },
    description: "parallel_dispatch: sequential_apply or manual (echoed to the agent that merges).",
    default: `\`${DEFAULT_MERGE}\``,
    example: "merge: manual",
  },
  {
    name: "task_timeout",
    since: "0.3",
    value: { kind: "nullableInteger", minimum: 1 },
    description: "parallel_dispatch: seconds a server-dispatched task may run.",
    default: `\`${DEFAULT_TASK_TIMEOUT}\` (also for null)`,
    example: "task_timeout: 600",
  },
  {
    name: "capture_diff",
    since: "0.3",
    value: { kind: "boolean" },
    description: "parallel_dispatch with isolation worktree: keep each task's diff in its result.",
    default: "`false`",
    example: "capture_diff: true",
  },
  {
    name: "defer_advance",
    since: "0.3",
    value: { kind: "boolean" },
    description: "parallel_dispatch: polling does not advance the flow; stratum_parallel_advance does.",
    default: "`false`",
    example: "defer_advance: true",
  },
  {
    name: "runs",
    since: "0.3",
    value: POSITIVE_INTEGER,
    description: "quorum (a stratumc extension): how many copies of the step run (members r1 … rN).",
    default: "none (a quorum step must set it)",
    example: "runs: 5",
  },
  {
    name: "agree_on",
    since: "0.3",
    value: STRING,
    description:
      "quorum (a stratumc extension): an expression over one run's result; runs whose values are equal agree.",
    default: "none (a quorum step must set it)",
    example: 'agree_on: "result.severity"',
  },
  {
    name: "threshold",
    since: "0.3",
    value: { kind: "number", minimum: 0 },
    description:
      "quorum (a stratumc extension): the votes the largest group needs, as a count (an integer) or a fraction of runs in (0, 1], rounded up.",
    default: "a majority: more than half of runs",
    example: "threshold: 3",
  },
  {
    name: "candidates",
    since: "0.3",
    value: { kind: "countOrSeqOf", minimum: 1, item: { kind: "shape", shape: "member" } },
    description:
      "race (a stratumc extension): how many copies of the step compete (members c1 … cN), or one entry per candidate with its own id, agent and intent.",
    default: "none (a race step must set it)",
    example: "candidates: 3",
  },
  {
    name: "debaters",
    since: "0.3",
    value: { kind: "seqOf", item: { kind: "shape", shape: "member" }, nonEmpty: true },
    description: "debate (a stratumc extension): the debaters, each with an id, an agent and an intent.",
    default: "none (a debate step must set it)",
    example: 'debaters:\n  - {id: pro, intent: "Argue for"}\n  - {id: con, intent: "Argue against"}',
  },
  {
    name: "rounds",
    since: "0.3",
    value: POSITIVE_INTEGER,
    description: "debate (a stratumc extension): the most rounds the debaters argue.",
    default: "none (a debate step must set it)",
    example: "rounds: 3",
  },
  {
    name: "argument_contract",
    since: "0.3",
    value: STRING,
    description:
      "debate (a stratumc extension): the contract each debater's argument of a round is checked against.",
    default: "none (arguments are not checked against a contract)",
    example: "argument_contract: Argument",
  },
  {
    name: "converge",
    since: "0.3",
    value: STRING,
    description:
      "debate (a stratumc extension): an expression over round, history and round_number; true after a round ends the debate early.",
    default: "none (every round runs)",
    example: 'converge: "all(a.position == round[0].position for a in round)"',
  },
  {
    name: "synthesis",
    since: "0.3",
    value: { kind: "shape", shape: "synthesis" },
    description:
      "debate (a stratumc extension): the step that weighs the arguments; its result is the debate's.",
    default: "none (a debate step must set it)",
    example: 'synthesis: {intent: "Weigh the arguments and decide", output_contract: Decision}',
  },
  {
    name: "member_contract",
    since: "0.3",
    value: STRING,
    description:
      "parallel_dispatch (a stratumc extension): the contract each completed task's result is checked against; a violation turns the task into failed.",
    default: "none (task results are not checked against a contract)",
    example: "member_contract: TaskReport",
  },
  {
    name: "validate",
    since: "0.3",
    value: STRING,
    description:
      "parallel_dispatch (a stratumc extension): an expression over results, tasks, completed and failed, evaluated once require and merge pass; false fails the step like an ensure.",
    default: "none (no check beyond require, merge and ensure)",
    example: 'validate: "len(results) >= 2"',
  },
];
