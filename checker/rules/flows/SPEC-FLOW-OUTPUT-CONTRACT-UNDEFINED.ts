// SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED: a flow's non-empty output must name a contract.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED = defineRule({
  code: "SPEC-FLOW-OUTPUT-CONTRACT-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A flow's output names an undefined contract",
  doc: "A flow's output documents the shape of the flow's final result and must be the name of a contract in the contracts section. Declare the contract, correct the name (a close match is suggested), or remove output (it is optional in 0.2).",
  example: {
    bad: "flows:\n  main: {input: {}, output: ReleaseNote, steps: [{id: a, intent: x}]}",
    good: "flows:\n  main: {input: {}, output: ReleaseNotes, steps: [{id: a, intent: x}]}",
  },
  fix: "Replaces the name with the one contract name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (flow: string, contract: string) => `Flow '${flow}' output contract '${contract}' not defined`,
  visit(on: RuleVisitor): void {
    on.onFlow((flow, { model, reporter }) => {
      const output = flow.string("output");
      if (output === null || output.value === "" || model.contractByName.has(output.value)) return;
      reporter.report(SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED, {
        message: SPEC_FLOW_OUTPUT_CONTRACT_UNDEFINED.message(flow.name, output.value),
        path: `flows.${flow.name}.output`,
        range: valueRange(model.source, output.entry),
        ...suggestName(output.entry, output.value, model.contractByName.keys()),
      });
    });
  },
});
