// fast-check arbitraries for expression ASTs of the shapes the parser produces (no holes, offsets
// all 0), plus `stripOffsets` to compare trees modulo offsets. Reusable by other test suites.
import fc from "fast-check";
import type { Comprehension, ConstantValue, Expr, Keyword, Path, Slice, Target } from "../../grammar/ast";
import { parseExpression } from "../../grammar/parse";
import { normInt, PyFloat } from "../../stdlib/values/value";

const KEYWORDS = new Set(
  "and or not in is if else for True False None true false null lambda yield await async def class import from as with return pass del global nonlocal assert raise try except finally while break continue elif".split(
    " ",
  ),
);

const identifierArb: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/)
  .filter((s) => !KEYWORDS.has(s));

const intArb: fc.Arbitrary<ConstantValue> = fc.oneof(
  fc.integer({ min: 0, max: 1000 }),
  fc.bigInt({ min: 0n, max: 2n ** 80n }).map((b) => normInt(b)),
);

const floatArb: fc.Arbitrary<ConstantValue> = fc
  .oneof(fc.double({ min: 0, noNaN: true }), fc.constantFrom(0.1, 1e16, 1e-5, 0.0001, 1e308))
  .filter((x) => !Object.is(x, -0))
  .map((x) => new PyFloat(x));

const constantValueArb: fc.Arbitrary<ConstantValue> = fc.oneof(
  fc.constantFrom<ConstantValue>(null, true, false),
  intArb,
  floatArb,
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);

const PATH_TEXTS = [
  "$.input.name",
  "$.input.a.b",
  "$.steps.s1.output",
  "$.steps.s.output.items.0",
  "$.foo",
  "$.steps.a",
];

/** Paths exactly as the parser builds them (their references included), offsets zeroed. */
const pathArb: fc.Arbitrary<Path> = fc.constantFrom(...PATH_TEXTS).map((text) => {
  const parsed = parseExpression(text).expr as Path;
  return zeroOffsets(parsed) as Path;
});

const S = { start: 0, end: 0 };

function targetArb(depth: number): fc.Arbitrary<Target> {
  const name = identifierArb.map((id): Target => ({ kind: "Name", id, ...S }));
  if (depth <= 0) return name;
  return fc.oneof(
    { weight: 3, arbitrary: name },
    {
      weight: 1,
      arbitrary: fc
        .array(targetArb(depth - 1), { minLength: 1, maxLength: 3 })
        .map((elts): Target => ({ kind: "TargetList", elts, ...S })),
    },
  );
}

/** Arbitrary expressions up to a small nesting depth. */
export function exprArb(maxDepth = 4): fc.Arbitrary<Expr> {
  const leaf: fc.Arbitrary<Expr> = fc.oneof(
    constantValueArb.map((value): Expr => ({ kind: "Constant", value, ...S })),
    identifierArb.map((id): Expr => ({ kind: "Name", id, ...S })),
    pathArb,
  );
  const at = (depth: number): fc.Arbitrary<Expr> => {
    if (depth <= 0) return leaf;
    const sub = at(depth - 1);
    const small = (n: number, min = 0) => fc.array(sub, { minLength: min, maxLength: n });
    const comprehension = fc
      .record({ target: targetArb(2), iter: sub, ifs: fc.array(sub, { maxLength: 2 }) })
      .map((g): Comprehension => ({ ...g, ...S }));
    const generators = fc.array(comprehension, { minLength: 1, maxLength: 2 });
    const slice = fc
      .record({ lower: fc.option(sub), upper: fc.option(sub), step: fc.option(sub) })
      .map((s): Slice => ({ kind: "Slice", ...s, ...S }));
    const keywords = fc
      .uniqueArray(fc.record({ name: identifierArb, value: sub }), { selector: (k) => k.name, maxLength: 2 })
      .map((ks) => ks.map((k): Keyword => ({ ...k, nameSpan: S, ...S })));
    return fc.oneof(
      { weight: 4, arbitrary: leaf },
      {
        weight: 1,
        arbitrary: fc
          .record({ value: sub, attr: identifierArb })
          .map((r): Expr => ({ kind: "Attribute", ...r, attrSpan: S, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ value: sub, index: fc.oneof(sub, slice) })
          .map((r): Expr => ({ kind: "Subscript", ...r, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ func: sub, args: small(3), keywords })
          .map((r): Expr => ({ kind: "Call", ...r, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ op: fc.constantFrom("not" as const, "-" as const, "+" as const), operand: sub })
          .map((r): Expr => ({ kind: "UnaryOp", ...r, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({
            op: fc.constantFrom(
              "+" as const,
              "-" as const,
              "*" as const,
              "/" as const,
              "//" as const,
              "%" as const,
            ),
            left: sub,
            right: sub,
          })
          .map((r): Expr => ({ kind: "BinOp", ...r, opSpan: S, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ op: fc.constantFrom("and" as const, "or" as const), values: small(3, 2) })
          .map((r): Expr => ({ kind: "BoolOp", ...r, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({
            left: sub,
            rest: fc.array(
              fc.record({
                op: fc.constantFrom(
                  "==",
                  "!=",
                  "<",
                  "<=",
                  ">",
                  ">=",
                  "in",
                  "not in",
                  "is",
                  "is not",
                ) as fc.Arbitrary<"==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in" | "is" | "is not">,
                right: sub,
              }),
              { minLength: 1, maxLength: 3 },
            ),
          })
          .map(
            (r): Expr => ({
              kind: "Compare",
              left: r.left,
              ops: r.rest.map((x) => ({ op: x.op, span: S })),
              comparators: r.rest.map((x) => x.right),
              ...S,
            }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ test: sub, body: sub, orelse: sub })
          .map((r): Expr => ({ kind: "IfExp", ...r, ...S })),
      },
      { weight: 1, arbitrary: small(3).map((elts): Expr => ({ kind: "List", elts, ...S })) },
      { weight: 1, arbitrary: small(3).map((elts): Expr => ({ kind: "Tuple", elts, ...S })) },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.tuple(sub, sub), { maxLength: 3 })
          .map(
            (kv): Expr => ({ kind: "Dict", keys: kv.map((p) => p[0]), values: kv.map((p) => p[1]), ...S }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc.record({ elt: sub, generators }).map((r): Expr => ({ kind: "ListComp", ...r, ...S })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ elt: sub, generators })
          .map((r): Expr => ({ kind: "GeneratorExp", ...r, ...S })),
      },
    );
  };
  return at(maxDepth);
}

const OFFSET_KEYS = new Set(["start", "end", "span", "opSpan", "attrSpan", "nameSpan"]);

/** A deep copy without any offset (for comparing trees modulo offsets). */
export function stripOffsets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripOffsets);
  if (value === null || typeof value !== "object" || value instanceof PyFloat) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!OFFSET_KEYS.has(k)) out[k] = stripOffsets(v);
  return out;
}

/** A deep copy with every offset set to 0. */
function zeroOffsets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(zeroOffsets);
  if (value === null || typeof value !== "object" || value instanceof PyFloat) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "start" || k === "end" ? 0 : zeroOffsets(v);
  }
  return out;
}
