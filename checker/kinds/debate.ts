// A debate step (type: debate, stratumc's extension, docs/reference/language.md §6.7): debaters argue for
// some rounds, then a synthesiser decides; the step's result is the synthesis's.
import { ANY, dictOf, recordOf, STR } from "../../stdlib/types/type";
import { valueRange } from "../anchors";
import { memberDecls } from "../model/members";
import type { StepDecl } from "../model/types";
import { defineRule } from "../rule";
import { DEFAULT_INLINE_STEP_RETRIES } from "../schema/spec-schema";
import type { SpecSource } from "../source";
import { validKeys } from "./shared";
import type { CheckerKind, IdStep, MissingKey } from "./types";

/** The keys a debate step cannot run without, with the example each suggestion adds. */
const REQUIRED = {
  debaters: "debaters: [{id: pro, intent: ...}, {id: con, intent: ...}]",
  rounds: "rounds: 3",
  synthesis: 'synthesis: {intent: "Weigh the arguments and decide"}',
} as const;

const DEBATE_ONLY_KEYS = ["debaters", "rounds", "argument_contract", "converge", "synthesis"] as const;

const SPEC_DEBATE_MISSING_KEY = defineRule({
  code: "SPEC-DEBATE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A debate step lacks debaters, rounds, synthesis or an intent",
  doc: "A debate step (type: debate, a stratumc extension) lets its debaters argue for some rounds, then a synthesiser decides: it needs debaters (a list of {id, agent, intent}), rounds and synthesis (with a non-empty intent). Every debater needs an instruction, its own intent or else the step's. Add the missing key.",
  example: {
    bad: "- {id: design, type: debate, debaters: [{id: pro}, {id: con}], rounds: 2}",
    good: '- {id: design, type: debate, intent: Argue your side, debaters: [{id: pro}, {id: con}], rounds: 2, synthesis: {intent: "Decide"}}',
  },
  message: (step: string, key: string) => `Debate step '${step}' must have '${key}'`,
});

const SPEC_DEBATE_ONLY_KEY = defineRule({
  code: "SPEC-DEBATE-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of debate steps on another step",
  doc: "debaters, rounds, argument_contract, converge and synthesis describe a debate step (type: debate, a stratumc extension): who argues, for how many rounds, what an argument looks like, when the debate may stop early and who decides. On any other step nothing reads them. Remove the key, or make the step a debate step.",
  example: {
    bad: "- {id: decide, intent: Decide, rounds: 3}",
    good: '- {id: decide, type: debate, intent: Argue, debaters: [{id: pro}, {id: con}], rounds: 3, synthesis: {intent: "Decide"}}',
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a debate step`,
});

/** `synthesis: {intent: ""}`: the schema requires the key, this rule a text in it. */
function emptySynthesisIntent(source: SpecSource, step: IdStep): MissingKey[] {
  const entry = step.map("synthesis")?.value.get("intent");
  if (entry === undefined || entry.value.kind !== "scalar" || entry.value.value !== "") return [];
  return [
    {
      key: "synthesis.intent",
      range: valueRange(source, entry),
      suggestion: `Say what the synthesiser of step '${step.id}' decides`,
    },
  ];
}

/** Each debater with no intent of its own when the step has none either, at the debater's mapping. */
function debatersWithoutIntent(step: IdStep): MissingKey[] {
  const stepIntent = step.string("intent")?.value;
  if (typeof stepIntent === "string" && stepIntent !== "") return [];
  return memberDecls(step, "debaters")
    .filter((member) => member.intent === null || member.intent === "")
    .map((member) => ({
      key: "intent",
      path: `debaters.${member.index}.intent`,
      range: member.node.range,
      detail: `: debater '${member.id}' has none`,
      suggestion: `Give debater '${member.id}' an intent, or give step '${step.id}' one`,
    }));
}

/** A debate's result is its synthesis's: the synthesis's output_contract is the step's. */
function synthesisContract(step: StepDecl): string | null {
  const name = step.map("synthesis")?.value.get("output_contract")?.value;
  return name?.kind === "scalar" && typeof name.value === "string" && name.value !== "" ? name.value : null;
}

export const DEBATE_KIND: CheckerKind = {
  ownKeys: DEBATE_ONLY_KEYS,
  notOffered: ["output_contract"],
  requiredKeys: {
    rule: SPEC_DEBATE_MISSING_KEY,
    missing: (step, model) => [
      // A present key with a structural error was reported already (SCHEMA-*).
      ...Object.entries(REQUIRED)
        .filter(([key]) => step.entry(key) === undefined)
        .map(([key, example]) => ({ key, suggestion: `Add ${example} to step '${step.id}'` })),
      ...emptySynthesisIntent(model.source, step),
      ...debatersWithoutIntent(step),
    ],
  },
  exclusiveKeys: { rule: SPEC_DEBATE_ONLY_KEY, found: (step) => validKeys(step, DEBATE_ONLY_KEYS) },
  memberList: "debaters",
  expressions: ["converge"],
  resultType(step, records) {
    // The synthesis's result (docs/design/concurrency-constructs.md §5).
    const synthesis = step.map("synthesis")?.value;
    const name = synthesis?.get("output_contract")?.value;
    if (name === undefined) return dictOf(STR, ANY);
    const record =
      name.kind === "scalar" && typeof name.value === "string" ? records.get(name.value) : undefined;
    return record === undefined ? ANY : recordOf(record);
  },
  outputContract: synthesisContract,
  retries: { from: "step", default: DEFAULT_INLINE_STEP_RETRIES },
  irPart: "debate",
  stratumcOnly: {
    suggestion:
      "Write the rounds as inline steps, each reading the previous arguments through inputs, then a synthesis step",
  },
};
