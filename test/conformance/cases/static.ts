// Static diagnostics of expressions (docs/reference/language.md §9.5.5, docs/reference/language.md §10.12.3, docs/reference/language.md §10.15): codes and exact
// messages, in environments with records, enumerations and expression kinds.
import { FLOAT, INT, listOf, NONE, RecordType, recordOf, STR, type Type } from "../../../stdlib/types/type";
import { diag, type ExpressionCase, err, errStatic, syntax, val } from "../case-types";

const review = new RecordType("Review");
review.fields.set("score", { type: FLOAT, optional: false });
review.fields.set("count", { type: INT, optional: false });
review.fields.set("status", { type: { k: "str", values: ["ok", "failed"] }, optional: false });
review.fields.set("tags", { type: listOf(STR), optional: false });
review.fields.set("note", { type: { k: "union", members: [STR, NONE] }, optional: true });

const REVIEW_NS: Type = { k: "ns", of: recordOf(review) };
/** A value of contract Review, typed as the record (not as its JSON value). */
const T = {
  bindings: JSON.stringify({ result: { score: 0.9, count: 2, status: "ok", tags: ["a", "b"], note: null } }),
  types: { result: REVIEW_NS },
};
const TYPES_ONLY = { types: { result: REVIEW_NS } };
const STEP = { kind: "ensure", owner: "Step 's'" } as const;

const SKIP_RESULT =
  "skip_if is evaluated before the step runs; read earlier outputs with $.steps.<id>.output";
const ITEM_ONLY = "item is bound only in accumulate_key";
const ACCUMULATOR_ONLY = "it is bound only in exit_criterion of a step that declares accumulate";

/** Long operator chains: CPython's own parser recurses on them and gives up. */
const DEEP_FOR_CPYTHON = { divergence: "CPython parser recursion limit" };
const LONG_OK = `1${"+1".repeat(4999)} `;
const LONG = `1${"+1".repeat(5000)}`;
const ASTRAL_OK = `'${"😀".repeat(9998)}'`;
const DEEP_OK = `${"(".repeat(100)}1${")".repeat(100)}`;
const DEEP = `${"(".repeat(101)}1${")".repeat(101)}`;

