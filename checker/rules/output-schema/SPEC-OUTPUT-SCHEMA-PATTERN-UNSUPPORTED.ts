// SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED: result checks run every output_schema regex on a
// linear-time engine; a pattern it cannot run (backreferences, lookahead) is reported here.
import { unsupportedReason } from "../../../stdlib/regex/linear";
import { strRepr } from "../../../stdlib/values/repr";
import { fromKeyLine, nonEmpty } from "../../anchors";
import { defineRule } from "../../rule";
import type { SpecNode } from "../../yaml/nodes";
import type { RuleVisitor } from "../types";

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
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      // A gate's output_schema is SPEC-GATE-OUTPUT-SCHEMA; a step of unknown kind is checked.
      if (step.kind === "gate") return;
      const field = step.map("output_schema");
      if (field === null) return;
      const stepId = step.id;
      for (const node of patternNodes(field.value)) {
        if (node.kind !== "scalar" || typeof node.value !== "string") continue;
        const reason = unsupportedReason(node.value);
        if (reason === null) continue;
        reporter.report(SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED, {
          message: SPEC_OUTPUT_SCHEMA_PATTERN_UNSUPPORTED.message(stepId, node.value, reason),
          path: `flows.${step.flow.name}.steps.${stepId}.output_schema`,
          range: fromKeyLine(model.source, field.entry, nonEmpty(node.range, field.entry.key.range)),
        });
      }
    });
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
