import { ensureEnv } from "./fixtures";
import { runCases } from "./tester";

runCases("fields, enumerations and warnings (ensure)", ensureEnv, {
  valid: [
    "result.level == 2",
    "result.level in [1, 3]",
    "result.status in ('complete', 'failed')",
    "result.findings[0].severity != 'low'",
    "'low' == result.findings[0].severity",
    "result.status is None",
    "result.approved == True",
  ],
  invalid: [
    {
      code: "result.sumary != ''",
      errors: [
        {
          code: "EXPR-UNKNOWN-FIELD",
          at: "sumary",
          message: "contract 'Review' has no field 'sumary'",
          suggestion: "Did you mean 'summary'?",
          fixText: "result.summary != ''",
        },
      ],
    },
    {
      code: "result['sumary']",
      errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "'sumary'", suggestion: "Did you mean 'summary'?" }],
    },
    {
      code: "result.get('sumary')",
      errors: [
        { code: "EXPR-UNKNOWN-FIELD", at: "'sumary'", message: "contract 'Review' has no field 'sumary'" },
      ],
    },
    {
      code: "result.findings[0].severty",
      errors: [
        {
          code: "EXPR-UNKNOWN-FIELD",
          at: "severty",
          message: "contract 'Finding' has no field 'severty'",
          suggestion: "Did you mean 'severity'?",
        },
      ],
    },
    { code: "result.parent.nope", errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "nope", suggestion: null }] },
    {
      code: "result.findings[0].get('fle')",
      errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "'fle'", message: "contract 'Finding' has no field 'fle'" }],
    },
    { code: "result.a.b.c", errors: [{ code: "EXPR-UNKNOWN-FIELD", at: "a", from: 7 }] },
    {
      code: "result.findings[0].severity == 'critical'",
      errors: [
        {
          code: "EXPR-ENUM-VALUE",
          at: "'critical'",
          message:
            "'critical' is not an allowed value of field 'severity' (allowed: ['low', 'medium', 'high'])",
        },
      ],
    },
    {
      code: "'critical' != result.findings[0].severity",
      errors: [{ code: "EXPR-ENUM-VALUE", at: "'critical'" }],
    },
    {
      code: "result.status == 'done'",
      errors: [
        {
          code: "EXPR-ENUM-VALUE",
          at: "'done'",
          message: "'done' is not an allowed value of field 'status' (allowed: ['complete', 'failed'])",
        },
      ],
    },
    { code: "result.get('status') == 'done'", errors: [{ code: "EXPR-ENUM-VALUE", at: "'done'" }] },
    { code: "result['status'] == 'done'", errors: [{ code: "EXPR-ENUM-VALUE", at: "'done'" }] },
    {
      code: "result.status in ['complete', 'skipped', 'x']",
      errors: [
        { code: "EXPR-ENUM-VALUE", at: "'skipped'" },
        { code: "EXPR-ENUM-VALUE", at: "'x'" },
      ],
    },
    { code: "result.status not in ('complet',)", errors: [{ code: "EXPR-ENUM-VALUE", at: "'complet'" }] },
    {
      code: "result.level == 4",
      errors: [
        {
          code: "EXPR-ENUM-VALUE",
          at: "4",
          message: "4 is not an allowed value of field 'level' (allowed: [1, 2, 3])",
        },
      ],
    },
    {
      code: "result.summary == 1",
      errors: [
        {
          code: "EXPR-COMPARISON-CONSTANT",
          at: "result.summary == 1",
          message: "comparison is always False: str and int values are never equal",
        },
      ],
    },
    {
      code: "result.tags != (1,)",
      errors: [
        {
          code: "EXPR-COMPARISON-CONSTANT",
          at: "result.tags != (1,)",
          message: "comparison is always True: list[str] and tuple[int] values are never equal",
        },
      ],
    },
    {
      code: "result == {'summary': 'x'}",
      errors: [{ code: "EXPR-COMPARISON-CONSTANT", at: "result == {'summary': 'x'}" }],
    },
    {
      code: "result.findings[0].severity == 3",
      errors: [{ code: "EXPR-COMPARISON-CONSTANT", at: "result.findings[0].severity == 3" }],
    },
    {
      code: "result.summary.upper",
      errors: [
        {
          code: "EXPR-METHOD-NOT-CALLED",
          at: "upper",
          message: "method 'str.upper' is used without being called",
        },
      ],
    },
    {
      code: "result.summary.upper == 'X'",
      errors: [
        { code: "EXPR-METHOD-NOT-CALLED", at: "upper" },
        { code: "EXPR-COMPARISON-CONSTANT", at: "result.summary.upper == 'X'" },
      ],
    },
    {
      code: "result.summary is 'x'",
      errors: [
        {
          code: "EXPR-IS-LITERAL",
          at: "is",
          message: `"is" with a literal. Did you mean "=="?`,
          fixText: "result.summary == 'x'",
        },
      ],
    },
    {
      code: "1 is not result.score",
      errors: [
        {
          code: "EXPR-IS-LITERAL",
          at: "is not",
          message: `"is not" with a literal. Did you mean "!="?`,
          fixText: "1 != result.score",
        },
      ],
    },
    {
      code: "$.steps.review.output.summary > 1",
      errors: [{ code: "EXPR-TYPE", at: "$.steps.review.output.summary > 1" }],
    },
  ],
});
