// The two table-driven rules of the step kinds, one instance per kind that declares its codes in
// its descriptor (checker/kinds/<kind>.ts): `missing` is SPEC-<KIND>-MISSING-KEY, `only`
// SPEC-<KIND>-ONLY-KEY, each a list of zero or one rule so SEMANTIC_RULES can place them in
// catalogue order.
import { STEP_KINDS, type StepKind } from "../../base/step-kinds";
import { CHECKER_KINDS } from "../../kinds/index";
import type { VisitingRule } from "../types";
import { missingKeyRule } from "./missing-key";
import { onlyKeyRule } from "./only-key";

interface KindKeyRules {
  readonly missing: readonly VisitingRule[];
  readonly only: readonly VisitingRule[];
}

function keyRules(kind: StepKind): KindKeyRules {
  const { requiredKeys, exclusiveKeys } = CHECKER_KINDS[kind];
  return {
    missing: requiredKeys === null ? [] : [missingKeyRule(kind, requiredKeys)],
    only: exclusiveKeys === null ? [] : [onlyKeyRule(kind, exclusiveKeys)],
  };
}

export const KIND_KEY_RULES = Object.fromEntries(STEP_KINDS.map((k) => [k, keyRules(k)])) as Readonly<
  Record<StepKind, KindKeyRules>
>;
