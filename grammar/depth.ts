// The exact nesting depth of docs/reference/language.md §10.15, measured on the finished AST. The parser's own guard only
// bounds recursion (it counts a lower bound while parsing: the body of `b if c else d` and the
// arguments of `f(x)(y)` turn out to be deeper than known when they are parsed); this pass decides.
import type { IToken } from "chevrotain";
import type { Expr, Span } from "./ast";
import { MAX_EXPRESSION_DEPTH } from "./diagnostics";
import type { ParenInfo } from "./parser-base";
import { forEachChild, type Node } from "./walk";

/** Node kinds that add one nesting level (brackets, unary operators, conditionals). */
const NESTING = new Set<Node["kind"]>([
  "Call",
  "Subscript",
  "List",
  "Tuple",
  "Dict",
  "ListComp",
  "GeneratorExp",
  "UnaryOp",
  "IfExp",
]);

/** The token starting at or after `offset` (tokens are sorted by offset). */
function tokenAtOrAfter(tokens: readonly IToken[], offset: number): IToken | undefined {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid]!.startOffset < offset) lo = mid + 1;
    else hi = mid;
  }
  return tokens[lo];
}

interface Frame {
  readonly node: Node;
  readonly parentDepth: number;
}

/**
 * Finds where the nesting limit is first passed (in source order), or null. The location is the
 * token that opens the level: a `(` of a parenthesised expression, the `(`/`[` of a call or
 * subscript, a display's opening bracket, a unary operator, or the `if` of a conditional.
 */
export function findTooDeep(
  root: Expr,
  parens: ReadonlyMap<Expr, ParenInfo> | null,
  tokens: readonly IToken[],
): Span | null {
  const outerEnd = (e: Node): number => (e.kind === "Slice" ? e.end : (parens?.get(e)?.outerEnd ?? e.end));
  const tokenSpanAt = (offset: number): Span => {
    const tok = tokenAtOrAfter(tokens, offset);
    return tok === undefined
      ? { start: offset, end: offset }
      : { start: tok.startOffset, end: tok.startOffset + tok.image.length };
  };
  const openerOf = (node: Node): Span => {
    switch (node.kind) {
      case "Call":
        return tokenSpanAt(outerEnd(node.func));
      case "Subscript":
        return tokenSpanAt(outerEnd(node.value));
      case "IfExp":
        return tokenSpanAt(outerEnd(node.body));
      default:
        return tokenSpanAt(node.start);
    }
  };
  const stack: Frame[] = [{ node: root, parentDepth: 0 }];
  const children: Node[] = [];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { node } = frame;
    let depth = frame.parentDepth;
    const info = node.kind === "Slice" ? undefined : parens?.get(node);
    if (info !== undefined) {
      if (depth + info.opens.length > MAX_EXPRESSION_DEPTH) {
        return tokenSpanAt(info.opens[MAX_EXPRESSION_DEPTH - depth]!);
      }
      depth += info.opens.length;
    }
    if (NESTING.has(node.kind)) {
      depth++;
      if (depth > MAX_EXPRESSION_DEPTH) return openerOf(node);
    }
    children.length = 0;
    forEachChild(node, (c) => children.push(c));
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, parentDepth: depth });
  }
  return null;
}
