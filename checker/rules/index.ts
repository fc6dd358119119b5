// Every semantic rule of docs/language.md §9.5.3–docs/language.md §9.5.4 except the graph rules (checker/graph) and
// SPEC-OUTPUT-SCHEMA-INVALID (checker/schema), in catalogue order: the docs/language.md §9.5.3 table, then docs/language.md §9.5.4.
import { SPEC_CONTRACT_FIELD_TYPE_UNKNOWN } from "./contracts/field-type-unknown";
import { SPEC_CONTRACT_FIELD_UNKNOWN_KEY } from "./contracts/field-unknown-key";
import { SPEC_CONTRACT_ITEMS_NOT_ARRAY } from "./contracts/items-not-array";
import { SPEC_CONTRACT_SHORTHAND } from "./contracts/shorthand";
import { SPEC_CONTRACT_VALUES_TYPE } from "./contracts/values-type";
import {
  SPEC_DEBATE_CONTRACT_UNDEFINED,
  SPEC_DEBATE_MISSING_KEY,
  SPEC_DEBATE_ONLY_KEY,
} from "./debate/index";
import { SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED } from "./flows/output-contract-undefined";
import { SPEC_GATE_FN_BUDGET } from "./functions/gate-fn-budget";
import { SPEC_GATE_FN_ENSURE } from "./functions/gate-fn-ensure";
import { SPEC_GATE_FN_RETRIES } from "./functions/gate-fn-retries";
import { SPEC_FN_INPUT_REQUIRED } from "./functions/input-required";
import { SPEC_FN_INTENT_REQUIRED } from "./functions/intent-required";
import { SPEC_FN_OUTPUT_CONTRACT_UNDEFINED } from "./functions/output-contract-undefined";
import { SPEC_FN_TIMEOUT_NOT_GATE } from "./functions/timeout-not-gate";
import { SPEC_GATE_ACCUMULATE } from "./gates/accumulate";
import { SPEC_GATE_EXIT_CRITERION } from "./gates/exit-criterion";
import { SPEC_GATE_MAX_ITERATIONS } from "./gates/max-iterations";
import { SPEC_GATE_NEXT } from "./gates/next";
import { SPEC_GATE_ON_FAIL } from "./gates/on-fail";
import { SPEC_GATE_ON_REVISE_MISSING } from "./gates/on-revise-missing";
import { SPEC_GATE_ON_REVISE_SELF } from "./gates/on-revise-self";
import { SPEC_GATE_OUTPUT_SCHEMA } from "./gates/output-schema";
import { SPEC_GATE_POLICY_FALLBACK_NO_POLICY } from "./gates/policy-fallback-no-policy";
import { SPEC_GATE_ROUTE_UNDECLARED } from "./gates/route-undeclared";
import { SPEC_ACCUMULATE_KEY_NO_ACCUMULATE } from "./iteration/accumulate-key-no-accumulate";
import { SPEC_ACCUMULATE_NO_MAX } from "./iteration/accumulate-no-max";
import { SPEC_EXIT_CRITERION_NO_MAX } from "./iteration/exit-criterion-no-max";
import { SPEC_MEMBER_DUPLICATE_ID } from "./members/duplicate-id";
import { SPEC_PARALLEL_UNSUPPORTED_KEY } from "./parallel/accumulate";
import { SPEC_STEP_KIND_IGNORED_KEY } from "./parallel/ignored-key";
import { SPEC_PARALLEL_MEMBER_CONTRACT_UNDEFINED } from "./parallel/member-contract-undefined";
import { SPEC_DECOMPOSE_MISSING_KEY, SPEC_PARALLEL_MISSING_KEY } from "./parallel/missing-key";
import { SPEC_PARALLEL_ONLY_KEY } from "./parallel/only-key";
import { SPEC_PARALLEL_KEY_IGNORED } from "./parallel/parallel-key-ignored";
import { SPEC_PARALLEL_REASONING_TEMPLATE } from "./parallel/reasoning-template";
import { SPEC_STEP_TYPE_MISMATCH } from "./parallel/type-mismatch";
import {
  SPEC_QUORUM_MISSING_KEY,
  SPEC_QUORUM_ONLY_KEY,
  SPEC_QUORUM_THRESHOLD_INVALID,
  SPEC_QUORUM_THRESHOLD_UNREACHABLE,
} from "./quorum/index";
import { SPEC_RACE_MISSING_KEY, SPEC_RACE_ONLY_KEY } from "./race/index";
import { SPEC_FLOW_STEP_AGENT } from "./steps/flow-step-agent";
import { SPEC_FLOW_STEP_FIELD } from "./steps/flow-step-field";
import { SPEC_STEP_FLOW_UNDEFINED } from "./steps/flow-undefined";
import { SPEC_FN_STEP_FIELD } from "./steps/fn-step-field";
import { SPEC_STEP_FUNCTION_UNDEFINED } from "./steps/function-undefined";
import { SPEC_NONGATE_GATE_ROUTE } from "./steps/nongate-gate-route";
import { SPEC_NONGATE_GATE_ROUTE_NULL } from "./steps/nongate-gate-route-null";
import { SPEC_NONGATE_POLICY } from "./steps/nongate-policy";
import { SPEC_ON_FAIL_NO_VALIDATION } from "./steps/on-fail-no-validation";
import { SPEC_OUTPUT_CONTRACT_UNDEFINED } from "./steps/output-contract-undefined";
import {
  SPEC_REASONING_TEMPLATE_SECTIONS,
  SPEC_REASONING_TEMPLATE_STEP_KIND,
} from "./steps/reasoning-template";
import { SPEC_ROUTE_UNKNOWN_STEP } from "./steps/route-unknown-step";
import { SPEC_STEP_MODE } from "./steps/step-mode";
import type { SemanticRule } from "./types";
import { SPEC_WORKFLOW_INPUT_MISMATCH } from "./workflow/input-mismatch";
import { SPEC_WORKFLOW_NO_ENTRY } from "./workflow/no-entry";

