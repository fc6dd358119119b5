// A fast-check generator of random expression ASTs (every node kind, well-formed or not in type
// terms), used to check that evaluation never throws anything but PyError.
import fc from "fast-check";
import type {
  BinaryOperator,
  CompareOperator,
  Comprehension,
  ConstantValue,
  Expr,
  Keyword,
  Slice,
  Target,
} from "../../../grammar/ast";
import { PyFloat } from "../../../stdlib/values/value";

const span = { start: 0, end: 0 };
const NAMES = [
  "result",
  "item",
  "accumulator",
  "x",
  "y",
  "len",
  "sum",
  "any",
  "sorted",
  "str",
  "int",
  "max",
  "nope",
];
const ATTRS = ["score", "v", "items", "get", "keys", "upper", "split", "count", "a", "0", "nested"];
const BIN_OPS: BinaryOperator[] = ["+", "-", "*", "/", "//", "%"];
const CMP_OPS: CompareOperator[] = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"];

const constantValue: fc.Arbitrary<ConstantValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).filter((b) => b > 2n ** 53n || b < -(2n ** 53n)),
  fc.double().map((d) => new PyFloat(d)),
  fc.constantFrom("", "a", "ab", "😀", "A b", "1"),
);

const name = fc.constantFrom(...NAMES);
const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 3, arbitrary: name.map((id): Target => ({ kind: "Name", id, ...span })) },
  {
    weight: 1,
    arbitrary: fc.array(name, { minLength: 1, maxLength: 3 }).map(
      (ids): Target => ({
        kind: "TargetList",
        elts: ids.map((id) => ({ kind: "Name", id, ...span })),
        ...span,
      }),
    ),
  },
);

export const arbitraryExpr: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => {
  const expr = tie("expr");
  const small = fc.array(expr, { maxLength: 3 });
  const optional = fc.option(expr, { nil: null });
  const comprehensions = fc.array(
    fc
      .record({ target, iter: expr, ifs: fc.array(expr, { maxLength: 1 }) })
      .map((c): Comprehension => ({ ...c, ...span })),
    { minLength: 1, maxLength: 2 },
  );
  const keywords = fc.array(
    fc
      .record({ name: fc.constantFrom("default", "reverse", "start", "sep"), value: expr })
      .map((k): Keyword => ({ ...k, nameSpan: span, ...span })),
    { maxLength: 1 },
  );
  return {
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      constantValue.map((value): Expr => ({ kind: "Constant", value, ...span })),
      name.map((id): Expr => ({ kind: "Name", id, ...span })),
      fc
        .record({
          scope: fc.constantFrom("input", "steps") as fc.Arbitrary<"input" | "steps">,
          n: name,
          fields: fc.array(fc.constantFrom(...ATTRS), { maxLength: 3 }),
        })
        .map(
          (p): Expr => ({
            kind: "Path",
            text: "$.x",
            ref: {
              scope: p.scope,
              name: { name: p.n, ...span },
              fields: p.fields.map((f) => ({ name: f, ...span })),
            },
            ...span,
          }),
        ),
      fc
        .record({ value: expr, attr: fc.constantFrom(...ATTRS) })
        .map((a): Expr => ({ kind: "Attribute", ...a, attrSpan: span, ...span })),
      fc
        .record({
          value: expr,
          index: fc.oneof(
            expr,
            fc
              .record({ lower: optional, upper: optional, step: optional })
              .map((s): Slice => ({ kind: "Slice", ...s, ...span })),
          ),
        })
        .map((s): Expr => ({ kind: "Subscript", ...s, ...span })),
      fc.record({ func: expr, args: small, keywords }).map((c): Expr => ({ kind: "Call", ...c, ...span })),
      fc
        .record({ op: fc.constantFrom("not", "-", "+") as fc.Arbitrary<"not" | "-" | "+">, operand: expr })
        .map((u): Expr => ({ kind: "UnaryOp", ...u, ...span })),
      fc
        .record({ op: fc.constantFrom(...BIN_OPS), left: expr, right: expr })
        .map((b): Expr => ({ kind: "BinOp", ...b, opSpan: span, ...span })),
      fc
        .record({
          op: fc.constantFrom("and", "or") as fc.Arbitrary<"and" | "or">,
          values: fc.array(expr, { minLength: 2, maxLength: 3 }),
        })
        .map((b): Expr => ({ kind: "BoolOp", ...b, ...span })),
      fc
        .record({
          left: expr,
          rest: fc.array(fc.tuple(fc.constantFrom(...CMP_OPS), expr), { minLength: 1, maxLength: 3 }),
        })
        .map(
          (c): Expr => ({
            kind: "Compare",
            left: c.left,
            ops: c.rest.map(([op]) => ({ op, span })),
            comparators: c.rest.map(([, e]) => e),
            ...span,
          }),
        ),
      fc
        .record({ test: expr, body: expr, orelse: expr })
        .map((i): Expr => ({ kind: "IfExp", ...i, ...span })),
      small.map((elts): Expr => ({ kind: "List", elts, ...span })),
      small.map((elts): Expr => ({ kind: "Tuple", elts, ...span })),
      fc.array(fc.tuple(expr, expr), { maxLength: 3 }).map(
        (pairs): Expr => ({
          kind: "Dict",
          keys: pairs.map((p) => p[0]),
          values: pairs.map((p) => p[1]),
          ...span,
        }),
      ),
      fc
        .record({ elt: expr, generators: comprehensions })
        .map((c): Expr => ({ kind: "ListComp", ...c, ...span })),
      fc
        .record({ elt: expr, generators: comprehensions })
        .map((c): Expr => ({ kind: "GeneratorExp", ...c, ...span })),
      fc.constant<Expr>({ kind: "Error", ...span }),
    ),
  };
}).expr;
