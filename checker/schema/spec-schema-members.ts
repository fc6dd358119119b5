// The nested mappings of stratumc's race and debate steps (docs/design/concurrency-constructs.md §3,
// docs/design/concurrency-constructs.md §5): a member (a race's candidate, a debate's debater) and a
// debate's synthesis. A part of the spec format of spec-schema.ts, kept apart so each file has one
// subject.
import type { ShapeSpec, ValueSpec } from "./spec-schema-types";

const STRING: ValueSpec = { kind: "string" };

/** Attempts of a debate's synthesis without `retries`. */
export const DEFAULT_SYNTHESIS_RETRIES = 1;

export const MEMBER: ShapeSpec = {
  name: "member",
  anchor: "member",
  title: "Member",
  description:
    "One member of a race (a candidate) or a debate (a debater), a stratumc extension: its id and, optionally, its own agent and intent.",
  keys: [
    {
      name: "id",
      value: { kind: "string", nonEmpty: true },
      description: "The member's id, unique in the step; results are reported under it.",
      example: "id: careful",
    },
    {
      name: "agent",
      value: STRING,
      description: "The agent that runs this member.",
      default: "the step's agent",
      example: "agent: codex",
    },
    {
      name: "intent",
      value: STRING,
      description: "This member's instruction.",
      default: "the step's intent",
      example: 'intent: "Make the smallest change that passes"',
    },
  ],
  required: ["id"],
  otherKeys: "error",
};

export const SYNTHESIS: ShapeSpec = {
  name: "synthesis",
  anchor: "synthesis",
  title: "Synthesis",
  description:
    "The step that ends a debate (a stratumc extension): it receives every round's arguments and its result is the debate's result.",
  keys: [
    {
      name: "intent",
      value: STRING,
      description: "What the synthesiser is asked to decide.",
      example: 'intent: "Weigh the arguments and decide"',
    },
    {
      name: "agent",
      value: STRING,
      description: "The agent that writes the synthesis.",
      default: "the step's agent",
      example: "agent: claude",
    },
    {
      name: "output_contract",
      value: STRING,
      description: "The contract of the synthesis, and so of the debate step's result.",
      default: "none (the result is not checked against a contract)",
      example: "output_contract: Decision",
    },
    {
      name: "retries",
      value: { kind: "integer", minimum: 1 },
      description: "Maximum number of attempts of the synthesis.",
      default: `\`${DEFAULT_SYNTHESIS_RETRIES}\``,
      example: "retries: 2",
    },
  ],
  required: ["intent"],
  otherKeys: "error",
};
