// The YAML family of the catalogue (language.md §9.5.1). STUB: filled by the YAML front-end work.
import type { RuleInfo } from "../rule";

export const YAML_RULES: readonly RuleInfo[] = [];
