// SPEC-PROPERTY-KIND: a property states exactly one of always, never, eventually and leads_to.
import { keyRange } from "../../anchors";
import { propertiesOf } from "../../model/properties";
import { defineRule } from "../../rule";
import { PROPERTY_KINDS } from "../../schema/spec-schema-properties";
import type { RuleVisitor } from "../types";

const KINDS = PROPERTY_KINDS.join(", ");

export const SPEC_PROPERTY_KIND = defineRule({
  code: "SPEC-PROPERTY-KIND",
  severity: "error",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "A property does not state exactly one of always, never, eventually, leads_to",
  doc: "Each property says what must hold in exactly one way: always (in every state of every run), never (in no state), eventually (in some state of every run) or leads_to (every state where `from` holds is followed by one where `to` holds). Keep one of them; state the others as properties of their own.",
  example: {
    bad: 'properties:\n  bounded_fix:\n    flow: main\n    always: "$.steps.fix.attempts <= 3"\n    never: "$.flow.status == \'failed\'"',
    good: 'properties:\n  bounded_fix:\n    flow: main\n    always: "$.steps.fix.attempts <= 3"',
  },
  message: (name: string, found: readonly string[]) =>
    found.length === 0
      ? `Property '${name}' states none of ${KINDS}`
      : `Property '${name}' states ${found.join(" and ")}; a property states exactly one of ${KINDS}`,
  visit(on: RuleVisitor): void {
    on.onSpec(({ model, reporter }) => {
      for (const p of propertiesOf(model)) {
        if (p.kinds.length === 1 || p.name === null) continue;
        // The second kind is the mistake when there are several; the name when there is none.
        const second = p.kinds[1];
        const at = second === undefined ? p.decl : p.fields.entry(second);
        reporter.report(SPEC_PROPERTY_KIND, {
          message: SPEC_PROPERTY_KIND.message(p.name, p.kinds),
          path: second === undefined ? `properties.${p.name}` : `properties.${p.name}.${second}`,
          range: keyRange(at ?? p.decl),
        });
      }
    });
  },
});
