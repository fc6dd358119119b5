// A quorum step (type: quorum, stratumc's extension, docs/reference/language.md §6.5): the same step run
// `runs` times; the result most runs agree on (`agree_on`) wins.
import { ANY, dictOf, STR } from "../../stdlib/types/type";
import { defineRule } from "../rule";
import { DEFAULT_INLINE_STEP_RETRIES } from "../schema/spec-schema";
import { addKey, outputContractType, stepOutputContract, validKeys } from "./shared";
import type { CheckerKind } from "./types";

/** The keys a quorum step cannot run without, with the example value each suggestion adds. */
const REQUIRED = {
  runs: "5",
  agree_on: '"result.severity"',
  intent: '"Classify the ticket\'s severity"',
} as const;

const QUORUM_ONLY_KEYS = ["runs", "agree_on", "threshold"] as const;

const SPEC_QUORUM_MISSING_KEY = defineRule({
  code: "SPEC-QUORUM-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A quorum step lacks runs, agree_on or intent",
  doc: "A quorum step (type: quorum, a stratumc extension) runs the same step several times and keeps the result most runs agree on: it needs runs (how many copies run), agree_on (the expression over one run's result the copies vote with) and intent (what each copy is asked to do). Add the missing key; intent and agree_on must not be empty.",
  example: {
    bad: "- {id: classify, type: quorum, intent: Classify the ticket, runs: 5}",
    good: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 5, agree_on: "result.severity"}',
  },
  message: (step: string, key: string) => `Quorum step '${step}' must have '${key}'`,
});

const SPEC_QUORUM_ONLY_KEY = defineRule({
  code: "SPEC-QUORUM-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of quorum steps on another step",
  doc: "runs, agree_on and threshold describe a quorum step (type: quorum, a stratumc extension): how many copies run, what they vote on and how many must agree. On any other step nothing reads them. Remove the key, or make the step a quorum step.",
  example: {
    bad: "- {id: classify, intent: Classify the ticket, runs: 3}",
    good: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 3, agree_on: "result.severity"}',
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a quorum step`,
});

export const QUORUM_KIND: CheckerKind = {
  ownKeys: QUORUM_ONLY_KEYS,
  notOffered: [],
  requiredKeys: {
    rule: SPEC_QUORUM_MISSING_KEY,
    missing: (step) =>
      Object.entries(REQUIRED)
        // A present key with a structural error was reported already (SCHEMA-*); the texts must
        // not be empty.
        .filter(
          ([key]) => step.entry(key) === undefined || (key !== "runs" && step.string(key)?.value === ""),
        )
        .map(([key, example]) => addKey(step, key, example)),
  },
  exclusiveKeys: { rule: SPEC_QUORUM_ONLY_KEY, found: (step) => validKeys(step, QUORUM_ONLY_KEYS) },
  memberList: null,
  expressions: ["agree_on"],
  // The first result of the winning group: the output contract's type.
  resultType: (step, records) => outputContractType(step, records, dictOf(STR, ANY)),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_INLINE_STEP_RETRIES },
  irPart: "quorum",
  stratumcOnly: {
    suggestion:
      "Run the copies as tasks of a parallel_dispatch step and count the agreeing results in its ensure",
  },
};
