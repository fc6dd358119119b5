// The FUZZ-* codes: what `stratumc fuzz` finds by running a spec, in the one catalogue
// with the checker's rules, so `explain`, SARIF rule metadata, the LSP and docs/reference/rules.md describe
// them like every other code. The fuzzer (fuzzer/) builds its findings through these templates;
// nothing in the checker reports them. Each code is declared in its own file, named after it;
// this module lists them in catalogue order.
import type { RuleInfo } from "../rule";
import { FUZZ_ACCUMULATE_FAILS } from "./FUZZ-ACCUMULATE-FAILS";
import { FUZZ_DEAD_STEP } from "./FUZZ-DEAD-STEP";
import { FUZZ_ENSURE_RAISES } from "./FUZZ-ENSURE-RAISES";
import { FUZZ_ENSURE_UNSATISFIABLE } from "./FUZZ-ENSURE-UNSATISFIABLE";
import { FUZZ_EXIT_CRITERION_RAISES } from "./FUZZ-EXIT-CRITERION-RAISES";
import { FUZZ_EXIT_NEVER } from "./FUZZ-EXIT-NEVER";
import { FUZZ_FLOW_OUTPUT } from "./FUZZ-FLOW-OUTPUT";
import { FUZZ_GUARDRAIL_BLOCKS_ALL } from "./FUZZ-GUARDRAIL-BLOCKS-ALL";
import { FUZZ_INPUT_READS_SKIPPED } from "./FUZZ-INPUT-READS-SKIPPED";
import { FUZZ_INPUT_UNRESOLVED } from "./FUZZ-INPUT-UNRESOLVED";
import { FUZZ_INTERNAL } from "./FUZZ-INTERNAL";
import { FUZZ_NO_COMPLETION } from "./FUZZ-NO-COMPLETION";
import { FUZZ_PROPERTY_VIOLATED } from "./FUZZ-PROPERTY-VIOLATED";
import { FUZZ_SKIP_IF_RAISES } from "./FUZZ-SKIP-IF-RAISES";
import { FUZZ_UNBOUNDED_LOOP } from "./FUZZ-UNBOUNDED-LOOP";
import { FUZZ_WORKER_FAILED } from "./FUZZ-WORKER-FAILED";

export const FUZZ_RULES: readonly RuleInfo[] = [
  FUZZ_ENSURE_RAISES,
  FUZZ_SKIP_IF_RAISES,
  FUZZ_EXIT_CRITERION_RAISES,
  FUZZ_ACCUMULATE_FAILS,
  FUZZ_INPUT_UNRESOLVED,
  FUZZ_INPUT_READS_SKIPPED,
  FUZZ_FLOW_OUTPUT,
  FUZZ_UNBOUNDED_LOOP,
  FUZZ_NO_COMPLETION,
  FUZZ_DEAD_STEP,
  FUZZ_ENSURE_UNSATISFIABLE,
  FUZZ_EXIT_NEVER,
  FUZZ_PROPERTY_VIOLATED,
  FUZZ_GUARDRAIL_BLOCKS_ALL,
  FUZZ_INTERNAL,
  FUZZ_WORKER_FAILED,
];
