// Why an ensure raised, when the raise is a conversion: `int(result.count)` / `float(result.ratio)`
// on a field the step declares `string` fails for any text that is not a number, which a contract
// cannot rule out. Read from the checked IR (the ensure's AST and the step's result type R(s)), for
// the FUZZ-ENSURE-RAISES message.
import type { CheckedSpec, StepIR } from "../checker/index";
import { walk } from "../grammar/index";
import type { Type } from "../stdlib/index";
import { ensureOf } from "./target";
import { conversionOf, typeAt } from "./values/expr-hints";

/** Declared `string` (optional fields: `str | none`), not merely unknown. */
function declaredString(t: Type): boolean {
  const members = (t.k === "union" ? t.members : [t]).filter((m) => m.k !== "none");
  return members.length > 0 && members.every((m) => m.k === "str");
}

/**
 * A short hint when ensure `index` of `step` converts a field declared string with int() or
 * float() (and, given the raised error's type, when it is the ValueError of a failed conversion); else null.
 */
export function conversionHint(
  spec: CheckedSpec,
  step: StepIR,
  index: number,
  errorType?: string,
): string | null {
  // A conversion of text that is not a number raises ValueError (a None, TypeError, is another story).
  if (errorType !== undefined && errorType !== "ValueError") return null;
  const ensure = ensureOf(spec, step)[index];
  if (ensure === undefined) return null;
  let hint: string | null = null;
  walk(ensure.ast, {
    enter(node) {
      if (hint !== null || node.kind === "Slice") return false;
      const conversion = conversionOf(node);
      if (conversion === null || !declaredString(typeAt(step.resultType, conversion.path))) return true;
      const field = `result.${conversion.path.join(".")}`;
      const kind = conversion.fn === "int" ? "integer" : "number";
      hint = `${field} is declared string: declare it ${kind} (or give it a pattern) so ${conversion.fn}() cannot fail`;
      return false;
    },
  });
  return hint;
}
