// The nested mappings of reference 0.2.69's pipeline step (docs/reference/language.md §6.9): a
// stage and a stage's fanout. A part of the spec format of spec-schema.ts, kept apart so each file
// has one subject.
import type { KeySpec, ShapeSpec, ValueSpec } from "./spec-schema-types";

const STRING: ValueSpec = { kind: "string" };
const POSITIVE_INTEGER: ValueSpec = { kind: "integer", minimum: 1 };

/** The `stages` key of a step (0.3): a non-empty list of stages. */
export const STAGES_KEY: KeySpec = {
  name: "stages",
  since: "0.3",
  value: { kind: "seqOf", item: { kind: "shape", shape: "stage" }, nonEmpty: true },
  description:
    "pipeline: the stages every element of source goes through in order, each with its own intent_template, agent and routing predicates.",
  default: "none (a pipeline step must set it)",
  example:
    'stages:\n  - {intent_template: "Extract the API of {item}"}\n  - {intent_template: "Review {prev}"}',
};

export const STAGE: ShapeSpec = {
  name: "stage",
  anchor: "stage",
  title: "Stage",
  description:
    "One stage of a pipeline step (reference 0.2.69): the task every element runs at this position of its chain.",
  keys: [
    {
      name: "intent_template",
      value: STRING,
      description:
        "The stage's prompt: {item} (the element), the element's fields, {prev} / {prev_raw} (the previous stage's output), {source} in a lane, {prevs} in a join.",
      example: 'intent_template: "Review {prev} for {item}"',
    },
    {
      name: "agent",
      value: STRING,
      description: "The agent that runs this stage.",
      default: "the step's agent",
      example: "agent: codex",
    },
    {
      name: "task_reasoning_template",
      value: { kind: "freeMapping" },
      description:
        "This stage's reasoning certificate; unlike the step's, it applies whatever the stage's agent.",
      default: "the step's task_reasoning_template, for claude agents only",
      example: "task_reasoning_template: {require_citations: false}",
    },
    {
      name: "task_timeout",
      value: POSITIVE_INTEGER,
      description: "Seconds this stage's task may run.",
      default: "the step's task_timeout",
      example: "task_timeout: 600",
    },
    {
      name: "when",
      value: STRING,
      description:
        "An expression over item (and prev, prev_raw after stage 0), evaluated before the stage runs for an element; false skips the stage.",
      default: "none (the stage always runs)",
      example: "when: \"prev_raw['public']\"",
    },
    {
      name: "exit_when",
      value: STRING,
      description:
        "An expression over item, result and result_raw, evaluated after the stage completed for an element; true skips the element's remaining stages.",
      default: "none (the chain goes on)",
      example: "exit_when: \"result_raw['verdict'] == 'ok'\"",
    },
    {
      name: "fanout",
      value: { kind: "shape", shape: "fanout" },
      description:
        "This stage's output is a list of at most max elements, each run through the following stages in its own lane until the join.",
      default: "none (no lanes)",
      example: "fanout: {max: 4, require: any}",
    },
    {
      name: "join",
      value: { kind: "boolean" },
      description: "This stage runs once per element over the lanes' outputs ({prevs}).",
      default: "`false`",
      example: "join: true",
    },
  ],
  required: ["intent_template"],
  otherKeys: "error",
};

export const FANOUT: ShapeSpec = {
  name: "fanout",
  anchor: "fanout",
  title: "Fanout",
  description: "How a pipeline stage splits its output into lanes (reference 0.2.69).",
  keys: [
    {
      name: "max",
      value: POSITIVE_INTEGER,
      description: "The most lanes: the split stage's output list may not be longer.",
      example: "max: 4",
    },
    {
      name: "require",
      value: { kind: "enumOrInteger", values: ["all", "any"], minimum: 1 },
      description: "all, any, or how many filled lanes must complete for the join to run.",
      default: "`all`",
      example: "require: any",
    },
  ],
  required: ["max"],
  otherKeys: "error",
};
