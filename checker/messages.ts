// The expression checker's rules (docs/language.md §9.5.5), declared like every other rule through
// `defineRule`: code, severity, family, title, documentation, example and message template(s) (some
// codes have variants: `unsupported`, `mustCall`, `fixDescription`). Every EXPR-* and
// SPEC-REF-MALFORMED diagnostic is built through `MESSAGES`; codes and texts are stable.
import { strRepr } from "../stdlib/values/repr";
import { defineRule } from "./rule";

/** `<kind> expression` or, with no kind, `expression` (capitalised at the start of a message). */
function kindPrefix(kind: string | undefined, capital: boolean): string {
  if (kind !== undefined) return `${kind} expression`;
  return capital ? "Expression" : "expression";
}

const ALWAYS_FAILS = " (this always fails at run time)";
const FAILS_FROM = {
  1: " (this fails at run time whenever the iterable is not empty)",
  2: " (this fails at run time whenever the iterable has two or more elements)",
} as const;

export const MESSAGES = {
  "EXPR-SYNTAX": defineRule({
    code: "EXPR-SYNTAX",
    family: "expr-syntax",
    errorType: "ir_semantic_error",
    title: "The expression is not valid in the expression language: a Python-like subset with `$` paths.",
    severity: "error",
    message: (kind: string | undefined, expr: string, detail: string) =>
      kind === undefined
        ? `Cannot compile expression ${strRepr(expr)}: ${detail}`
        : `Cannot compile ${kind} expression ${strRepr(expr)}: ${detail}`,
    doc: "The expression is not valid in the expression language: a Python-like subset with `$` paths. The detail names the offending token, an unclosed bracket, a bad literal, or a Python construct that is not supported (lambda, f-strings, `**`, set displays, …). An expression with a syntax error gets no further checks.",
    example: {
      bad: 'ensure:\n  - "len(result.items > 0"',
      good: 'ensure:\n  - "len(result.items) > 0"',
    },
  }),
  "EXPR-TOO-LONG": defineRule({
    code: "EXPR-TOO-LONG",
    family: "expr-syntax",
    errorType: "ir_semantic_error",
    title:
      "Expressions are limited to 10,000 code points so that validation and evaluation stay fast and bounded.",
    severity: "error",
    message: (kind: string | undefined, length: number) =>
      `${kindPrefix(kind, true)} is too long (${length} characters; the limit is 10000)`,
    doc: "Expressions are limited to 10,000 code points so that validation and evaluation stay fast and bounded. Move the logic into the step (report a computed field) instead of writing it inline.",
    example: {
      bad: "ensure:  # an expression of over 10,000 characters\n  - >-\n    result.slug not in ['r0001', 'r0002',\n    'r0003', …, 'r1110']",
      good: 'ensure:\n  - "not result.slug_reserved"  # a field the step computes',
    },
  }),
  "EXPR-TOO-DEEP": defineRule({
    code: "EXPR-TOO-DEEP",
    family: "expr-syntax",
    errorType: "ir_semantic_error",
    title:
      "Brackets, calls, subscripts, displays, comprehensions, unary operators and conditional expressions may nest at most 100 levels deep.",
    severity: "error",
    message: (kind: string | undefined) =>
      `${kindPrefix(kind, true)} is nested too deeply (the limit is 100 levels)`,
    doc: "Brackets, calls, subscripts, displays, comprehensions, unary operators and conditional expressions may nest at most 100 levels deep. Chains of binary and boolean operators do not count.",
    example: {
      bad: 'ensure:\n  - "((((…(result.ok)…))))"  # 101 nested brackets',
      good: 'ensure:\n  - "result.ok"',
    },
  }),
  "EXPR-DUNDER": defineRule({
    code: "EXPR-DUNDER",
    family: "expr-name",
    errorType: "ir_semantic_error",
    title:
      "Names, attributes and keyword names containing `__` are rejected, as the reference implementation does: they are the usual way out of a Python sandbox.",
    severity: "error",
    message: (owner: string | undefined, kind: string | undefined) =>
      owner === undefined
        ? `${kindPrefix(kind, true)} must not contain dunder attributes`
        : `${owner} ${kind ?? "expression"} must not contain dunder attributes`,
    doc: "Names, attributes and keyword names containing `__` are rejected, as the reference implementation does: they are the usual way out of a Python sandbox. Strings may contain `__`.",
    example: {
      bad: "ensure:\n  - \"result.files.__class__.__name__ == 'list'\"",
      good: "ensure:\n  - \"'__init__.py' in result.files\"",
    },
  }),
  "EXPR-UNKNOWN-NAME": defineRule({
    code: "EXPR-UNKNOWN-NAME",
    family: "expr-name",
    errorType: "ir_semantic_error",
    title:
      "The name is not a comprehension variable, a name bound in this expression position (`result`, `item`, the accumulator names) or a builtin.",
    severity: "error",
    message: (name: string) => `name '${name}' is not defined`,
    doc: "The name is not a comprehension variable, a name bound in this expression position (`result`, `item`, the accumulator names) or a builtin. A close match is suggested when there is one.",
    example: {
      bad: 'ensure:\n  - "reslt.score >= 0.5"',
      good: 'ensure:\n  - "result.score >= 0.5"',
    },
    fix: "Replaces the name with the one name in scope close to it (a comprehension variable, a name bound in the position such as result, or a builtin; a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
  }),
  "EXPR-NAME-UNAVAILABLE": defineRule({
    code: "EXPR-NAME-UNAVAILABLE",
    family: "expr-name",
    errorType: "ir_semantic_error",
    title:
      "The name exists in the language but is not bound in this expression position: `result` is not bound in `skip_if` (the step has not run) nor in `accumulate_key` (which sees `item`); `item` only in `accumulate_key`; the accumulator names only in the `exit_criterion` of a step with `accumulate`.",
    severity: "error",
    message: (name: string, kind: string | undefined, reason: string) =>
      `name '${name}' is not available in ${kind === undefined ? "these" : kind} expressions (${reason})`,
    doc: "The name exists in the language but is not bound in this expression position: `result` is not bound in `skip_if` (the step has not run) nor in `accumulate_key` (which sees `item`); `item` only in `accumulate_key`; the accumulator names only in the `exit_criterion` of a step with `accumulate`. Read an earlier step's output with a `$.steps.<id>.output` path instead of `result`, use `item` only in accumulate_key, and declare accumulate on a step whose exit_criterion reads the accumulator names.",
    example: {
      bad: "skip_if: \"result.text != ''\"",
      good: "skip_if: \"$.steps.draft.output.text != ''\"",
    },
  }),
  "EXPR-UNKNOWN-FUNCTION": defineRule({
    code: "EXPR-UNKNOWN-FUNCTION",
    family: "expr-name",
    errorType: "ir_semantic_error",
    title:
      "Only the builtins of the expression language can be called (len, bool, int, float, str, min, max, any, all, sum, abs, round, sorted, file_exists, file_contains, no_file_conflicts).",
    severity: "error",
    message: (name: string) => `unknown function '${name}'`,
    unsupported: (name: string) => `function '${name}' is not supported by this implementation`,
    doc: "Only the builtins of the expression language can be called (len, bool, int, float, str, min, max, any, all, sum, abs, round, sorted, file_exists, file_contains, no_file_conflicts). The reference's extension helpers plan_completion and vocabulary_compliance are not provided.",
    example: {
      bad: 'ensure:\n  - "file_exist(result.artifact)"',
      good: 'ensure:\n  - "file_exists(result.artifact)"',
    },
    fix: "Replaces the callee with the one builtin function close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break); not offered for the reference's unsupported helpers.",
  }),
  "EXPR-ARITY": defineRule({
    code: "EXPR-ARITY",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "The call passes the wrong number of arguments or an unknown keyword argument; the message is the TypeError Python would raise.",
    severity: "error",
    message: (pythonText: string) => pythonText,
    doc: "The call passes the wrong number of arguments or an unknown keyword argument; the message is the TypeError Python would raise. Parameters are positional only except the documented keywords (default of min/max, reverse of sorted, start of sum, ndigits of round, sep/maxsplit of str.split).",
    example: {
      bad: 'ensure:\n  - "len(result.tags, 1) > 0"',
      good: 'ensure:\n  - "len(result.tags) > 0"',
    },
  }),
  "EXPR-UNKNOWN-FIELD": defineRule({
    code: "EXPR-UNKNOWN-FIELD",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title: "The expression reads a field (`.f`, `['f']` or `.get('f')`) that the contract does not declare.",
    severity: "error",
    message: (contract: string, field: string) => `contract '${contract}' has no field '${field}'`,
    doc: "The expression reads a field (`.f`, `['f']` or `.get('f')`) that the contract does not declare. Results may carry extra keys at run time, but reading an undeclared field is reported so that typos are caught; declare the field in the contract (or in the step's output_schema).",
    example: {
      bad: 'ensure:\n  - "result.confidnce > 0.7"',
      good: 'ensure:\n  - "result.confidence > 0.7"',
    },
    fix: "Replaces the field name with the one field of the contract close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
  }),
  "EXPR-UNKNOWN-METHOD": defineRule({
    code: "EXPR-UNKNOWN-METHOD",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title: "The value has no such method.",
    severity: "error",
    message: (typeName: string, name: string) => `'${typeName}' object has no attribute '${name}'`,
    doc: "The value has no such method. Strings, lists, tuples and dicts have the methods listed in the language reference; other kinds have none.",
    example: {
      bad: "ensure:\n  - \"result.title.uper() != ''\"",
      good: "ensure:\n  - \"result.title.upper() != ''\"",
    },
    fix: "Replaces the method name with the one method of the value's type close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the name is written literally in the scalar (no escape or folded line break).",
  }),
  "EXPR-TYPE": defineRule({
    code: "EXPR-TYPE",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "The operation raises a TypeError (or AttributeError) for every value its operands can have, according to their types: ordering a string against a number, len() of a number, concatenating str and int, subscripting a number, iterating a number, calling a non-method value.",
    severity: "error",
    message: (pythonText: string, failsFrom?: 1 | 2) =>
      `${pythonText}${failsFrom === undefined ? ALWAYS_FAILS : FAILS_FROM[failsFrom]}`,
    mustCall: (name: string) => `builtin function '${name}' must be called${ALWAYS_FAILS}`,
    doc: "The operation raises a TypeError (or AttributeError) for every value its operands can have, according to their types: ordering a string against a number, len() of a number, concatenating str and int, subscripting a number, iterating a number, calling a non-method value. Operands of unknown type (`any`), and unions with at least one working member, are never reported.",
    example: {
      bad: 'ensure:\n  - "len(result.score) > 0"  # score: {type: number}',
      good: 'ensure:\n  - "result.score > 0"',
    },
  }),
  "EXPR-ENUM-VALUE": defineRule({
    code: "EXPR-ENUM-VALUE",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "The field is an enumeration (its contract lists `values`), and the literal it is compared with (`==`, `!=`, or an element of an `in` display) is not one of them, so the comparison has a constant outcome.",
    severity: "error",
    message: (valueRepr: string, field: string, allowedRepr: string) =>
      `${valueRepr} is not an allowed value of field '${field}' (allowed: ${allowedRepr})`,
    doc: "The field is an enumeration (its contract lists `values`), and the literal it is compared with (`==`, `!=`, or an element of an `in` display) is not one of them, so the comparison has a constant outcome. Usually a typo in the literal.",
    example: {
      bad: "ensure:\n  - \"result.decision != 'aproved'\"  # values: [approved, rejected]",
      good: "ensure:\n  - \"result.decision != 'approved'\"",
    },
  }),
  "EXPR-ACCUMULATE-NOT-LIST": defineRule({
    code: "EXPR-ACCUMULATE-NOT-LIST",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "An accumulate expression must produce the list of items found by the iteration; its static type has no list member.",
    severity: "error",
    message: (expr: string, type: string) =>
      `accumulate expression ${strRepr(expr)} does not evaluate to a list (it evaluates to ${type})`,
    doc: "An accumulate expression must produce the list of items found by the iteration; its static type has no list member. Point it at a list field of the result (`result.findings`), build a list with a comprehension, or wrap a single value in a list display (`[result.finding]`).",
    example: {
      bad: 'max_iterations: 5\naccumulate: "result.found"  # found: {type: integer}',
      good: 'max_iterations: 5\naccumulate: "result.findings"  # findings: {type: array}',
    },
  }),
  "EXPR-COMPARISON-CONSTANT": defineRule({
    code: "EXPR-COMPARISON-CONSTANT",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "Both operands have fully known types that can never be equal (for example a string and a number, or the namespace `result` and a dict display), so the comparison has a constant result.",
    severity: "warning",
    message: (op: "==" | "!=", left: string, right: string) =>
      `comparison is always ${op === "==" ? "False" : "True"}: ${left} and ${right} values are never equal`,
    doc: "Both operands have fully known types that can never be equal (for example a string and a number, or the namespace `result` and a dict display), so the comparison has a constant result. In an ensure or exit_criterion that means a check that always passes or never does. Usually the literal has the wrong type (`result.count == '0'`); compare values of the same kind, converting with int() or str() where needed.",
    example: {
      bad: 'ensure:\n  - "result.status != 0"  # status: {type: string}',
      good: "ensure:\n  - \"result.status != 'failed'\"",
    },
  }),
  "EXPR-METHOD-NOT-CALLED": defineRule({
    code: "EXPR-METHOD-NOT-CALLED",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "A method is read but not called (`result.name.lower` instead of `result.name.lower()`); a bound method is always truthy and equals only itself.",
    severity: "warning",
    message: (typeName: string, name: string) => `method '${typeName}.${name}' is used without being called`,
    doc: "A method is read but not called (`result.name.lower` instead of `result.name.lower()`); a bound method is always truthy and equals only itself. Add the parentheses to call the method.",
    example: {
      bad: 'ensure:\n  - "result.name.strip"',
      good: 'ensure:\n  - "result.name.strip()"',
    },
  }),
  "EXPR-IS-LITERAL": defineRule({
    code: "EXPR-IS-LITERAL",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title:
      "`is` compares identity; with a number or string literal the result depends on object identity, not value.",
    severity: "warning",
    message: (op: "is" | "is not") =>
      op === "is" ? `"is" with a literal. Did you mean "=="?` : `"is not" with a literal. Did you mean "!="?`,
    fixDescription: (op: "is" | "is not") =>
      op === "is" ? "Replace 'is' with '=='" : "Replace 'is not' with '!='",
    doc: "`is` compares identity; with a number or string literal the result depends on object identity, not value. Use `==` (or `!=`). `is None`, `is True` and `is False` are fine.",
    example: {
      bad: "ensure:\n  - \"result.status is 'ok'\"",
      good: "ensure:\n  - \"result.status == 'ok'\"",
    },
    fix: "Replaces the operator `is` with `==` (and `is not` with `!=`), when the operator is written literally in the scalar (no escape or folded line break).",
  }),
  "EXPR-LOWERCASE-LITERAL": defineRule({
    code: "EXPR-LOWERCASE-LITERAL",
    family: "expr-type",
    errorType: "ir_semantic_error",
    title: "Lowercase true, false or null is not portable to the reference implementation.",
    severity: "warning",
    message: (word: string, canonical: string, kind: string | undefined) =>
      `'${word}' is not portable in ${kind ?? "these"} expressions: stratum-mcp 0.2.50 raises "name '${word}' is not defined" on every run; write '${canonical}'`,
    fixDescription: (word: string, canonical: string) => `Replace '${word}' with '${canonical}'`,
    doc: "Lowercase true, false or null is not portable to the reference implementation. This implementation reads them as True, False and None in every expression, but stratum-mcp 0.2.50 knows the lowercase words only in skip_if: in ensure, exit_criterion, accumulate and accumulate_key it raises NameError, so a shared spec fails every run there (an ensure becomes a violation, an exit_criterion never ends the loop). Write Python's True, False and None; the fix replaces the word.",
    example: {
      bad: 'ensure:\n  - "result.ok == true"',
      good: 'ensure:\n  - "result.ok == True"',
    },
    fix: "Replaces the lowercase word with Python's spelling (true with True, false with False, null with None), when the word is written literally in the scalar (no escape or folded line break); offered in every position but skip_if.",
  }),
  "SPEC-REF-MALFORMED": defineRule({
    code: "SPEC-REF-MALFORMED",
    family: "reference",
    errorType: "ir_semantic_error",
    title:
      "A `$` reference must have the form `$.input.<name>[.<field>\u2026]` or `$.steps.<id>.output[.<field>\u2026]`.",
    severity: "error",
    message: (ref: string) => malformedReferenceMessage(ref),
    doc: "A `$` reference must have the form `$.input.<name>[.<field>…]` or `$.steps.<id>.output[.<field>…]`. The message names what is missing: a name after `$.input`, the `output` segment after the step id, or a known prefix (`input`, `steps`). A step input value that starts with `$` is always read as a reference, so a literal text must not start with `$` (`$5 budget`).",
    example: {
      bad: 'inputs: {outline: "$.steps.outline"}',
      good: 'inputs: {outline: "$.steps.outline.output"}',
    },
  }),
} as const;

export type MessageCode = keyof typeof MESSAGES;

/** The reference implementation's resolution message for a malformed `$` reference (docs/language.md §9.5.5). */
export function malformedReferenceMessage(ref: string): string {
  const rest = ref.slice(2);
  if (rest === "") return `Empty $ reference: ${strRepr(ref)}`;
  const parts = rest.split(".");
  const head = parts[0] ?? "";
  if (head === "input" && ref.startsWith("$.")) return `$.input requires a field name: ${strRepr(ref)}`;
  if (head === "steps" && ref.startsWith("$.")) {
    if (parts.length < 3 || parts[1] === "") return `$.steps requires $.steps.<id>.output: ${strRepr(ref)}`;
    return `Expected '$.steps.<id>.output[.<field>]', got ${strRepr(ref)}`;
  }
  return `Unknown $ prefix '${head}' in ${strRepr(ref)}`;
}

/** Did-you-mean suggestion text (docs/language.md §9.1). */
export function didYouMean(candidate: string): string {
  return `Did you mean '${candidate}'?`;
}

export function renameFix(from: string, to: string): string {
  return `Replace '${from}' with '${to}'`;
}
