// SPEC-CONTRACT-FIELD-TYPE-UNKNOWN: a field type is one of the six JSON types or a contract name.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { didYouMean, renameFix } from "../suggestions";
import { replaceScalar, suggestName } from "../support";
import type { RuleVisitor } from "../types";
import { BUILTIN_TYPES, knownType } from "./definitions";

// Python and YAML spellings of the JSON types, suggested before edit distance (docs/reference/language.md §9.5.3).
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["str", "string"],
  ["int", "integer"],
  ["float", "number"],
  ["bool", "boolean"],
  ["list", "array"],
  ["dict", "object"],
]);

export const SPEC_CONTRACT_FIELD_TYPE_UNKNOWN = defineRule({
  code: "SPEC-CONTRACT-FIELD-TYPE-UNKNOWN",
  severity: "error",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A contract field has an unknown type",
  doc: "A field's type must be one of string, number, integer, boolean, array, object, or the name of a contract declared in the same document. Any other text (a typo, or a Python name such as str or int) would make the field accept nothing meaningful. Use one of the listed types; a close match is suggested.",
  example: {
    bad: "contracts:\n  Review:\n    summary: {type: str}",
    good: "contracts:\n  Review:\n    summary: {type: string}",
  },
  fix: "Replaces a Python type name (str, int, float, bool, list, dict) with its JSON type, and any other unknown type with the one JSON type or contract name close to it (a case-insensitive edit distance of at most a third of its length, and at least 1) when exactly one is that close; type: enum gets a hint but no fix.",
  message: (contract: string, field: string, type: string) =>
    `Contract '${contract}' field '${field}' has unknown type '${type}' (expected string, number, integer, boolean, array, object or a contract name)`,
  visit(on: RuleVisitor): void {
    on.onContractField((site, { model, reporter }) => {
      const type = site.def.type;
      if (type === null || knownType(model, site.def) !== null) return;
      const alias = ALIASES.get(type.value);
      const hint =
        type.value === "enum"
          ? {
              // The shorthand `type: enum` is accepted only with `values` of one type.
              suggestion:
                site.def.seq("values") === null
                  ? "List the allowed values and give their type: type: string, values: [<a>, <b>]"
                  : "Give the values one type and write it: type: string (or integer, number, boolean) with values: [...]",
            }
          : alias !== undefined
            ? {
                suggestion: didYouMean(alias),
                fix: {
                  description: renameFix(type.value, alias),
                  edits: [replaceScalar(type.entry.value, alias)],
                },
              }
            : suggestName(type.entry, type.value, [...BUILTIN_TYPES, ...model.contractByName.keys()]);
      reporter.report(SPEC_CONTRACT_FIELD_TYPE_UNKNOWN, {
        message: SPEC_CONTRACT_FIELD_TYPE_UNKNOWN.message(site.contract.name, site.label, type.value),
        path: `${site.path}.type`,
        range: valueRange(model.source, type.entry),
        ...hint,
      });
    });
  },
});
