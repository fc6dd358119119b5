// The one diagnostic catalogue: every rule code with its severity, family, error type, title and
// documentation. Rule modules define their own entries; this module only collects them, so that
// `stratumc explain`, SARIF rule metadata and the LSP's code descriptions share one source.

import { GRAPH_RULES } from "./graph/index";
import { MESSAGES, type MessageCode } from "./messages";
import type { Family, RuleInfo } from "./rule";
import { SEMANTIC_RULES } from "./rules/index";
import { OUTPUT_SCHEMA_RULES } from "./schema/output-schema-rule";
import { SCHEMA_RULES } from "./schema/rules";
import { REFERENCE_RULES } from "./spec-expr/index";
import { SUPPRESSION_RULES } from "./suppressions";
import { YAML_RULES } from "./yaml/rules";

function expressionFamily(code: MessageCode): Family {
  switch (code) {
    case "EXPR-SYNTAX":
    case "EXPR-TOO-LONG":
    case "EXPR-TOO-DEEP":
      return "expr-syntax";
    case "EXPR-UNKNOWN-NAME":
    case "EXPR-NAME-UNAVAILABLE":
    case "EXPR-UNKNOWN-FUNCTION":
    case "EXPR-DUNDER":
      return "expr-name";
    case "SPEC-REF-MALFORMED":
      return "reference";
    default:
      return "expr-type";
  }
}

/** The expression checker's entries (checker/messages.ts) as catalogue rules. */
const EXPRESSION_RULES: readonly RuleInfo[] = (Object.keys(MESSAGES) as MessageCode[]).map((code) => {
  const entry = MESSAGES[code];
  const firstSentence = entry.doc.split(/(?<=\.)\s/)[0] ?? entry.doc;
  return {
    code,
    severity: entry.severity,
    family: expressionFamily(code),
    errorType: "ir_semantic_error",
    title: firstSentence,
    doc: entry.doc,
  };
});

function collect(): ReadonlyMap<string, RuleInfo> {
  const all = new Map<string, RuleInfo>();
  const groups: readonly (readonly RuleInfo[])[] = [
    YAML_RULES,
    SCHEMA_RULES,
    SEMANTIC_RULES,
    OUTPUT_SCHEMA_RULES,
    GRAPH_RULES,
    REFERENCE_RULES,
    EXPRESSION_RULES,
    SUPPRESSION_RULES,
  ];
  for (const group of groups) {
    for (const rule of group) {
      if (all.has(rule.code)) throw new Error(`duplicate rule code in the catalogue: ${rule.code}`);
      all.set(rule.code, rule);
    }
  }
  return all;
}

/** Every rule, by code, in catalogue order (YAML, SCHEMA, SPEC, references, EXPR, suppression). */
export const CATALOGUE: ReadonlyMap<string, RuleInfo> = collect();

export function ruleInfo(code: string): RuleInfo | undefined {
  return CATALOGUE.get(code);
}

/** The conformance family of a diagnostic (§9.5.6): SCHEMA-TYPE at `version` is `version`. */
export function familyOf(code: string, path: string): Family | undefined {
  if (code === "SCHEMA-TYPE" && path === "version") return "version";
  return CATALOGUE.get(code)?.family;
}
