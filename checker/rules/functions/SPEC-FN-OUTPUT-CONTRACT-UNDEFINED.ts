// SPEC-FN-OUTPUT-CONTRACT-UNDEFINED: an infer/compute function's output must name a contract.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { functionPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_FN_OUTPUT_CONTRACT_UNDEFINED = defineRule({
  code: "SPEC-FN-OUTPUT-CONTRACT-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A function's output names an undefined contract",
  doc: "The output of an infer or compute function is the name of a contract in the contracts section; it types `result` in ensure expressions and is checked at run time. Declare the contract, or correct the name (a close match is suggested).",
  example: {
    bad: "functions:\n  summarize: {mode: infer, intent: x, input: {}, output: Sumary}",
    good: "functions:\n  summarize: {mode: infer, intent: x, input: {}, output: Summary}",
  },
  fix: "Replaces the name with the one contract name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (fn: string, contract: string) => `Function '${fn}' output contract '${contract}' not defined`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { model, reporter }) => {
      // Gate functions ignore `output`; a function of unknown mode is skipped (docs/reference/language.md §9.3).
      if (fn.mode !== "infer" && fn.mode !== "compute") return;
      const output = fn.string("output");
      if (output === null || model.contractByName.has(output.value)) return;
      reporter.report(SPEC_FN_OUTPUT_CONTRACT_UNDEFINED, {
        message: SPEC_FN_OUTPUT_CONTRACT_UNDEFINED.message(fn.name, output.value),
        path: functionPath(fn, "output"),
        range: valueRange(model.source, output.entry),
        ...suggestName(output.entry, output.value, model.contractByName.keys()),
      });
    });
  },
});
