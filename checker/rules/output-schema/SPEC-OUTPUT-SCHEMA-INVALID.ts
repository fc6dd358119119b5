import { fromKeyLine, nonEmpty } from "../../anchors";
import { defineRule } from "../../rule";
import { validate } from "../../schema/generated/meta-schema-validator";
import { describeSchemaErrors } from "../../schema/output-schema-detail";
import { toJson } from "../../yaml/to-json";
import type { RuleVisitor } from "../types";

export const SPEC_OUTPUT_SCHEMA_INVALID = defineRule({
  code: "SPEC-OUTPUT-SCHEMA-INVALID",
  severity: "error",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A step's output_schema is not a valid JSON Schema",
  doc: "output_schema is checked against every result of the step; a malformed schema (an unknown type name, a negative minLength, a pattern that is not a regular expression) would make every result fail at run time. Fix the keyword named in the message; the schema follows JSON Schema draft 2020-12.",
  example: {
    bad: "output_schema:\n  type: object\n  properties:\n    name: {type: strin}",
    good: "output_schema:\n  type: object\n  properties:\n    name: {type: string}",
  },
  message: (step: string, detail: string) =>
    `Step '${step}' output_schema is not a valid JSON Schema: ${detail}`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      // A gate's output_schema is SPEC-GATE-OUTPUT-SCHEMA; a step of unknown kind is checked.
      if (step.kind === "gate") return;
      const field = step.map("output_schema");
      if (field === null || validate(toJson(field.value))) return;
      const problem = describeSchemaErrors(field.value, validate.errors ?? []);
      if (problem === null) return;
      reporter.report(SPEC_OUTPUT_SCHEMA_INVALID, {
        message: SPEC_OUTPUT_SCHEMA_INVALID.message(step.id, problem.detail),
        path: `flows.${step.flow.name}.steps.${step.id}.output_schema`,
        range: fromKeyLine(
          model.source,
          field.entry,
          nonEmpty(problem.node.range, (problem.key ?? field.entry.key).range),
        ),
      });
    });
  },
});
