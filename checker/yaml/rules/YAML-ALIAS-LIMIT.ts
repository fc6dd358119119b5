// YAML-ALIAS-LIMIT: more than 100 alias expansions in one document (an alias bomb guard).
import { defineRule } from "../../rule";

/** Alias expansions allowed per document; an alias counts once plus every alias inside its anchor. */
export const ALIAS_LIMIT = 100;

export const YAML_ALIAS_LIMIT = defineRule({
  code: "YAML-ALIAS-LIMIT",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The spec expands too many YAML aliases",
  doc:
    "Aliases (*name) repeat an anchored node; nested aliases multiply, so a small text can stand " +
    "for a huge document. At most 100 expansions are allowed per document, counting the aliases " +
    "inside expanded anchors. Write the repeated parts out, or restructure to repeat less.",
  example: {
    bad: "a: &a {type: string}\nten: &ten [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nmany: [*ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten, *ten]",
    good: "a: &a {type: string}\nten: &ten [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nmany: [*ten, *ten]",
  },
  message: () => `YAML syntax error: too many alias expansions (limit ${ALIAS_LIMIT})`,
});
