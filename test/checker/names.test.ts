import { accumulateKeyEnv, ensureEnv, exitEnv, functionEnsureEnv, genericEnv, skipIfEnv } from "./fixtures";
import { runCases } from "./tester";

runCases("names, dunders, functions (ensure)", ensureEnv, {
  valid: [
    "result.score > 0.5",
    "len(result.findings) > 0",
    "all(f.id > 0 for f in result.findings)",
    "[len for len in result.tags]",
    "'__class__' in result.summary",
    "result.meta['__x__'] == 1",
    "$.input.n == None",
    "$.steps.review.output.score > 1",
    "file_exists(result.summary) and file_contains('a.txt', 'x')",
  ],
  invalid: [
    {
      code: "reslt.score > 0",
      errors: [
        {
          code: "EXPR-UNKNOWN-NAME",
          at: "reslt",
          message: "name 'reslt' is not defined",
          suggestion: "Did you mean 'result'?",
          fixText: "result.score > 0",
        },
      ],
    },
    { code: "zzzzzz > 1", errors: [{ code: "EXPR-UNKNOWN-NAME", at: "zzzzzz", suggestion: null }] },
    {
      code: "Len(result.tags)",
      errors: [
        {
          code: "EXPR-UNKNOWN-FUNCTION",
          at: "Len",
          message: "unknown function 'Len'",
          suggestion: "Did you mean 'len'?",
          fixText: "len(result.tags)",
        },
      ],
    },
    {
      code: "range(3)",
      errors: [{ code: "EXPR-UNKNOWN-FUNCTION", at: "range", message: "unknown function 'range'" }],
    },
    { code: "constructor(1)", errors: [{ code: "EXPR-UNKNOWN-FUNCTION", at: "constructor" }] },
    { code: "toString", errors: [{ code: "EXPR-UNKNOWN-NAME", at: "toString" }] },
    {
      code: "no_file_conflicts(result.tags)",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.tags",
          message:
            "vars() argument must have __dict__ attribute (this fails at run time whenever the iterable is not empty)",
        },
      ],
    },
    { code: "plan_completion()", errors: [{ code: "EXPR-ARITY", at: "plan_completion()" }] },
    { code: "plan_completion([], [])", errors: [] },
    { code: "vocabulary_compliance('v', [], git_fallback=True)", errors: [] },
    {
      code: "vocabulary_compliance(None, [])",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "None",
          message:
            "stat: path should be string, bytes, os.PathLike or integer, not NoneType (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.__class__",
      errors: [
        {
          code: "EXPR-DUNDER",
          at: "__class__",
          message: "Step 's' ensure must not contain dunder attributes",
        },
      ],
    },
    {
      code: "result.__class__.__subclasses__()",
      errors: [
        { code: "EXPR-DUNDER", at: "__class__" },
        { code: "EXPR-DUNDER", at: "__subclasses__" },
      ],
    },
    { code: "__import__('os')", errors: [{ code: "EXPR-DUNDER", at: "__import__" }] },
    { code: "a__b", errors: [{ code: "EXPR-DUNDER", at: "a__b" }] },
    {
      code: "sorted(result.tags, __x=1)",
      errors: [
        { code: "EXPR-DUNDER", at: "__x" },
        { code: "EXPR-ARITY", at: "sorted(result.tags, __x=1)" },
      ],
    },
    {
      code: "[x__ for x__ in result.tags]",
      errors: [
        { code: "EXPR-DUNDER", at: "x__", from: 8 },
        { code: "EXPR-DUNDER", at: "x__" },
      ],
    },
    {
      code: "result.__class__",
      env: functionEnsureEnv,
      errors: [
        {
          code: "EXPR-DUNDER",
          at: "__class__",
          message: "Function 'review_fn' ensure must not contain dunder attributes",
        },
      ],
    },
    {
      code: "item.id",
      errors: [
        {
          code: "EXPR-NAME-UNAVAILABLE",
          at: "item",
          message:
            "name 'item' is not available in ensure expressions (item is bound only in accumulate_key)",
        },
      ],
    },
    {
      code: "dry_streak > 2",
      errors: [
        {
          code: "EXPR-NAME-UNAVAILABLE",
          at: "dry_streak",
          message:
            "name 'dry_streak' is not available in ensure expressions (it is bound only in exit_criterion of a step that declares accumulate)",
        },
      ],
    },
    {
      code: "len",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "len",
          message: "builtin function 'len' must be called (this always fails at run time)",
        },
      ],
    },
    { code: "sorted == 1", errors: [{ code: "EXPR-TYPE", at: "sorted" }] },
    {
      code: "$.input",
      errors: [
        { code: "SPEC-REF-MALFORMED", at: "$.input", message: "$.input requires a field name: '$.input'" },
      ],
    },
    {
      code: "$.steps.x.result == 1",
      errors: [
        {
          code: "SPEC-REF-MALFORMED",
          at: "$.steps.x.result",
          message: "Expected '$.steps.<id>.output[.<field>]', got '$.steps.x.result'",
        },
      ],
    },
    {
      code: "$.steps.x",
      errors: [
        {
          code: "SPEC-REF-MALFORMED",
          at: "$.steps.x",
          message: "$.steps requires $.steps.<id>.output: '$.steps.x'",
        },
      ],
    },
    {
      code: "$.foo.bar",
      errors: [
        { code: "SPEC-REF-MALFORMED", at: "$.foo.bar", message: "Unknown $ prefix 'foo' in '$.foo.bar'" },
      ],
    },
    { code: "$.", errors: [{ code: "SPEC-REF-MALFORMED", at: "$.", message: "Empty $ reference: '$.'" }] },
    {
      code: "$.input.n > 'a'",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "$.input.n > 'a'",
          message: "'>' not supported between instances of 'int' and 'str' (this always fails at run time)",
        },
      ],
    },
  ],
});

