// A race step (type: race, stratumc's extension, docs/design/concurrency-constructs.md §3): several
// candidates of one task; the first result that passes the step's checks wins.
import { ANY, dictOf, STR } from "../../stdlib/types/type";
import { memberDecls } from "../model/members";
import type { StepDecl } from "../model/types";
import { defineRule } from "../rule";
import { DEFAULT_INLINE_STEP_RETRIES } from "../schema/spec-schema";
import { outputContractType, stepOutputContract, validKeys } from "./shared";
import type { CheckerKind, MissingKey } from "./types";

const RACE_ONLY_KEYS = ["candidates"] as const;

const SPEC_RACE_MISSING_KEY = defineRule({
  code: "SPEC-RACE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A race step lacks candidates or an intent",
  doc: "A race step (type: race, a stratumc extension) runs several candidates of the same task and keeps the first result that passes the step's checks: it needs candidates (a count, or a list of {id, agent, intent}) and an instruction for each candidate, which is the step's intent unless the candidate has its own. Add the missing key; intent must not be empty.",
  example: {
    bad: "- {id: fix, type: race, candidates: 3}",
    good: '- {id: fix, type: race, candidates: 3, intent: "Make the failing test pass"}',
  },
  message: (step: string, key: string) => `Race step '${step}' must have '${key}'`,
});

const SPEC_RACE_ONLY_KEY = defineRule({
  code: "SPEC-RACE-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of race steps on another step",
  doc: "candidates describes a race step (type: race, a stratumc extension): the members that compete for the step's result. On any other step nothing reads it. Remove the key, or make the step a race step.",
  example: {
    bad: "- {id: fix, intent: Fix the bug, candidates: 3}",
    good: "- {id: fix, type: race, intent: Fix the bug, candidates: 3}",
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a race step`,
});

/** A count gives members without an intent of their own; so does a listed member without one. */
function needsStepIntent(step: StepDecl): boolean {
  if (step.integer("candidates") !== null) return true;
  return memberDecls(step, "candidates").some((m) => !hasText(m.intent));
}

function hasText(text: string | undefined | null): boolean {
  return typeof text === "string" && text !== "";
}

export const RACE_KIND: CheckerKind = {
  ownKeys: RACE_ONLY_KEYS,
  notOffered: [],
  requiredKeys: {
    rule: SPEC_RACE_MISSING_KEY,
    missing(step) {
      const out: MissingKey[] = [];
      if (step.entry("candidates") === undefined) {
        out.push({ key: "candidates", suggestion: `Add candidates: 3 to step '${step.id}'` });
      }
      if (needsStepIntent(step) && !hasText(step.string("intent")?.value)) {
        out.push({
          key: "intent",
          suggestion: `Add intent: "<what each candidate does>" to step '${step.id}', or give every candidate its own intent`,
        });
      }
      return out;
    },
  },
  exclusiveKeys: { rule: SPEC_RACE_ONLY_KEY, found: (step) => validKeys(step, RACE_ONLY_KEYS) },
  memberList: "candidates",
  expressions: [],
  // The winning candidate's result.
  resultType: (step, records) => outputContractType(step, records, dictOf(STR, ANY)),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_INLINE_STEP_RETRIES },
  irPart: "race",
  stratumcOnly: { suggestion: "Use an inline step with retries (one attempt at a time)" },
};
