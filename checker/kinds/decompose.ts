// A decompose step (type: decompose, version 0.3): an agent breaks the work into a task graph.
import { ANY, dictOf, STR } from "../../stdlib/types/type";
import { defineRule } from "../rule";
import { DEFAULT_PARALLEL_STEP_RETRIES } from "../schema/spec-schema";
import { addKey, missingOrEmpty, outputContractType, stepOutputContract } from "./shared";
import type { CheckerKind } from "./types";

const EXAMPLES = {
  agent: "claude",
  intent: '"Break the work into tasks"',
  output_contract: "TaskGraph",
} as const;

const SPEC_DECOMPOSE_MISSING_KEY = defineRule({
  code: "SPEC-DECOMPOSE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A decompose step lacks agent, intent or output_contract",
  doc: "A decompose step (type: decompose) asks an agent to break the work into a task graph: it needs the agent that does it, the intent that says what to decompose, and the output_contract of the graph (usually a TaskGraph contract with a tasks list). Add the missing key with a non-empty value.",
  example: {
    bad: "- {id: plan, type: decompose, agent: claude, intent: Plan the work}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan the work, output_contract: TaskGraph}",
  },
  message: (step: string, key: string) => `Decompose step '${step}' must have '${key}'`,
});

export const DECOMPOSE_KIND: CheckerKind = {
  ownKeys: [],
  notOffered: [],
  requiredKeys: {
    rule: SPEC_DECOMPOSE_MISSING_KEY,
    missing: (step) =>
      Object.entries(EXAMPLES)
        .filter(([key]) => missingOrEmpty(step, key))
        .map(([key, example]) => addKey(step, key, example)),
  },
  exclusiveKeys: null,
  memberList: null,
  expressions: [],
  resultType: (step, records) => outputContractType(step, records, dictOf(STR, ANY)),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_PARALLEL_STEP_RETRIES },
  irPart: null,
  stratumcOnly: null,
};
