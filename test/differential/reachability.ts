// Which parts of an expression are evaluated whenever the expression is: used to check that a
// static "definite failure" (EXPR-TYPE, EXPR-ARITY, EXPR-UNKNOWN-METHOD) really fails at run time.
// A flagged operation inside a right operand of and/or, a conditional branch, a later link of a
// comparison chain or a comprehension body may legitimately never run.
import type { Comprehension, Expr, Slice, Span } from "../../grammar/ast";

type Node = Expr | Slice;

function children(n: Node): { readonly always: Node[]; readonly maybe: Node[] } {
  const always: Node[] = [];
  const maybe: Node[] = [];
  const comprehension = (elt: Expr, gens: readonly Comprehension[]) => {
    maybe.push(elt);
    gens.forEach((g, i) => {
      (i === 0 ? always : maybe).push(g.iter);
      maybe.push(...g.ifs);
    });
  };
  switch (n.kind) {
    case "Attribute":
      always.push(n.value);
      break;
    case "Subscript":
      always.push(n.value, n.index);
      break;
    case "Slice":
      for (const b of [n.lower, n.upper, n.step]) if (b) always.push(b);
      break;
    case "Call":
      always.push(n.func, ...n.args, ...n.keywords.map((k) => k.value));
      break;
    case "UnaryOp":
      always.push(n.operand);
      break;
    case "BinOp":
      always.push(n.left, n.right);
      break;
    case "BoolOp":
      n.values.forEach((v, i) => {
        (i === 0 ? always : maybe).push(v);
      });
      break;
    case "Compare":
      always.push(n.left);
      n.comparators.forEach((c, i) => {
        (i === 0 ? always : maybe).push(c);
      });
      break;
    case "IfExp":
      always.push(n.test);
      maybe.push(n.body, n.orelse);
      break;
    case "List":
    case "Tuple":
      always.push(...n.elts);
      break;
    case "Dict":
      always.push(...n.keys, ...n.values);
      break;
    case "ListComp":
    case "GeneratorExp":
      comprehension(n.elt, n.generators);
      break;
    default:
      break;
  }
  return { always, maybe };
}

/** Spans of the sub-expressions that may be skipped by short-circuiting or empty loops. */
function conditionalSpans(root: Expr): Span[] {
  const spans: Span[] = [];
  const stack: Node[] = [root];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    const { always, maybe } = children(n);
    stack.push(...always);
    // Everything below a conditional child is conditional: its span covers it.
    for (const m of maybe) spans.push({ start: m.start, end: m.end });
    // A later link of a comparison chain runs only if the earlier ones held: the operation
    // `b op c` (anchored anywhere from `b` to `c`) is conditional although `b` itself is not.
    if (n.kind === "Compare") {
      for (let i = 1; i < n.comparators.length; i++) {
        const prev = n.comparators[i - 1];
        const cur = n.comparators[i];
        if (prev && cur) spans.push({ start: prev.start, end: cur.end });
      }
    }
  }
  return spans;
}

/** True when [start, end) lies outside every conditionally evaluated part of `root`. */
export function alwaysEvaluated(root: Expr, span: Span): boolean {
  return !conditionalSpans(root).some((c) => c.start <= span.start && span.end <= c.end);
}
