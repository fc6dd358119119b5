// SPEC-OUTPUT-CONTRACT-UNDEFINED: an inline or sub-flow step's output_contract names a contract.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_OUTPUT_CONTRACT_UNDEFINED = defineRule({
  code: "SPEC-OUTPUT-CONTRACT-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A step's output_contract names an undefined contract",
  doc: "output_contract names the contract a step's result must satisfy; it is checked at run time, listed in the dispatch payload and types `result` in expressions. Declare the contract, or correct the name (a close match is suggested).",
  example: {
    bad: "- {id: review, intent: x, output_contract: Verdikt}",
    good: "- {id: review, intent: x, output_contract: Verdict}",
  },
  fix: "Replaces the name with the one contract name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, contract: string) => `Step '${step}' output_contract '${contract}' not defined`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      // On a function or gate step the field itself is misplaced (SPEC-FN-STEP-FIELD).
      if (step.kind === "function" || step.kind === "gate") return;
      const contract = step.string("output_contract");
      // An empty name declares no contract, as for a flow's output.
      if (contract === null || contract.value === "" || model.contractByName.has(contract.value)) return;
      reporter.report(SPEC_OUTPUT_CONTRACT_UNDEFINED, {
        message: SPEC_OUTPUT_CONTRACT_UNDEFINED.message(step.id, contract.value),
        path: stepPath(step, "output_contract"),
        range: valueRange(model.source, contract.entry),
        ...suggestName(contract.entry, contract.value, model.contractByName.keys()),
      });
    });
  },
});