export const STATIC_CASES: readonly ExpressionCase[] = [
  // records: fields, enumerations, optional fields
  val("result.score > 0.5 and result.status == 'ok'", "True", T),
  val("result.get('note') is None", "True", T),
  val("len(result.tags) + result.count", "4", T),
  err("result.note.upper()", "AttributeError", "'NoneType' object has no attribute 'upper'", T),
  diag("result.scor > 0", "EXPR-UNKNOWN-FIELD", "contract 'Review' has no field 'scor'", TYPES_ONLY),
  diag("result['scor']", "EXPR-UNKNOWN-FIELD", "contract 'Review' has no field 'scor'", TYPES_ONLY),
  diag("result.get('scor')", "EXPR-UNKNOWN-FIELD", "contract 'Review' has no field 'scor'", TYPES_ONLY),
  diag(
    "result.status == 'done'",
    "EXPR-ENUM-VALUE",
    "'done' is not an allowed value of field 'status' (allowed: ['ok', 'failed'])",
    TYPES_ONLY,
  ),
  diag(
    "result.status != 'x'",
    "EXPR-ENUM-VALUE",
    "'x' is not an allowed value of field 'status' (allowed: ['ok', 'failed'])",
    TYPES_ONLY,
  ),
  diag(
    "result.status in ['ok', 'nope']",
    "EXPR-ENUM-VALUE",
    "'nope' is not an allowed value of field 'status' (allowed: ['ok', 'failed'])",
    TYPES_ONLY,
  ),
  diag(
    "result.score + 'a'",
    "EXPR-TYPE",
    "unsupported operand type(s) for +: 'float' and 'str' (this always fails at run time)",
    TYPES_ONLY,
  ),
  diag(
    "result.count > 'a'",
    "EXPR-TYPE",
    "'>' not supported between instances of 'int' and 'str' (this always fails at run time)",
    TYPES_ONLY,
  ),
  diag("result.note > 1", "EXPR-TYPE", undefined, TYPES_ONLY),
  diag(
    "result.tags.append('x')",
    "EXPR-UNKNOWN-METHOD",
    "'list' object has no attribute 'append'",
    TYPES_ONLY,
  ),
  diag(
    "result.score == 'a'",
    "EXPR-COMPARISON-CONSTANT",
    "comparison is always False: float and str values are never equal",
    TYPES_ONLY,
  ),
  diag(
    "result.tags != 'a'",
    "EXPR-COMPARISON-CONSTANT",
    "comparison is always True: list[str] and str values are never equal",
    TYPES_ONLY,
  ),
  diag("result == {'score': 1}", "EXPR-COMPARISON-CONSTANT", undefined, TYPES_ONLY),
  diag(
    "result.tags.count == 1",
    "EXPR-METHOD-NOT-CALLED",
    "method 'list.count' is used without being called",
    TYPES_ONLY,
  ),
  val("'a'.upper == 'A'", "False", { warning: "EXPR-METHOD-NOT-CALLED" }),
  diag("'a'.upper == 'A'", "EXPR-METHOD-NOT-CALLED", "method 'str.upper' is used without being called"),
  diag("result.status is 'ok'", "EXPR-IS-LITERAL", `"is" with a literal. Did you mean "=="?`, TYPES_ONLY),
  val("result.count is not None", "True", T),
  val("result.count == True", "False", T),
  // accumulate must be a list
  diag(
    "result.score",
    "EXPR-ACCUMULATE-NOT-LIST",
    "accumulate expression 'result.score' does not evaluate to a list (it evaluates to float)",
    { ...TYPES_ONLY, kind: "accumulate" },
  ),
  val("result.tags", "['a', 'b']", { ...T, kind: "accumulate" }),
  val("[t for t in result.tags if t > 'a']", "['b']", { ...T, kind: "accumulate" }),
  // names
  diag(
    "result.x",
    "EXPR-NAME-UNAVAILABLE",
    `name 'result' is not available in skip_if expressions (${SKIP_RESULT})`,
    {
      kind: "skip_if",
      unavailable: { result: SKIP_RESULT },
    },
  ),
  diag(
    "item.id",
    "EXPR-NAME-UNAVAILABLE",
    `name 'item' is not available in ensure expressions (${ITEM_ONLY})`,
    {
      kind: "ensure",
      unavailable: { item: ITEM_ONLY },
    },
  ),
  diag(
    "dry_streak >= 2",
    "EXPR-NAME-UNAVAILABLE",
    `name 'dry_streak' is not available in ensure expressions (${ACCUMULATOR_ONLY})`,
    { kind: "ensure", unavailable: { dry_streak: ACCUMULATOR_ONLY } },
  ),
  diag("nope > 1", "EXPR-UNKNOWN-NAME", "name 'nope' is not defined"),
  diag("nope(1)", "EXPR-UNKNOWN-FUNCTION", "unknown function 'nope'"),
  diag("result.__class__", "EXPR-DUNDER", "Step 's' ensure must not contain dunder attributes", STEP),
  diag(
    "result.__class__.__name__ == 'dict'",
    "EXPR-DUNDER",
    "Step 's' ensure must not contain dunder attributes",
    STEP,
  ),
  diag("__import__('os')", "EXPR-DUNDER", "Step 's' ensure must not contain dunder attributes", STEP),
  diag("[a__b for a__b in [1]]", "EXPR-DUNDER", "Step 's' ensure must not contain dunder attributes", STEP),
  diag("result.__len__()", "EXPR-DUNDER", "Function 'f' ensure must not contain dunder attributes", {
    kind: "ensure",
    owner: "Function 'f'",
  }),
  diag("result.__dict__", "EXPR-DUNDER", "Step 's' exit_criterion must not contain dunder attributes", {
    kind: "exit_criterion",
    owner: "Step 's'",
  }),
  val("'__class__' != ''", "True", { ...STEP, divergence: "DIV-DUNDER-TOKEN (only identifiers)" }),
  // builtin misuse
  errStatic("len('a', 'b')", "TypeError", "len() takes exactly 1 argument (2 given)", "EXPR-ARITY"),
  errStatic("'a'.lower(1)", "TypeError", "str.lower() takes no arguments (1 given)", "EXPR-ARITY"),
  errStatic(
    "sorted([2, 1], key=1)",
    "TypeError",
    "sorted() got an unexpected keyword argument 'key'",
    "EXPR-ARITY",
  ),
  // limits (docs/reference/language.md §10.15)
  val(LONG_OK, "5000", DEEP_FOR_CPYTHON),
  val(ASTRAL_OK, ASTRAL_OK),
  diag(LONG, "EXPR-TOO-LONG", "ensure expression is too long (10001 characters; the limit is 10000)", {
    kind: "ensure",
  }),
  val(DEEP_OK, "1"),
  val(`${"-".repeat(100)}1`, "1"),
  val(`1${" + 1".repeat(2000)}`, "2001", DEEP_FOR_CPYTHON),
  val(`1${" <= 1".repeat(1000)}`, "True"),
  val(`1${" and 1".repeat(1500)}`, "1"),
  diag(DEEP, "EXPR-TOO-DEEP", "ensure expression is nested too deeply (the limit is 100 levels)", {
    kind: "ensure",
  }),
  diag(`${"-".repeat(101)}1`, "EXPR-TOO-DEEP", undefined, { kind: "ensure" }),
  diag(`${"[".repeat(101)}${"]".repeat(101)}`, "EXPR-TOO-DEEP", undefined, { kind: "ensure" }),
  // syntax details (docs/reference/language.md §9.5.5)
  syntax("1 +", "unexpected end of expression"),
  syntax("", "unexpected end of expression"),
  syntax("1 2", "unexpected number 2"),
  syntax("1 'a'", "unexpected string 'a'"),
  syntax("1 x", "unexpected name 'x'"),
  syntax("1 )", "unexpected ')'"),
  syntax("(1", "'(' was never closed"),
  syntax("[1, 2", "'[' was never closed"),
  syntax("{'a': 1", "'{' was never closed"),
  syntax("1 ** 2", "'**' is not supported"),
  syntax("1 | 2", "'|' is not supported"),
  syntax("1 & 2", "'&' is not supported"),
  syntax("1 ^ 2", "'^' is not supported"),
  syntax("~1", "'~' is not supported"),
  syntax("1 << 2", "'<<' is not supported"),
  syntax("1 >> 2", "'>>' is not supported"),
  syntax("[1] @ [2]", "'@' is not supported"),
  syntax("(x := 1)", "':=' is not supported"),
  syntax("1 <> 2", "'<>' is not supported"),
  ...[
    "lambda",
    "yield",
    "await",
    "async",
    "def",
    "class",
    "import",
    "from",
    "as",
    "with",
    "return",
    "pass",
    "del",
    "global",
    "nonlocal",
    "assert",
    "raise",
    "try",
    "except",
    "finally",
    "while",
    "break",
    "continue",
    "elif",
  ].map((kw) => syntax(`${kw} x`, `'${kw}' is not supported`)),
  syntax("lambda: 1", "'lambda' is not supported"),
  syntax("1 if 2 elif 3", "'elif' is not supported"),
  // `$` references that are malformed (docs/reference/language.md §10.5)
  diag("$.foo == 1", "SPEC-REF-MALFORMED", "Unknown $ prefix 'foo' in '$.foo'"),
  diag("$.steps.a", "SPEC-REF-MALFORMED", "$.steps requires $.steps.<id>.output: '$.steps.a'"),
  diag("$.input", "SPEC-REF-MALFORMED", "$.input requires a field name: '$.input'"),
  diag(
    "$.steps.a.result",
    "SPEC-REF-MALFORMED",
    "Expected '$.steps.<id>.output[.<field>]', got '$.steps.a.result'",
  ),
];
