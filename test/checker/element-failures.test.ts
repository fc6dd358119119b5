// Calls that fail for every non-empty iterable argument because of its element type (docs/reference/language.md §10.12.3:
// the checker's guarantee wins over the empty-iterable exception): str.join, sum, sorted, min,
// max. `any` elements, unions with one good member and the empty display `[]` are not reported.
import type { ExprEnvironment } from "../../checker/expr/check-expression";
import { ANY, INT, NONE, STR, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";
import { finding } from "./fixtures";
import { type InvalidCase, runCases } from "./tester";

const list = (elem: Type): Type => ({ k: "list", elem });
const dict = (key: Type, value: Type): Type => ({ k: "dict", key, value });
const rec: Type = { k: "record", record: finding };

const env: ExprEnvironment = {
  names: new Map<string, Type>([
    ["ints", list(INT)],
    ["strs", list(STR)],
    ["dicts", list(dict(STR, INT))],
    ["lists", list(list(INT))],
    ["recs", list(rec)],
    ["nss", list({ k: "ns", of: rec })],
    ["nones", list(NONE)],
    ["anys", list(ANY)],
    ["mixed", list(union(INT, STR))],
    ["numbers", list(union(INT, { k: "float" }))],
    ["pair", { k: "tuple", elems: [dict(STR, INT), dict(STR, INT)] }],
    ["byid", dict(INT, dict(STR, INT))],
  ]),
};

const NON_EMPTY = " (this fails at run time whenever the iterable is not empty)";
const TWO_OR_MORE = " (this fails at run time whenever the iterable has two or more elements)";

/** One EXPR-TYPE on `at` with the Python message `text` (join, sum: fails on one element). */
const bad = (code: string, at: string, text: string, tail = NON_EMPTY): InvalidCase => ({
  code,
  env,
  errors: [{ code: "EXPR-TYPE", at, message: `${text}${tail}` }],
});
/** sorted, min and max compare two elements: a one-element iterable succeeds. */
const order = (code: string, at: string, text: string): InvalidCase => bad(code, at, text, TWO_OR_MORE);

runCases("types: element types that always fail (join, sum, sorted, min, max)", env, {
  valid: [
    "'-'.join(strs)",
    "'-'.join(anys)",
    "'-'.join(mixed)",
    "'-'.join([])",
    "'-'.join(())",
    "'-'.join(byid[1])",
    "sum(ints) + sum(numbers)",
    "sum(anys)",
    "sum(mixed)",
    "sum([])",
    "sum(lists, [])",
    "sum(strs, anys[0])",
    "sorted(ints) + sorted(strs) + sorted(lists) + sorted(anys) + sorted([])",
    "sorted(mixed)",
    "min(ints) + max(numbers)",
    "min(anys) == max(anys)",
    "max([], default=1)",
  ].map((code) => ({ code, env })),
  invalid: [
    bad("'-'.join(ints)", "ints", "sequence item 0: expected str instance, int found"),
    bad("'-'.join(numbers)", "numbers", "sequence item 0: expected str instance, int found"),
    bad("'-'.join(nones)", "nones", "sequence item 0: expected str instance, NoneType found"),
    bad("'-'.join(byid)", "byid", "sequence item 0: expected str instance, int found"),
    bad("'-'.join(byid.keys())", "byid.keys()", "sequence item 0: expected str instance, int found"),
    bad("'-'.join(x for x in recs)", "x for x in recs", "sequence item 0: expected str instance, dict found"),
    bad("sum(strs)", "strs", "unsupported operand type(s) for +: 'int' and 'str'"),
    bad("sum(dicts)", "dicts", "unsupported operand type(s) for +: 'int' and 'dict'"),
    bad("sum(lists)", "lists", "unsupported operand type(s) for +: 'int' and 'list'"),
    bad("sum(nones)", "nones", "unsupported operand type(s) for +: 'int' and 'NoneType'"),
    bad("sum(ints, [])", "ints", 'can only concatenate list (not "int") to list'),
    bad("sum(lists, start=0.5)", "lists", "unsupported operand type(s) for +: 'float' and 'list'"),
    order("sorted(dicts)", "dicts", "'<' not supported between instances of 'dict' and 'dict'"),
    order("sorted(recs)", "recs", "'<' not supported between instances of 'dict' and 'dict'"),
    order(
      "sorted(nss)",
      "nss",
      "'<' not supported between instances of 'types.SimpleNamespace' and 'types.SimpleNamespace'",
    ),
    order("sorted(pair)", "pair", "'<' not supported between instances of 'dict' and 'dict'"),
    order(
      "sorted(byid.values())",
      "byid.values()",
      "'<' not supported between instances of 'dict' and 'dict'",
    ),
    order("min(nones)", "nones", "'<' not supported between instances of 'NoneType' and 'NoneType'"),
    order("max(recs)", "recs", "'>' not supported between instances of 'dict' and 'dict'"),
    order("max(dicts, default=None)", "dicts", "'>' not supported between instances of 'dict' and 'dict'"),
    order(
      "min(x for x in nss)",
      "x for x in nss",
      "'<' not supported between instances of 'types.SimpleNamespace' and 'types.SimpleNamespace'",
    ),
    {
      // Two positional arguments are compared whatever their values: this always fails.
      code: "min(pair[0], pair[1])",
      env,
      errors: [
        {
          code: "EXPR-TYPE",
          at: "pair[1]",
          message: "'<' not supported between instances of 'dict' and 'dict' (this always fails at run time)",
        },
      ],
    },
  ],
});
