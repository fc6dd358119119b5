// The mappings of a judge step (docs/reference/language.md §11.3): the `judge` block, one
// predicate, and the judge's budget. A part of the spec format of spec-schema.ts, kept apart so
// each file has one subject. The predicate and the budget accept other keys, as the reference's
// schema does; the `judge` block itself does not.
import type { ShapeSpec, ValueSpec } from "./spec-schema-types";

const STRING: ValueSpec = { kind: "string" };

/** The stakes of a judge without `stakes`. */
export const DEFAULT_JUDGE_STAKES = "default";
export const JUDGE_STAKES = ["cheap", "default", "paranoid"] as const;
const PREDICATE_TYPES = ["deterministic", "verified", "judged"] as const;

export const JUDGE: ShapeSpec = {
  name: "judge",
  anchor: "judge",
  title: "Judge",
  description:
    "What a judge step checks (0.2): the predicates the caller hands to stratum_judge, the stakes and the judge's budget.",
  keys: [
    {
      name: "predicates",
      value: { kind: "seqOf", item: { kind: "shape", shape: "judgePredicate" }, nonEmpty: true },
      description: "The claims to judge, at least one.",
      example:
        "predicates:\n  - {id: built, type: deterministic, statement: \"file_exists('artifacts/build.txt')\"}",
    },
    {
      name: "stakes",
      value: { kind: "enum", values: JUDGE_STAKES },
      description:
        "cheap (deterministic predicates only), default, or paranoid (an adversarial reader checks each met verdict).",
      default: `\`${DEFAULT_JUDGE_STAKES}\``,
      example: "stakes: cheap",
    },
    {
      name: "budget",
      value: { kind: "shape", shape: "judgeBudget" },
      description: "The judge's own limits: turns, dollars, wall-clock seconds.",
      default: "none (no limit)",
      example: "budget: {max_turns: 3, max_wall_clock_s: 120}",
    },
  ],
  required: ["predicates"],
  otherKeys: "error",
};

export const JUDGE_PREDICATE: ShapeSpec = {
  name: "judgePredicate",
  anchor: "judge-predicate",
  title: "Judge predicate",
  description: "One claim a judge step decides; other keys are allowed and ignored.",
  keys: [
    {
      name: "id",
      value: STRING,
      description: "The predicate's id, named in the judge's verdicts.",
      example: "id: built",
    },
    {
      name: "type",
      value: { kind: "enum", values: PREDICATE_TYPES },
      description:
        "deterministic (an expression over the artifacts, decided without an agent), verified or judged (an agent verifier decides).",
      example: "type: deterministic",
    },
    {
      name: "statement",
      value: STRING,
      description:
        "The claim. A deterministic predicate's statement is an expression with file_exists, file_contains, len, min, max, bool, int and str over artifacts/<name>.txt.",
      example: "statement: \"file_contains('artifacts/log.txt', 'PASS')\"",
    },
    {
      name: "applied_gate",
      value: { kind: "integer", minimum: 1, maximum: 10 },
      description: "The confidence (1 to 10) a met verdict needs; below it the verdict is ambiguous.",
      default: "`7`",
      example: "applied_gate: 8",
    },
  ],
  required: ["id", "type", "statement"],
  otherKeys: "any",
};

export const JUDGE_BUDGET: ShapeSpec = {
  name: "judgeBudget",
  anchor: "judge-budget",
  title: "Judge budget",
  description: "The limits of one judge step; other keys are allowed and ignored.",
  keys: [
    {
      name: "max_turns",
      value: { kind: "integer", minimum: 1 },
      description: "How many times stratum_judge may judge the step.",
      default: "none (no limit)",
      example: "max_turns: 3",
    },
    {
      name: "max_dollars",
      value: { kind: "number", minimum: 0 },
      description: "Recorded; not enforced.",
      default: "none",
      example: "max_dollars: 1.5",
    },
    {
      name: "max_wall_clock_s",
      value: { kind: "number", minimum: 0 },
      description: "Seconds one stratum_judge call may take, checked after each predicate.",
      default: "none (no limit)",
      example: "max_wall_clock_s: 300",
    },
  ],
  required: [],
  otherKeys: "any",
};
