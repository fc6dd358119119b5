// SPEC-OUTPUT-SCHEMA-INVALID (language.md §9.5.4): every step's `output_schema` must be a valid
// JSON Schema (draft 2020-12), or every result of the step would fail at run time. Checked with a
// precompiled meta-schema validator (generated/, see scripts/gen-output-schema-validator.mjs).
import { fromKeyLine, nonEmpty } from "../anchors";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { defineRule } from "../rule";
import type { SemanticRule } from "../rules/types";
import { toJson } from "../yaml/to-json";
import { validate } from "./generated/meta-schema-validator";
import { describeSchemaErrors } from "./output-schema-detail";

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
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) {
      for (const step of flow.steps) {
        // A step without an id cannot be named; a gate's output_schema is SPEC-GATE-OUTPUT-SCHEMA.
        if (step.id === null || step.kind === "gate") continue;
        const field = step.map("output_schema");
        if (field === null || validate(toJson(field.value))) continue;
        const problem = describeSchemaErrors(field.value, validate.errors ?? []);
        if (problem === null) continue;
        reporter.report(SPEC_OUTPUT_SCHEMA_INVALID, {
          message: SPEC_OUTPUT_SCHEMA_INVALID.message(step.id, problem.detail),
          path: `flows.${flow.name}.steps.${step.id}.output_schema`,
          range: fromKeyLine(
            model.source,
            field.entry,
            nonEmpty(problem.node.range, (problem.key ?? field.entry.key).range),
          ),
        });
      }
    }
  },
});

export const OUTPUT_SCHEMA_RULES: readonly SemanticRule[] = [SPEC_OUTPUT_SCHEMA_INVALID];
