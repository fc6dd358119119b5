// SPEC-DEBATE-CONTRACT-UNDEFINED: a debate step's argument_contract or synthesis.output_contract
// (stratumc's extension, docs/reference/language.md §6.7) names a contract, as output_contract must.
import { valueRange } from "../../anchors";
import type { SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { MapEntry } from "../../yaml/nodes";
import { type NamedStep, stepPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_DEBATE_CONTRACT_UNDEFINED = defineRule({
  code: "SPEC-DEBATE-CONTRACT-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A debate step's argument_contract or synthesis output_contract names an undefined contract",
  doc: "argument_contract (each debater's argument per round) and synthesis.output_contract (the step's result) of a debate step (a stratumc extension) name contracts the results are checked against at run time; they also type `round` and `history` in converge and the step's output. Declare the contract, or correct the name (a close match is suggested).",
  example: {
    bad: "- {id: design, type: debate, intent: Argue, debaters: [{id: pro}], rounds: 2, argument_contract: Argumnt, synthesis: {intent: Decide}}",
    good: "- {id: design, type: debate, intent: Argue, debaters: [{id: pro}], rounds: 2, argument_contract: Argument, synthesis: {intent: Decide}}",
  },
  fix: "Replaces the name with the one contract name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, key: string, contract: string) => `Step '${step}' ${key} '${contract}' not defined`,
  visit(on: RuleVisitor): void {
    // On any other kind the keys themselves are misplaced (SPEC-DEBATE-ONLY-KEY).
    on.onStep(["debate"], (step, { model, reporter }) => {
      const argument = step.string("argument_contract");
      if (argument !== null) report(model, reporter, step, "argument_contract", argument.entry);
      const output = step.map("synthesis")?.value.get("output_contract");
      if (output !== undefined) report(model, reporter, step, "synthesis.output_contract", output);
    });
  },
});

function report(model: SpecModel, reporter: Reporter, step: NamedStep, key: string, entry: MapEntry): void {
  const node = entry.value;
  // An empty name declares no contract, as for output_contract; a non-string is a SCHEMA-* error.
  if (node.kind !== "scalar" || typeof node.value !== "string") return;
  const name = node.value;
  if (name === "" || model.contractByName.has(name)) return;
  reporter.report(SPEC_DEBATE_CONTRACT_UNDEFINED, {
    message: SPEC_DEBATE_CONTRACT_UNDEFINED.message(step.id, key, name),
    path: stepPath(step, key),
    range: valueRange(model.source, entry),
    ...suggestName(entry, name, model.contractByName.keys()),
  });
}
