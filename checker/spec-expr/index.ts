// The expression-and-reference phase (docs/reference/language.md §8, docs/reference/language.md §9.5.5, docs/reference/language.md §10.5, docs/reference/language.md §10.6, docs/reference/language.md §10.12): every `$`
// reference in step inputs and every expression in a spec is parsed, resolved and type-checked.
import { type ParseResult, parseExpression } from "../../grammar/parse";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { ExpressionPhase } from "./phase";
import type { ExpressionTable } from "./types";

export { REFERENCE_RULES } from "./rules/index";

/** `parse` may be replaced by an equivalent (a cache of parseExpression: checker/incremental/). */
export function checkSpecExpressions(
  model: SpecModel,
  reporter: Reporter,
  parse: (text: string) => ParseResult = parseExpression,
): ExpressionTable {
  return new ExpressionPhase(model, reporter, parse).run();
}
