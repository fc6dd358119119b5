// The names a property's condition refers to (docs/guides/testing-a-spec.md "Properties"): its `$`
// paths read the property state, where `$.steps.<id>` and `$.gates.<id>` name a step of the
// property's flow and `$.input.<name>` one of its inputs. The reference grammar's path shape
// (`$.steps.<id>.output…`) does not cover `$.steps.<id>.status` or `$.gates`, so the segments are
// read from each path's text: from the AST, or from the tokens while the text does not parse.
import type { Path } from "../../grammar/ast";
import { MAX_EXPRESSION_LENGTH } from "../../grammar/diagnostics";
import { DollarPath, tokenize } from "../../grammar/tokens";
import { walk } from "../../grammar/walk";
import type { CheckedExpression } from "../spec-expr/types";

/** A step or input named by a property's `$` path, with the name's offsets in the expression. */
export interface StateName {
  readonly kind: "step" | "input";
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

export function stateNames(checked: CheckedExpression): StateName[] {
  const out: StateName[] = [];
  const add = (text: string, start: number) => {
    const named = nameOf(text, start);
    if (named !== null) out.push(named);
  };
  if (checked.ast !== null) {
    walk(checked.ast, {
      enter(node) {
        if (node.kind === "Path") add((node as Path).text, node.start);
        return true;
      },
    });
    return out;
  }
  if (checked.text.length > MAX_EXPRESSION_LENGTH) return out;
  for (const token of tokenize(checked.text)) {
    if (token.tokenType === DollarPath) add(token.image, token.startOffset);
  }
  return out;
}

function nameOf(text: string, start: number): StateName | null {
  const [scope, name] = text.slice(2).split(".");
  if (!text.startsWith("$.") || name === undefined || name === "") return null;
  const kind = scope === "steps" || scope === "gates" ? "step" : scope === "input" ? "input" : null;
  if (kind === null) return null;
  const at = start + 2 + (scope?.length ?? 0) + 1;
  return { kind, name, start: at, end: at + name.length };
}
