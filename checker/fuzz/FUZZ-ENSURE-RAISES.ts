// FUZZ-ENSURE-RAISES: ensure raises on a result that satisfies the contract.
import { defineRule } from "../rule";

export const FUZZ_ENSURE_RAISES = defineRule({
  code: "FUZZ-ENSURE-RAISES",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "ensure raises on a result that satisfies the contract",
  doc:
    "On some run the fuzzer reached, this ensure expression raised a run-time error for a result " +
    "that passed the step's contract and output_schema. A raising ensure counts as a violation, so " +
    "a correct result is rejected and the step is retried or exhausted. Typical causes: reading an " +
    "optional field that is absent or null, dividing by a field that may be 0, max()/min() or [0] " +
    "of a list that may be empty. Guard the read (result.get('f'), `x or 0`, `len(xs) == 0 or …`) " +
    "or make the field required.",
  example: {
    bad: "note: {type: string, required: false}\n…\nensure: [\"result.note.strip() != ''\"]",
    good: "ensure: [\"result.get('note') is None or result.get('note').strip() != ''\"]",
  },
  message: (expr: string, error: string) => `ensure '${expr}' raised on a conforming result: ${error}`,
});
