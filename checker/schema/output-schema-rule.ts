// STUB: SPEC-OUTPUT-SCHEMA-INVALID (filled by the structure work).
import type { SemanticRule } from "../rules/types";

export const OUTPUT_SCHEMA_RULES: readonly SemanticRule[] = [];
