// SPEC-OUTPUT-SCHEMA-INVALID (docs/language.md §9.5.4): every step's `output_schema` must be a valid
// JSON Schema (draft 2020-12), or every result of the step would fail at run time. Checked with a
// precompiled meta-schema validator (schema/generated/, see scripts/gen-output-schema-validator.mjs).
import { unsupportedReason } from "../../stdlib/regex/linear";
import { strRepr } from "../../stdlib/values/repr";
import { fromKeyLine, nonEmpty } from "../anchors";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { defineRule } from "../rule";
import { validate } from "../schema/generated/meta-schema-validator";
import { describeSchemaErrors } from "../schema/output-schema-detail";
import type { SpecNode } from "../yaml/nodes";
import { toJson } from "../yaml/to-json";
import type { SemanticRule } from "./types";

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

export const SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED = defineRule({
  code: "SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED",
  severity: "warning",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "An output_schema pattern cannot be checked in linear time",
  doc:
    "Result checks run every `pattern` and `patternProperties` regex on a linear-time engine (RE2), " +
    "so that no result can stall the server however the pattern is written. RE2 has no " +
    "backreferences (`\\1`, `\\k<name>`) and no lookahead (`(?=…)`, `(?!…)`), and knows fewer " +
    "Unicode property names; such a pattern is not run, and every string it would check is reported " +
    "as a violation saying so. Rewrite the pattern without the construct (lookbehind `(?<=…)` is " +
    "supported), or check the property in an `ensure` expression instead.",
  example: {
    bad: "output_schema:\n  type: object\n  properties:\n    word: {type: string, pattern: '^(\\w)\\1$'}",
    good: "output_schema:\n  type: object\n  properties:\n    word: {type: string, pattern: '^\\w{2}$'}",
  },
  message: (step: string, pattern: string, reason: string) =>
    `Step '${step}' output_schema pattern ${strRepr(pattern)} cannot be checked in linear time: it uses ${reason}`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) {
      for (const step of flow.steps) {
        if (step.id === null || step.kind === "gate") continue;
        const field = step.map("output_schema");
        if (field === null) continue;
        const stepId = step.id;
        for (const node of patternNodes(field.value)) {
          if (node.kind !== "scalar" || typeof node.value !== "string") continue;
          const reason = unsupportedReason(node.value);
          if (reason === null) continue;
          reporter.report(SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED, {
            message: SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED.message(stepId, node.value, reason),
            path: `flows.${flow.name}.steps.${stepId}.output_schema`,
            range: fromKeyLine(model.source, field.entry, nonEmpty(node.range, field.entry.key.range)),
          });
        }
      }
    }
  },
});

/** Keywords whose values are data, not schemas: a `pattern` key inside them is no regex. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/** The nodes holding regexes: `pattern` values and `patternProperties` keys, anywhere in a schema. */
function* patternNodes(node: SpecNode): Generator<SpecNode> {
  if (node.kind === "seq") {
    for (const item of node.items) yield* patternNodes(item);
    return;
  }
  if (node.kind !== "map") return;
  for (const entry of node.entries) {
    const key = entry.key.kind === "scalar" ? entry.key.value : null;
    if (typeof key === "string" && DATA_KEYWORDS.has(key)) continue;
    if (key === "pattern") yield entry.value;
    if (key === "patternProperties" && entry.value.kind === "map") {
      for (const inner of entry.value.entries) yield inner.key;
    }
    yield* patternNodes(entry.value);
  }
}

export const OUTPUT_SCHEMA_RULES: readonly SemanticRule[] = [
  SPEC_OUTPUT_SCHEMA_INVALID,
  SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED,
];
