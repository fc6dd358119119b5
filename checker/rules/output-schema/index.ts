// The output_schema rules (docs/reference/language.md §9.5.4), catalogued after the other semantic rules.
import type { VisitingRule } from "../types";
import { SPEC_OUTPUT_SCHEMA_INVALID } from "./SPEC-OUTPUT-SCHEMA-INVALID";
import { SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED } from "./SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED";

export const OUTPUT_SCHEMA_RULES: readonly VisitingRule[] = [
  SPEC_OUTPUT_SCHEMA_INVALID,
  SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED,
];
