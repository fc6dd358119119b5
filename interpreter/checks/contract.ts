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
  check(result, contract, spec, out);
  return out;
}

/**
 * Whether `result` conforms to `contract`: checkContract finds no violation. The same walk, which
 * stops at the first violation and builds no text or path (a reported result usually conforms,
 * and its check is on every transition's path).
 */
export function conformsToContract(result: PyValue, contract: ContractIR, spec: CheckedSpec): boolean {
  return check(result, contract, spec, null);
}

/**
 * The walk of both: `out` collects every violation's text; null asks only whether there is one
 * (false at the first, no text built). Returns whether no violation was found.
 */
function check(result: PyValue, contract: ContractIR, spec: CheckedSpec, out: string[] | null): boolean {
  if (asObject(result) === null) {
    out?.push(`${PREFIX}result must be an object (contract '${contract.name}'), got ${jsonKind(result)}`);
    return false;
  }
  return checkFields(result, contract, "", spec, out);
}

/**
 * The fields of `contract` on an object value; `prefix` is the object's path (`""` at the root,
 * and wherever `out` is null: paths are only for texts).
 */
function checkFields(
  value: PyValue,
  contract: ContractIR,
  prefix: string,
  spec: CheckedSpec,
  out: string[] | null,
): boolean {
  const object = asObject(value);
  if (object === null) return true;
  let ok = true;
  // forEach, not for-of: no entry pair per field. `stop` ends the walk at the first violation
  // when only the answer is wanted.
  let stop = false;
  contract.fields.forEach((def, name) => {
    if (stop) return;
    const fieldValue = dictGetStr(object, name);
    if (fieldValue === undefined) {
      if (!def.required) return;
      ok = false;
      if (out === null) stop = true;
      else
        out.push(`${PREFIX}missing required field '${pathOf(prefix, name)}' (contract '${contract.name}')`);
      return;
    }
    if (!checkValue(fieldValue, def, out === null ? "" : pathOf(prefix, name), spec, out)) {
      ok = false;
      if (out === null) stop = true;
    }
  });
  return ok;
}

function pathOf(prefix: string, name: string): string {
  return prefix === "" ? name : `${prefix}.${name}`;
}

/** One present value (a field or an array element) against its definition; whether it conforms. */
function checkValue(
  value: PyValue,
  def: FieldDefIR,
  path: string,
  spec: CheckedSpec,
  out: string[] | null,
): boolean {
  if (value === null && !def.required) return true;
  if (!accepts(def, value)) {
    out?.push(`${PREFIX}field '${path}' must be of type ${def.type}, got ${jsonKind(value)}`);
    return false;
  }
  let ok = true;
  if (def.values !== null && !isAmong(value, def.values)) {
    if (out === null) return false;
    ok = false;
    out.push(
      `${PREFIX}field '${path}' must be one of ${repr(def.values.map(pyFromJson))}, got ${repr(value)}`,
    );
  }
  if (def.kind === "array" && def.items !== null) {
    const items = asArray(value) ?? [];
    const itemDef = def.items;
    for (let i = 0; i < items.length; i++) {
      if (checkValue(items[i] as PyValue, itemDef, out === null ? "" : `${path}[${i}]`, spec, out)) continue;
      if (out === null) return false;
      ok = false;
    }
  } else if (def.kind === "contract") {
    const nested = spec.contracts.get(def.type);
    if (nested !== undefined && !checkFields(value, nested, path, spec, out)) ok = false;
  }
  return ok;
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
