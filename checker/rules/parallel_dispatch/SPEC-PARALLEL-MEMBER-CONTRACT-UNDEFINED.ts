// SPEC-PARALLEL-MEMBER-CONTRACT-UNDEFINED: a parallel_dispatch step's member_contract (a stratumc
// extension, docs/design/concurrency-constructs.md §2) names a contract, as output_contract must.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PARALLEL_MEMBER_CONTRACT_UNDEFINED = defineRule({
  code: "SPEC-PARALLEL-MEMBER-CONTRACT-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch step's member_contract names an undefined contract",
  doc: "member_contract (a stratumc extension) names the contract each completed task's result is checked against at run time; it also types the elements of `results` in the step's validate expression. Declare the contract, or correct the name (a close match is suggested).",
  example: {
    bad: "- {id: run, type: parallel_dispatch, source: $.steps.plan.output.tasks, intent_template: 'Do {description}', member_contract: TaskReprt}",
    good: "- {id: run, type: parallel_dispatch, source: $.steps.plan.output.tasks, intent_template: 'Do {description}', member_contract: TaskReport}",
  },
  fix: "Replaces the name with the one contract name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, contract: string) => `Step '${step}' member_contract '${contract}' not defined`,
  visit(on: RuleVisitor): void {
    // On any other kind the key itself is misplaced (SPEC-PARALLEL-ONLY-KEY).
    on.onStep(["parallel_dispatch"], (step, { model, reporter }) => {
      const contract = step.string("member_contract");
      // An empty name declares no contract, as for output_contract.
      if (contract === null || contract.value === "" || model.contractByName.has(contract.value)) return;
      reporter.report(SPEC_PARALLEL_MEMBER_CONTRACT_UNDEFINED, {
        message: SPEC_PARALLEL_MEMBER_CONTRACT_UNDEFINED.message(step.id, contract.value),
        path: stepPath(step, "member_contract"),
        range: valueRange(model.source, contract.entry),
        ...suggestName(contract.entry, contract.value, model.contractByName.keys()),
      });
    });
  },
});
