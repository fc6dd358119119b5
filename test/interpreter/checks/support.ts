// Helpers of the result-check tests: results from JSON text (ints and floats kept apart, as the
// MCP server decodes them) and contracts from spec text through the real checker.

import type { JsonObject } from "../../../checker/base/json";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec, ContractIR } from "../../../checker/ir/types";
import { checkContract } from "../../../interpreter/checks/contract";
import { checkOutputSchema } from "../../../interpreter/checks/output-schema";
import { parseJson } from "../../../stdlib/values/json";

/** The checked IR of a spec that must be valid. */
export function checkedSpec(text: string): CheckedSpec {
  const checked = checkSpec(text);
  if (checked.ir === null) {
    throw new Error(`spec is not valid: ${checked.errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  }
  return checked.ir;
}

export function contractOf(spec: CheckedSpec, name: string): ContractIR {
  const contract = spec.contracts.get(name);
  if (contract === undefined) throw new Error(`no contract ${name}`);
  return contract;
}

/** Contract violations of a result written as JSON text. */
export function contractViolations(spec: CheckedSpec, contract: string, resultJson: string): string[] {
  return checkContract(parseJson(resultJson), contractOf(spec, contract), spec);
}

/** A schema written as JSON text, with null-prototype objects as the IR has them. */
export function schemaOf(json: string): JsonObject {
  return JSON.parse(json, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.assign(Object.create(null) as object, value)
      : value,
  ) as JsonObject;
}

/** output_schema messages (without the `output_schema violation: ` prefix) of a JSON result. */
export function schemaMessages(schemaJson: string, resultJson: string): string[] {
  const prefix = "output_schema violation: ";
  return checkOutputSchema(parseJson(resultJson), schemaOf(schemaJson)).map((m) => {
    if (!m.startsWith(prefix)) throw new Error(`unprefixed violation: ${m}`);
    return m.slice(prefix.length);
  });
}
