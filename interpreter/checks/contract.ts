// The contract check (docs/reference/runtime.md §4.2, docs/reference/language.md §3.2): a step result against the step's output
// contract, field by field in declaration order, depth first through nested contracts and array
// `items`. Every violation is reported; a field with the wrong kind is not looked into further.

import type { JsonValue } from "../../checker/base/json";
import type { CheckedSpec, ContractIR, FieldDefIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { pyEquals } from "../../stdlib/values/equality";
import { repr } from "../../stdlib/values/repr";
import type { PyValue } from "../../stdlib/values/value";
import { asArray, asObject, isIntegral, isNumeric, jsonKind, pyFromJson } from "./json-kinds";

/** What every contract violation text starts with. */
export const CONTRACT_PREFIX = "contract violation: ";
const PREFIX = CONTRACT_PREFIX;

/** Violations `contract violation: …` of `result` against `contract`, in declaration order, depth first. */
export function checkContract(result: PyValue, contract: ContractIR, spec: CheckedSpec): string[] {
  const out: string[] = [];
  if (asObject(result) === null) {
    out.push(`${PREFIX}result must be an object (contract '${contract.name}'), got ${jsonKind(result)}`);
    return out;
  }
  checkFields(result, contract, "", spec, out);
  return out;
}

/** The fields of `contract` on an object value; `prefix` is the object's path (`""` at the root). */
function checkFields(
  value: PyValue,
  contract: ContractIR,
  prefix: string,
  spec: CheckedSpec,
  out: string[],
): void {
  const object = asObject(value);
  if (object === null) return;
  for (const [name, def] of contract.fields) {
    const path = prefix === "" ? name : `${prefix}.${name}`;
    const fieldValue = dictGetStr(object, name);
    if (fieldValue === undefined) {
      if (def.required) out.push(`${PREFIX}missing required field '${path}' (contract '${contract.name}')`);
      continue;
    }
    checkValue(fieldValue, def, path, spec, out);
  }
}

/** One present value (a field or an array element) against its definition. */
function checkValue(value: PyValue, def: FieldDefIR, path: string, spec: CheckedSpec, out: string[]): void {
  if (value === null && !def.required) return;
  if (!accepts(def, value)) {
    out.push(`${PREFIX}field '${path}' must be of type ${def.type}, got ${jsonKind(value)}`);
    return;
  }
  if (def.values !== null && !isAmong(value, def.values)) {
    out.push(
      `${PREFIX}field '${path}' must be one of ${repr(def.values.map(pyFromJson))}, got ${repr(value)}`,
    );
  }
  if (def.kind === "array" && def.items !== null) {
    const items = asArray(value) ?? [];
    const itemDef = def.items;
    items.forEach((item, i) => {
      checkValue(item, itemDef, `${path}[${i}]`, spec, out);
    });
  } else if (def.kind === "contract") {
    const nested = spec.contracts.get(def.type);
    if (nested !== undefined) checkFields(value, nested, path, spec, out);
  }
}

/** Whether the JSON kind of `value` is acceptable for the field's type (docs/reference/language.md §3.2). */
function accepts(def: FieldDefIR, value: PyValue): boolean {
  switch (def.kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return isNumeric(value);
    case "integer":
      return isIntegral(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return asArray(value) !== null;
    case "object":
    case "contract":
      return asObject(value) !== null;
  }
}

/** `values` membership by Python equality (docs/reference/language.md §10.8.2). */
function isAmong(value: PyValue, values: readonly JsonValue[]): boolean {
  return values.some((candidate) => pyEquals(value, pyFromJson(candidate)));
}
