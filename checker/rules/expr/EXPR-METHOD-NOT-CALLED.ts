// EXPR-METHOD-NOT-CALLED (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_METHOD_NOT_CALLED = defineRule({
  code: "EXPR-METHOD-NOT-CALLED",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title:
    "A method is read but not called (`result.name.lower` instead of `result.name.lower()`); a bound method is always truthy and equals only itself.",
  severity: "warning",
  message: (typeName: string, name: string) => `method '${typeName}.${name}' is used without being called`,
  doc: "A method is read but not called (`result.name.lower` instead of `result.name.lower()`); a bound method is always truthy and equals only itself. Add the parentheses to call the method.",
  example: {
    bad: 'ensure:\n  - "result.name.strip"',
    good: 'ensure:\n  - "result.name.strip()"',
  },
});
