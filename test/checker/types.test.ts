import { accumulateEnv, ensureEnv } from "./fixtures";
import { runCases } from "./tester";

runCases("types: operators and calls (ensure)", ensureEnv, {
  valid: [
    "result.summary + 'x' != ''",
    "result.score * 2 > 1",
    "result.tags + ['a'] == []",
    "-result.score < 0",
    "not result.approved",
    "0 < result.score <= 1",
    "result.summary if result.approved else 'x'",
    "(result.status or '').upper() == 'COMPLETE'",
    "result.parent.score > 1",
    "result.parent.parent.findings[0].id == 1",
    "result.get('status') == 'complete'",
    "result['summary'] != ''",
    "result.meta['anything'].goes.anywhere() == 1",
    "result.meta.x == 1",
    "sum([f.id for f in result.findings]) > 0",
    "max(result.tags, default='') != 'z'",
    "sorted(result.tags, reverse=True)[0] != ''",
    "round(result.score, 2) >= 0.5",
    "result.summary.split(',', maxsplit=1)[0] != ''",
    "'-'.join(result.tags) != ''",
    "result.summary.startswith(('a', 'b'))",
    "len(result.items()) > 0 and 'summary' in result and len(result) > 0",
    "[k for k in result.keys()] != []",
    "{'a': result.score}['a'] > 0",
    "(1, 'a')[1].upper() == 'A'",
    "result.tags[-1:] != []",
    "$.steps.review.output.summary.upper() != ''",
    "$.input.name.upper() == 'BOB'",
    "result.status is None",
    "result.parent is not None",
    "result.approved == True",
    "int(result.summary) > 1",
    "str(result.findings) != ''",
    "result.level == 2",
    "result.level in [1, 3]",
    "result.status in ('complete', 'failed')",
    "result.findings[0].severity != 'low'",
    "'low' == result.findings[0].severity",
    "result.score == 1",
  ],
  invalid: [
    {
      // Fails for every list of two or more findings; the message says the claim's condition.
      code: "sorted(result.findings) == []",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.findings",
          message:
            "'<' not supported between instances of 'dict' and 'dict' (this fails at run time whenever the iterable has two or more elements)",
        },
      ],
    },
    {
      code: "'-'.join([f.id for f in result.findings])",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "[f.id for f in result.findings]",
          message:
            "sequence item 0: expected str instance, int found (this fails at run time whenever the iterable is not empty)",
        },
      ],
    },
    {
      code: "result.summary + 1",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.summary + 1",
          message: `can only concatenate str (not "int") to str (this always fails at run time)`,
        },
      ],
    },
    {
      code: "1 + 2 + result.summary",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "1 + 2 + result.summary",
          message: "unsupported operand type(s) for +: 'int' and 'str' (this always fails at run time)",
        },
      ],
    },
    { code: "result.summary % 2", errors: [{ code: "EXPR-TYPE", at: "result.summary % 2" }] },
    {
      code: "-result.summary",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "-result.summary",
          message: "bad operand type for unary -: 'str' (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.summary > 1",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.summary > 1",
          message: "'>' not supported between instances of 'str' and 'int' (this always fails at run time)",
        },
      ],
    },
    { code: "0 < result.score < 'a'", errors: [{ code: "EXPR-TYPE", at: "result.score < 'a'" }] },
    {
      code: "1 in result.score",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "1 in result.score",
          message: "argument of type 'int' is not iterable (this always fails at run time)",
        },
      ],
    },
    {
      code: "1 in result.summary",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "1 in result.summary",
          message: "'in <string>' requires string as left operand, not int (this always fails at run time)",
        },
      ],
    },
    {
      code: "len(result.score)",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.score",
          message: "object of type 'int' has no len() (this always fails at run time)",
        },
      ],
    },
    {
      code: "len(result.tags, 1)",
      errors: [
        {
          code: "EXPR-ARITY",
          at: "len(result.tags, 1)",
          message: "len() takes exactly 1 argument (2 given)",
        },
      ],
    },
    {
      code: "sorted(result.tags, key=len)",
      errors: [
        { code: "EXPR-TYPE", at: "len", from: 20 },
        {
          code: "EXPR-ARITY",
          at: "sorted(result.tags, key=len)",
          message: "sorted() got an unexpected keyword argument 'key'",
        },
      ],
    },
    {
      code: "int(result.tags)",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.tags",
          message:
            "int() argument must be a string, a bytes-like object or a real number, not 'list' (this always fails at run time)",
        },
      ],
    },
    { code: "sorted(result.tags, reverse=None)", errors: [{ code: "EXPR-TYPE", at: "reverse=None" }] },
    {
      code: "result.summary.lower(1)",
      errors: [
        {
          code: "EXPR-ARITY",
          at: "result.summary.lower(1)",
          message: "str.lower() takes no arguments (1 given)",
        },
      ],
    },
    {
      code: "result.summary.lowr()",
      errors: [
        {
          code: "EXPR-UNKNOWN-METHOD",
          at: "lowr",
          message: "'str' object has no attribute 'lowr'",
          suggestion: "Did you mean 'lower'?",
          fixText: "result.summary.lower()",
        },
      ],
    },
    {
      code: "result.tags.append('x')",
      errors: [
        {
          code: "EXPR-UNKNOWN-METHOD",
          at: "append",
          message: "'list' object has no attribute 'append'",
          suggestion: null,
        },
      ],
    },
    {
      code: "result.score.x",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "x",
          message: "'int' object has no attribute 'x' (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.summary.split(1)",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "1",
          from: 21,
          message: "must be str or None, not int (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.approved()",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.approved()",
          message: "'bool' object is not callable (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.score[0]",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.score[0]",
          message: "'int' object is not subscriptable (this always fails at run time)",
        },
      ],
    },
    {
      code: "result.tags['a']",
      errors: [
        {
          code: "EXPR-TYPE",
          at: "result.tags['a']",
          message: "list indices must be integers or slices, not str (this always fails at run time)",
        },
      ],
    },
    {
      code: "{[1]: 2}",
      errors: [
        { code: "EXPR-TYPE", at: "[1]", message: "unhashable type: 'list' (this always fails at run time)" },
      ],
    },
  ],
});

runCases("accumulate", accumulateEnv, {
  valid: [
    "result.findings",
    "[f for f in result.findings if f.severity == 'high']",
    "$.steps.s.output",
    "result.meta['x']",
    "result.tags if result.approved else None",
  ],
  invalid: [
    {
      code: "result.summary",
      errors: [
        {
          code: "EXPR-ACCUMULATE-NOT-LIST",
          at: "result.summary",
          message: "accumulate expression 'result.summary' does not evaluate to a list (it evaluates to str)",
        },
      ],
    },
    {
      code: "(f for f in result.findings)",
      errors: [{ code: "EXPR-ACCUMULATE-NOT-LIST", at: "(f for f in result.findings)" }],
    },
    {
      code: "result.status",
      errors: [
        {
          code: "EXPR-ACCUMULATE-NOT-LIST",
          at: "result.status",
          message:
            "accumulate expression 'result.status' does not evaluate to a list (it evaluates to str{'complete','failed'} | none)",
        },
      ],
    },
  ],
});
