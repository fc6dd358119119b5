// The SCHEMA family of the catalogue (language.md §9.5.2). STUB: filled by the structure work.
import type { RuleInfo } from "../rule";

export const SCHEMA_RULES: readonly RuleInfo[] = [];
