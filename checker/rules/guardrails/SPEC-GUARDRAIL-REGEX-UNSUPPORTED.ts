// SPEC-GUARDRAIL-REGEX-UNSUPPORTED: guardrails run on a linear-time engine (RE2); a valid Python
// pattern it cannot run blocks every result at run time (fail closed), so it is worth a warning.
import { strRepr } from "../../../stdlib/values/repr";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { functionGuardrails, type GuardrailPattern, stepGuardrails } from "./patterns";

export const SPEC_GUARDRAIL_REGEX_UNSUPPORTED = defineRule({
  code: "SPEC-GUARDRAIL-REGEX-UNSUPPORTED",
  severity: "warning",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A guardrail cannot be searched in linear time",
  doc:
    "stratumc searches guardrails with RE2, whose time is linear in the text whatever the pattern, so " +
    "no result can stall the server. RE2 has no backreferences (`\\1`, `(?P=name)`), lookarounds " +
    "(`(?=…)`, `(?<!…)`), atomic groups, possessive quantifiers, conditionals, `\\N{…}` escapes or " +
    "repeat counts above 1000. Such a pattern is not searched: it counts as a match, so it blocks " +
    "every result, as the reference blocks a result whose search errs or times out. Rewrite the " +
    "pattern without the construct.",
  example: {
    bad: "guardrails: ['(\\w+) \\1']",
    good: "guardrails: ['\\b(the|a) (the|a)\\b']",
  },
  message: (owner: string, index: number, pattern: string, reason: string) =>
    `${owner} guardrail[${index}] ${strRepr(pattern)} cannot be searched in linear time: it uses ${reason}; it will block every result`,
  visit(on: RuleVisitor): void {
    const report = (patterns: readonly GuardrailPattern[], reporter: Reporter): void => {
      for (const g of patterns) {
        if (g.compiled.kind !== "unsupported") continue;
        reporter.report(SPEC_GUARDRAIL_REGEX_UNSUPPORTED, {
          message: SPEC_GUARDRAIL_REGEX_UNSUPPORTED.message(g.owner, g.index, g.pattern, g.compiled.reason),
          path: g.path,
          range: g.range,
        });
      }
    };
    on.onFunction((fn, { reporter }) => report(functionGuardrails(fn), reporter));
    on.onStep((step, { reporter }) => report(stepGuardrails(step), reporter));
  },
});
