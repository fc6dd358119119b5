// SPEC-CONTRACT-VALUES-TYPE: every enumerated value must be a value the field's type accepts.

import { PyFloat } from "../../../stdlib/values/value";
import { itemRange } from "../../anchors";
import { defineRule } from "../../rule";
import type { SpecNode } from "../../yaml/nodes";
import { pythonRepr } from "../../yaml/repr";
import type { RuleVisitor } from "../types";
import { isBuiltinType, knownType } from "./definitions";

export const SPEC_CONTRACT_VALUES_TYPE = defineRule({
  code: "SPEC-CONTRACT-VALUES-TYPE",
  severity: "error",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "An enumerated value does not match the field's type",
  doc: "values lists the only values a field may take, and each must itself be accepted by the field's type (for example, `type: integer, values: [a]` can never be satisfied). Quote or correct the value, or change the type. Remember that YAML 1.1 loads unquoted yes/no/on/off as booleans and 1.0 as a number.",
  example: {
    bad: "contracts:\n  Answer:\n    reply: {type: string, values: [yes, no, maybe]}",
    good: 'contracts:\n  Answer:\n    reply: {type: string, values: ["yes", "no", maybe]}',
  },
  message: (contract: string, field: string, value: string, type: string) =>
    `Contract '${contract}' field '${field}' value ${value} does not match its type '${type}'`,
  visit(on: RuleVisitor): void {
    on.onContractField((site, { model, reporter }) => {
      const type = knownType(model, site.def);
      const values = site.def.seq("values");
      if (type === null || values === null) return;
      const nullable = site.def.boolean("required")?.value === false;
      values.value.items.forEach((item, i) => {
        if (accepts(type, item, nullable)) return;
        reporter.report(SPEC_CONTRACT_VALUES_TYPE, {
          message: SPEC_CONTRACT_VALUES_TYPE.message(site.contract.name, site.label, pythonRepr(item), type),
          path: `${site.path}.values`,
          range: itemRange(model.source, values.entry, i),
        });
      });
    });
  },
});

/** Whether a loaded value is accepted by a known field type (docs/reference/language.md §3.2). */
function accepts(type: string, node: SpecNode, nullable: boolean): boolean {
  if (node.kind === "seq") return type === "array";
  if (node.kind === "map") return type === "object" || !isBuiltinType(type);
  const v = node.value;
  if (v === null) return nullable;
  switch (type) {
    case "string":
      return typeof v === "string";
    case "integer":
      return (
        typeof v === "number" || typeof v === "bigint" || (v instanceof PyFloat && Number.isInteger(v.v))
      );
    case "number":
      return typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat;
    case "boolean":
      return typeof v === "boolean";
    default:
      return false;
  }
}
