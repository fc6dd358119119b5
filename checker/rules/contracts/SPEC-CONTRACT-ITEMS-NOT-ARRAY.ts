// SPEC-CONTRACT-ITEMS-NOT-ARRAY: `items` describes array elements and means nothing elsewhere.
import { defineRule } from "../../rule";
import { has, keyOf } from "../support";
import type { RuleVisitor } from "../types";
import { knownType } from "./definitions";

export const SPEC_CONTRACT_ITEMS_NOT_ARRAY = defineRule({
  code: "SPEC-CONTRACT-ITEMS-NOT-ARRAY",
  severity: "warning",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "items on a field that is not an array is ignored",
  doc: "items defines the elements of an array field; on a field of any other type it is ignored, which usually means the type is wrong. Set `type: array`, or remove items.",
  example: {
    bad: "contracts:\n  Summary:\n    tags: {type: string, items: {type: string}}",
    good: "contracts:\n  Summary:\n    tags: {type: array, items: {type: string}}",
  },
  message: (contract: string, field: string, type: string) =>
    `Contract '${contract}' field '${field}' has items but its type is '${type}', not 'array'; it is ignored`,
  visit(on: RuleVisitor): void {
    on.onContractField((site, { model, reporter }) => {
      // An unknown type is reported by SPEC-CONTRACT-FIELD-TYPE-UNKNOWN; no second opinion here.
      const type = knownType(model, site.def);
      if (type === null || type === "array" || !has(site.def, "items")) return;
      reporter.report(SPEC_CONTRACT_ITEMS_NOT_ARRAY, {
        message: SPEC_CONTRACT_ITEMS_NOT_ARRAY.message(site.contract.name, site.label, type),
        path: `${site.path}.items`,
        range: keyOf(site.def, "items"),
      });
    });
  },
});
