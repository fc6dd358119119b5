// SPEC-PROPERTY-NAME: a property's name is an identifier, so findings and JSON keys can name it.
import { keyRange } from "../../anchors";
import { propertiesOf } from "../../model/properties";
import { defineRule } from "../../rule";
import { PROPERTY_NAME_PATTERN } from "../../schema/spec-schema-properties";
import type { RuleVisitor } from "../types";

export const SPEC_PROPERTY_NAME = defineRule({
  code: "SPEC-PROPERTY-NAME",
  severity: "error",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "A property's name is not an identifier",
  doc: "A property is named by a key of the properties block: letters, digits and '_', not starting with a digit. The name keys the property's verdict in stratumc fuzz's JSON output and names it in findings. Rename the property.",
  example: {
    bad: "properties:\n  finishes-ok:\n    flow: main\n    eventually: \"$.flow.status == 'complete'\"",
    good: "properties:\n  finishes_ok:\n    flow: main\n    eventually: \"$.flow.status == 'complete'\"",
  },
  message: (name: string) =>
    `Property name '${name}' must match [A-Za-z_][A-Za-z0-9_]* (letters, digits and '_', not starting with a digit)`,
  visit(on: RuleVisitor): void {
    on.onSpec(({ model, reporter }) => {
      for (const p of propertiesOf(model)) {
        if (p.name === null || PROPERTY_NAME_PATTERN.test(p.name)) continue;
        reporter.report(SPEC_PROPERTY_NAME, {
          message: SPEC_PROPERTY_NAME.message(p.name),
          path: `properties.${p.name}`,
          range: keyRange(p.decl),
        });
      }
    });
  },
});