export const SEMANTIC_RULES: readonly SemanticRule[] = [
  // docs/language.md §9.5.3 functions, workflow, flows, contracts
  SPEC_GATE_FN_ENSURE,
  SPEC_GATE_FN_BUDGET,
  SPEC_GATE_FN_RETRIES,
  SPEC_FN_OUTPUT_CONTRACT_UNDEFINED,
  SPEC_FN_INTENT_REQUIRED,
  SPEC_FN_INPUT_REQUIRED,
  SPEC_FN_TIMEOUT_NOT_GATE,
  SPEC_WORKFLOW_NO_ENTRY,
  SPEC_WORKFLOW_INPUT_MISMATCH,
  SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED,
  SPEC_CONTRACT_FIELD_TYPE_UNKNOWN,
  SPEC_CONTRACT_VALUES_TYPE,
  SPEC_CONTRACT_ITEMS_NOT_ARRAY,
  SPEC_CONTRACT_FIELD_UNKNOWN_KEY,
  SPEC_CONTRACT_SHORTHAND,
  // docs/language.md §9.5.4 steps (the graph rules live in checker/graph)
  SPEC_STEP_MODE,
  SPEC_STEP_FUNCTION_UNDEFINED,
  SPEC_FN_STEP_FIELD,
  SPEC_GATE_OUTPUT_SCHEMA,
  SPEC_GATE_MAX_ITERATIONS,
  SPEC_GATE_EXIT_CRITERION,
  SPEC_GATE_ACCUMULATE,
  SPEC_GATE_ROUTE_UNDECLARED,
  SPEC_GATE_ON_REVISE_MISSING,
  SPEC_GATE_ON_REVISE_SELF,
  SPEC_ROUTE_UNKNOWN_STEP,
  SPEC_STEP_FLOW_UNDEFINED,
  SPEC_FLOW_STEP_AGENT,
  SPEC_FLOW_STEP_FIELD,
  SPEC_NONGATE_GATE_ROUTE,
  SPEC_NONGATE_GATE_ROUTE_NULL,
  SPEC_ON_FAIL_NO_VALIDATION,
  SPEC_REASONING_TEMPLATE_STEP_KIND,
  SPEC_REASONING_TEMPLATE_SECTIONS,
  SPEC_NONGATE_POLICY,
  SPEC_EXIT_CRITERION_NO_MAX,
  SPEC_ACCUMULATE_NO_MAX,
  SPEC_ACCUMULATE_KEY_NO_ACCUMULATE,
  SPEC_GATE_ON_FAIL,
  SPEC_GATE_NEXT,
  SPEC_GATE_POLICY_FALLBACK_NO_POLICY,
  SPEC_OUTPUT_CONTRACT_UNDEFINED,
  // docs/language.md §9.5.4, version 0.3: decompose and parallel_dispatch steps
  SPEC_DECOMPOSE_MISSING_KEY,
  SPEC_PARALLEL_MISSING_KEY,
  SPEC_PARALLEL_ONLY_KEY,
  SPEC_PARALLEL_REASONING_TEMPLATE,
  SPEC_PARALLEL_UNSUPPORTED_KEY,
  SPEC_STEP_KIND_IGNORED_KEY,
  SPEC_PARALLEL_KEY_IGNORED,
  SPEC_STEP_TYPE_MISMATCH,
  SPEC_PARALLEL_MEMBER_CONTRACT_UNDEFINED, // stratumc's extension (docs/concurrency-constructs.md §2)
  // version 0.3, quorum steps (stratumc's extension)
  SPEC_QUORUM_MISSING_KEY,
  SPEC_QUORUM_ONLY_KEY,
  SPEC_QUORUM_THRESHOLD_INVALID,
  SPEC_QUORUM_THRESHOLD_UNREACHABLE,
  // version 0.3, race steps (stratumc's extension), and the members of race and debate steps
  SPEC_RACE_MISSING_KEY,
  SPEC_RACE_ONLY_KEY,
  SPEC_MEMBER_DUPLICATE_ID,
  // version 0.3, debate steps (stratumc's extension)
  SPEC_DEBATE_MISSING_KEY,
  SPEC_DEBATE_ONLY_KEY,
  SPEC_DEBATE_CONTRACT_UNDEFINED,
];
