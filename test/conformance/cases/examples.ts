// The example tables of docs/reference/language.md §10.5 (`$` paths) and docs/reference/language.md §10.8.11, verbatim.
import { type ExpressionCase, err, errStatic, val } from "../case-types";

const ITEMS = JSON.stringify({
  result: {
    items: [{ status: "complete" }, { status: "failed" }, { status: "complete" }],
    values: [3, 4],
    min: 2,
  },
});
const P = { paths: true };

export const EXAMPLE_CASES: readonly ExpressionCase[] = [
  // docs/reference/language.md §10.5, with inputs {do_skip: true, name: "bob"}, s1 = {skip: true, label: "x", nested: {a: 1}},
  // s2 = None (skipped), s3 not run
  val("$.input.do_skip == True", "True", P),
  val("$.input.missing == None", "True", P),
  val("$.steps.s2.output.skip == None", "True", P),
  val("$.steps.s3.output.x == None", "True", P),
  val("$.steps.s1.output.nested == {'a': 1}", "True", P),
  val("len($.steps.s1.output.label) == 1", "True", P),
  val("$.input.name.upper() == 'BOB'", "True", P),
  val("$.steps.s1.output", "{'skip': True, 'label': 'x', 'nested': {'a': 1}}", P),
  val("$.steps.s1.output.nested.a + 1", "2", P),
  val("$.steps.s1.output.label.x", "None", P),
  val("$.input.name . upper()", "'BOB'", P),
  // docs/reference/language.md §10.8.11
  val("1 == 1.0 == True", "True"),
  val("[7 / 2, 7 // 2, -7 // 2, -7 % 2, 7 % -2]", "[3.5, 3, -4, 1, -1]"),
  val("2 / 2", "1.0"),
  val("['ab' * 2, [1, 2] + [3], (1,) + (2,)]", "['abab', [1, 2, 3], (1, 2)]"),
  val("['x' in 'xyz', 'a' in {'a': 1}, 2 in (1, 2), [1] in [[1]]]", "[True, True, True, True]"),
  val("['' or 'x', 0 and 1, None or []]", "['x', 0, []]"),
  val("[[1, 2, 3][-1], 'abc'[1:], [1, 2, 3][::-1], [1, 2, 3][-5:2]]", "[3, 'bc', [3, 2, 1], [1, 2]]"),
  val("[(1, 2) == [1, 2], {'a': 1} == {'a': 1.0}, '' == False]", "[False, True, False]"),
  val("['B' < 'a', [1, 2] < [1, 3], (1,) < (1, 2)]", "[True, True, True]"),
  val("[str(1.0), str(1e16), str(0.1 + 0.2), str(-0.0)]", "['1.0', '1e+16', '0.30000000000000004', '-0.0']"),
  val(
    "[str([1, 'a', None, True]), str((1,)), str({'a': (1,)})]",
    `["[1, 'a', None, True]", '(1,)', "{'a': (1,)}"]`,
  ),
  val("[int(' 7 '), int(3.9), int(True), int('1_000')]", "[7, 3, 1, 1000]"),
  err("int('3.5')", "ValueError", "invalid literal for int() with base 10: '3.5'"),
  errStatic(
    "None > 1",
    "TypeError",
    "'>' not supported between instances of 'NoneType' and 'int'",
    "EXPR-TYPE",
  ),
  errStatic(
    "1 < 'a' < 2",
    "TypeError",
    "'<' not supported between instances of 'int' and 'str'",
    "EXPR-TYPE",
  ),
  val("[round(2.5), round(3.5), round(-0.5), round(2.675, 2)]", "[2, 4, 0, 2.67]"),
  val(
    "[sum([0.1] * 10), max([], default=3), sorted([3, 1], reverse=True)]",
    "[0.9999999999999999, 3, [3, 1]]",
  ),
  val("['a,b'.split(','), ' a b '.split(), '-'.join(['a', 'b'])]", "[['a', 'b'], ['a', 'b'], 'a-b']"),
  val("len([i for i in result.items if i['status'] == 'complete'])", "2", { bindings: ITEMS }),
  val("all(x > result.min for x in result.values)", "True", { bindings: ITEMS }),
  val("{1: 'a', 1.0: 'b', True: 'c'}", "{1: 'c'}"),
  val("[len('😀'), '😀'[0]]", "[1, '😀']"),
];
