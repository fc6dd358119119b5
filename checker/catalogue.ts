// The one diagnostic catalogue: every rule code with its severity, family, error type, title and
// documentation. Rule modules define their own entries; this module only collects them, so that
// `stratumc explain`, SARIF rule metadata and the LSP's code descriptions share one source.

import { CONTROL_RULES } from "./control/rules";
import { EXPRESSION_RULES } from "./expr/rules";
import { FUZZ_RULES } from "./fuzz/rules";
import { GRAPH_RULES } from "./graph/index";
import { PORTABILITY_RULES } from "./portable/SPEC-NOT-PORTABLE";
import type { Family, RuleInfo } from "./rule";
import { SEMANTIC_RULES } from "./rules/index";
import { OUTPUT_SCHEMA_RULES } from "./rules/output-schema/index";
import { SCENARIO_RULES } from "./scenario/rules";
import { SCHEMA_RULES } from "./schema/rules";
import { REFERENCE_RULES } from "./spec-expr/index";
import { SUPPRESSION_RULES } from "./suppressions";
import { YAML_RULES } from "./yaml/rules";

function collect(): ReadonlyMap<string, RuleInfo> {
  const all = new Map<string, RuleInfo>();
  const groups: readonly (readonly RuleInfo[])[] = [
    YAML_RULES,
    SCHEMA_RULES,
    SEMANTIC_RULES,
    OUTPUT_SCHEMA_RULES,
    GRAPH_RULES,
    CONTROL_RULES,
    REFERENCE_RULES,
    EXPRESSION_RULES,
    PORTABILITY_RULES,
    SUPPRESSION_RULES,
    FUZZ_RULES,
    SCENARIO_RULES,
  ];
  for (const group of groups) {
    for (const rule of group) {
      if (all.has(rule.code)) throw new Error(`duplicate rule code in the catalogue: ${rule.code}`);
      all.set(rule.code, rule);
    }
  }
  return all;
}

/** Every rule, by code, in catalogue order (YAML, SCHEMA, SPEC, references, EXPR, portability, suppression, FUZZ, TEST). */
export const CATALOGUE: ReadonlyMap<string, RuleInfo> = collect();

export function ruleInfo(code: string): RuleInfo | undefined {
  return CATALOGUE.get(code);
}

/** The conformance family of a diagnostic (docs/reference/language.md §9.5.6): SCHEMA-TYPE at `version` is `version`. */
export function familyOf(code: string, path: string): Family | undefined {
  if (code === "SCHEMA-TYPE" && path === "version") return "version";
  return CATALOGUE.get(code)?.family;
}
