// SPEC-CONTRACT-FIELD-UNKNOWN-KEY: keys other than the five of docs/reference/language.md §3.1 are ignored, so warn.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";

const KNOWN: ReadonlySet<string> = new Set(["type", "values", "items", "required", "description"]);

export const SPEC_CONTRACT_FIELD_UNKNOWN_KEY = defineRule({
  code: "SPEC-CONTRACT-FIELD-UNKNOWN-KEY",
  severity: "warning",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A contract field definition has an unknown key",
  doc: "A field definition understands type, values, items, required and description; any other key is accepted (as the reference does) but has no effect, which often hides a typo such as `require`. Remove the key or correct its name.",
  example: {
    bad: "contracts:\n  Ticket:\n    assignee: {type: string, require: false}",
    good: "contracts:\n  Ticket:\n    assignee: {type: string, required: false}",
  },
  message: (contract: string, field: string, key: string) =>
    `Contract '${contract}' field '${field}' has unknown key '${key}'; it is ignored`,
  visit(on: RuleVisitor): void {
    on.onContractField((site, { reporter }) => {
      for (const entry of site.def.node.entries) {
        if (entry.name === null || KNOWN.has(entry.name)) continue;
        reporter.report(SPEC_CONTRACT_FIELD_UNKNOWN_KEY, {
          message: SPEC_CONTRACT_FIELD_UNKNOWN_KEY.message(site.contract.name, site.label, entry.name),
          path: `${site.path}.${entry.name}`,
          range: keyRange(entry),
        });
      }
    });
  },
});