runCases("comprehension scoping", ensureEnv, {
  valid: [
    "[f.id for f in result.findings if f.severity == 'high']",
    "[t for f in result.findings for t in [f.file] if t]",
    "all(x > result.score for x in [1, 2])",
    "[[y for y in x] for x in [[1], [2]]]",
    "[k + str(v) for k, v in {'a': 1}.items()]",
    "[a + b for (a, b) in [(1, 2)]]",
    "[a for [a, b] in [(1, 2)]]",
    "[result for result in [1, 2]]",
    "[str for str in ['x']]",
  ],
  invalid: [
    { code: "[x for x in result.tags] + [x]", errors: [{ code: "EXPR-UNKNOWN-NAME", at: "x", from: 27 }] },
    {
      code: "[y for x in y for y in result.tags]",
      errors: [{ code: "EXPR-UNKNOWN-NAME", at: "y", from: 12 }],
    },
    {
      code: "[f.name for f in result.findings]",
      errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "name", message: "contract 'Finding' has no field 'name'" }],
    },
    {
      code: "[x for x in result.score]",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.score",
          message: "'int' object is not iterable (this always fails at run time)",
        },
      ],
    },
    { code: "[a for a, b in result.tags]", errors: [] },
    {
      code: "[a for a, b in [(1, 2, 3)]]",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "a, b",
          from: 6,
          message: "too many values to unpack (expected 2) (this always fails at run time)",
        },
      ],
    },
    {
      code: "[a for a, b in [1]]",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "a, b",
          from: 6,
          message: "cannot unpack non-iterable int object (this always fails at run time)",
        },
      ],
    },
    {
      code: "[k.lower() for k, v in {'a': 1}.items() if v.lower()]",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "v.lower()",
          message: "'int' object has no attribute 'lower' (this always fails at run time)",
        },
      ],
    },
    { code: "[str(s) for s in result.tags]", errors: [] },
    {
      code: "[itm for it in result.tags]",
      errors: [{ code: "EXPR-UNKNOWN-NAME", at: "itm", suggestion: "Did you mean 'it'?" }],
    },
    { code: "[s for s in result.tags if s > 1]", errors: [{ code: "EXPR-TYPE", at: "s > 1" }] },
  ],
});

runCases("skip_if", skipIfEnv, {
  valid: ["$.input.n == 1", "$.steps.review.output.approved == False", "True", "true"],
  invalid: [
    {
      code: "result.ok",
      errors: [
        {
          code: "EXPR-NAME-UNAVAILABLE",
          at: "result",
          message:
            "name 'result' is not available in skip_if expressions (skip_if is evaluated before the step runs; read earlier outputs with $.steps.<id>.output)",
        },
      ],
    },
    { code: "$.steps.review.output.scroe == 1", errors: [] },
  ],
});

runCases("exit_criterion with accumulate", exitEnv, {
  valid: [
    "accumulated_count >= 10 or dry_streak >= 2",
    "new_count == 0",
    "len(accumulator) > 3 and accumulator[0].severity == 'high'",
    "result.approved == True",
  ],
  invalid: [
    { code: "item.id", errors: [{ code: "EXPR-NAME-UNAVAILABLE", at: "item" }] },
    {
      code: "dry_streek >= 1",
      errors: [{ code: "EXPR-UNKNOWN-NAME", at: "dry_streek", suggestion: "Did you mean 'dry_streak'?" }],
    },
    { code: "accumulator[0].severity == 'hihg'", errors: [{ code: "EXPR-ENUM-VALUE", at: "'hihg'" }] },
  ],
});

runCases("accumulate_key", accumulateKeyEnv, {
  valid: ["item.id", "str(item.file) + ':' + str(item.line)", "(item.file, item.line)"],
  invalid: [
    {
      code: "result.id",
      errors: [
        {
          code: "EXPR-NAME-UNAVAILABLE",
          at: "result",
          message:
            "name 'result' is not available in accumulate_key expressions (accumulate_key sees one extracted element as item)",
        },
      ],
    },
    {
      code: "item.tags",
      errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "tags", message: "contract 'Finding' has no field 'tags'" }],
    },
  ],
});

runCases("generic environment", genericEnv, {
  valid: ["x.anything().goes[1] + 2", "x is None"],
  invalid: [
    {
      code: "x.__dict__",
      errors: [
        { code: "EXPR-DUNDER", at: "__dict__", message: "Expression must not contain dunder attributes" },
      ],
    },
    { code: "y", errors: [{ code: "EXPR-UNKNOWN-NAME", at: "y", suggestion: "Did you mean 'x'?" }] },
  ],
});
