// The expression checker's rules (checker/messages.ts) as a list for the catalogue, and by code for
// the expression phase that reports them. It imports only the messages, so it can be loaded before
// or after the catalogue without an import cycle.
import { MESSAGES } from "../messages";
import type { RuleInfo } from "../rule";

export const EXPRESSION_RULES: readonly RuleInfo[] = Object.values(MESSAGES);

const BY_CODE = new Map(EXPRESSION_RULES.map((r) => [r.code, r]));

/** The rule of an expression-checker diagnostic code; an unknown code (none exist) is an error. */
export function exprRule(code: string): RuleInfo {
  const rule = BY_CODE.get(code);
  if (rule === undefined) throw new Error(`not an expression rule: ${code}`);
  return rule;
}
