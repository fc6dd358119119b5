// Catalogue data of the SCHEMA family (docs/reference/language.md §9.5.2, docs/reference/language.md §9.5.6): codes in catalogue order,
// families, error type, documentation, and the exact message templates.
import { describe, expect, it } from "vitest";
import { SCHEMA_RULES } from "../../../checker/schema/rules";
import { SCHEMA_ENUM } from "../../../checker/schema/rules/SCHEMA-ENUM";
import { SCHEMA_KEY_NOT_STRING } from "../../../checker/schema/rules/SCHEMA-KEY-NOT-STRING";
import { SCHEMA_MINIMUM } from "../../../checker/schema/rules/SCHEMA-MINIMUM";
import { SCHEMA_NON_EMPTY } from "../../../checker/schema/rules/SCHEMA-NON-EMPTY";
import { SCHEMA_PATTERN } from "../../../checker/schema/rules/SCHEMA-PATTERN";
import { SCHEMA_REQUIRED } from "../../../checker/schema/rules/SCHEMA-REQUIRED";
import { SCHEMA_ROOT_NOT_MAPPING } from "../../../checker/schema/rules/SCHEMA-ROOT-NOT-MAPPING";
import { SCHEMA_TYPE } from "../../../checker/schema/rules/SCHEMA-TYPE";
import { SCHEMA_UNKNOWN_KEY } from "../../../checker/schema/rules/SCHEMA-UNKNOWN-KEY";
import { SCHEMA_VERSION_UNKNOWN } from "../../../checker/schema/rules/SCHEMA-VERSION-UNKNOWN";

describe("SCHEMA_RULES", () => {
  it("lists the family in catalogue order with its conformance families", () => {
    expect(SCHEMA_RULES.map((r) => [r.code, r.family])).toEqual([
      ["SCHEMA-VERSION-UNKNOWN", "version"],
      ["SCHEMA-ROOT-NOT-MAPPING", "schema"],
      ["SCHEMA-KEY-NOT-STRING", "schema"],
      ["SCHEMA-REQUIRED", "schema"],
      ["SCHEMA-UNKNOWN-KEY", "unknown-key"],
      ["SCHEMA-TYPE", "schema"],
      ["SCHEMA-ENUM", "schema"],
      ["SCHEMA-MINIMUM", "schema"],
      ["SCHEMA-MAXIMUM", "schema"],
      ["SCHEMA-NON-EMPTY", "schema"],
      ["SCHEMA-PATTERN", "schema"],
    ]);
  });

  it("are validation errors with a title and a 1–4 sentence doc", () => {
    for (const r of SCHEMA_RULES) {
      expect([r.code, r.severity, r.errorType]).toEqual([r.code, "error", "ir_validation_error"]);
      expect(r.title).toMatch(/^[A-Z].*[^.]$/);
      const sentences = r.doc.split(/(?<=\.)\s+(?=[A-Z])/);
      expect(sentences.length, r.code).toBeGreaterThanOrEqual(1);
      expect(sentences.length, r.code).toBeLessThanOrEqual(4);
    }
  });
});

describe("message templates (docs/reference/language.md §9.5.2)", () => {
  it.each([
    [SCHEMA_VERSION_UNKNOWN.message(""), "Unknown IR version: ''"],
    [SCHEMA_VERSION_UNKNOWN.message("it's"), `Unknown IR version: "it's"`],
    [SCHEMA_ROOT_NOT_MAPPING.message("['a']"), "['a'] is not of type 'object'"],
    [SCHEMA_KEY_NOT_STRING.message("True"), "True is not of type 'string'"],
    [SCHEMA_REQUIRED.message("id"), "'id' is a required property"],
    [SCHEMA_REQUIRED.functionOutputMessage("w"), "Function 'w' output contract '' not defined"],
    [SCHEMA_UNKNOWN_KEY.message("bogus"), "Additional properties are not allowed ('bogus' was unexpected)"],
    [SCHEMA_UNKNOWN_KEY.laterVersionSuggestion("next", "0.2"), `'next' requires version "0.2"`],
    [SCHEMA_UNKNOWN_KEY.laterVersionSuggestion("source", "0.3"), `'source' requires version "0.3"`],
    [SCHEMA_TYPE.noAlternativeMessage("True"), "True is not valid under any of the given schemas"],
    [SCHEMA_TYPE.message("None", ["string", "null"]), "None is not of type 'string', 'null'"],
    [SCHEMA_TYPE.versionSuggestion("0.2"), 'Quote the version: version: "0.2"'],
    [SCHEMA_ENUM.message("'x'", ["gate", "flag", "skip"]), "'x' is not one of ['gate', 'flag', 'skip']"],
    [SCHEMA_ENUM.suggestion(["gate", "flag"]), "Allowed values: ['gate', 'flag']"],
    [SCHEMA_MINIMUM.message("0", 1), "0 is less than the minimum of 1"],
    [SCHEMA_NON_EMPTY.message("[]"), "[] should be non-empty"],
    [SCHEMA_PATTERN.message("'A'", "^[a-z][a-z0-9-]*$"), "'A' does not match '^[a-z][a-z0-9-]*$'"],
  ])("%s", (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
