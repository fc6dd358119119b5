// Helpers several descriptors share: presence tests of the key rules, the missing-key suggestion,
// and the result type and IR contract of a step whose `output_contract` names its result.
import { ANY, recordOf, type Type } from "../../stdlib/types/type";
import type { StepDecl } from "../model/types";
import type { ForeignKey, IdStep, MissingKey, Records } from "./types";

/** The keys present and structurally valid (a key with a structural error was reported already). */
export function validKeys(step: StepDecl, keys: readonly string[]): readonly ForeignKey[] {
  return keys.filter((key) => step.entry(key) !== undefined && step.valid(key)).map((key) => ({ key }));
}

/** A key that is absent, or valid and the empty string (the reference's "missing or empty"). */
export function missingOrEmpty(step: StepDecl, key: string): boolean {
  if (step.entry(key) === undefined) return true;
  return step.string(key)?.value === "";
}

/** `key` is missing; the suggestion adds it with an example value. */
export function addKey(step: IdStep, key: string, example: string): MissingKey {
  return { key, suggestion: `Add ${key}: ${example} to step '${step.id}'` };
}

/** The non-empty `output_contract` the step names, or null. */
export function stepOutputContract(step: StepDecl): string | null {
  return step.string("output_contract")?.value || null;
}

/** The record `output_contract` names; `withoutContract` when there is no such key, `any` when unknown. */
export function outputContractType(step: StepDecl, records: Records, withoutContract: Type): Type {
  if (step.entry("output_contract") === undefined) return withoutContract;
  const name = step.string("output_contract");
  const record = name === null ? undefined : records.get(name.value);
  return record === undefined ? ANY : recordOf(record);
}
