// SPEC-PROPERTY-FLOW-UNDEFINED: a property is about a flow of the document.
import { valueRange } from "../../anchors";
import { flowOf, propertiesOf } from "../../model/properties";
import { defineRule } from "../../rule";
import { suggestName } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PROPERTY_FLOW_UNDEFINED = defineRule({
  code: "SPEC-PROPERTY-FLOW-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A property names an undefined flow",
  doc: "A property's flow: names the flow whose runs it is about; its expressions read that flow's inputs, steps and gates. Declare the flow, or correct the name (a close match is suggested).",
  example: {
    bad: "properties:\n  finishes:\n    flow: relase\n    eventually: \"$.flow.status == 'complete'\"",
    good: "properties:\n  finishes:\n    flow: release\n    eventually: \"$.flow.status == 'complete'\"",
  },
  message: (property: string, flow: string) => `Property '${property}' references undefined flow '${flow}'`,
  visit(on: RuleVisitor): void {
    on.onSpec(({ model, reporter }) => {
      for (const p of propertiesOf(model)) {
        const flow = flowOf(p);
        if (flow === null || p.name === null || model.flowByName.has(flow.value)) continue;
        const { suggestion } = suggestName(flow.entry, flow.value, model.flowByName.keys());
        reporter.report(SPEC_PROPERTY_FLOW_UNDEFINED, {
          message: SPEC_PROPERTY_FLOW_UNDEFINED.message(p.name, flow.value),
          path: `properties.${p.name}.flow`,
          range: valueRange(model.source, flow.entry),
          ...(suggestion === undefined ? {} : { suggestion }),
        });
      }
    });
  },
});
