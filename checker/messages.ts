// The one catalogue of expression diagnostics (docs/language.md §9.5.5): for every code its severity,
// its message template(s) and a short explanation (for `stratumc explain`). Every EXPR-* and
// SPEC-REF-MALFORMED diagnostic is built through `MESSAGES`; codes and texts are stable.
import { strRepr } from "../stdlib/values/repr";

export type Severity = "error" | "warning";

interface Entry {
  readonly severity: Severity;
  readonly doc: string;
  /** The message template; some codes have extra variants (`unsupported`, `mustCall`, `fix`). */
  readonly message: (...args: never[]) => string;
  readonly [variant: string]: unknown;
}

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
  "EXPR-SYNTAX": {
    severity: "error",
    message: (kind: string | undefined, expr: string, detail: string) =>
      kind === undefined
        ? `Cannot compile expression ${strRepr(expr)}: ${detail}`
        : `Cannot compile ${kind} expression ${strRepr(expr)}: ${detail}`,
    doc: "The expression is not valid in the expression language: a Python-like subset with `$` paths. The detail names the offending token, an unclosed bracket, a bad literal, or a Python construct that is not supported (lambda, f-strings, `**`, set displays, …). An expression with a syntax error gets no further checks.",
  },
  "EXPR-TOO-LONG": {
    severity: "error",
    message: (kind: string | undefined, length: number) =>
      `${kindPrefix(kind, true)} is too long (${length} characters; the limit is 10000)`,
    doc: "Expressions are limited to 10,000 code points so that validation and evaluation stay fast and bounded. Move the logic into the step (report a computed field) instead of writing it inline.",
  },
  "EXPR-TOO-DEEP": {
    severity: "error",
    message: (kind: string | undefined) =>
      `${kindPrefix(kind, true)} is nested too deeply (the limit is 100 levels)`,
    doc: "Brackets, calls, subscripts, displays, comprehensions, unary operators and conditional expressions may nest at most 100 levels deep. Chains of binary and boolean operators do not count.",
  },
  "EXPR-DUNDER": {
    severity: "error",
    message: (owner: string | undefined, kind: string | undefined) =>
      owner === undefined
        ? `${kindPrefix(kind, true)} must not contain dunder attributes`
        : `${owner} ${kind ?? "expression"} must not contain dunder attributes`,
    doc: "Names, attributes and keyword names containing `__` are rejected, as the reference implementation does: they are the usual way out of a Python sandbox. Strings may contain `__`.",
  },
  "EXPR-UNKNOWN-NAME": {
    severity: "error",
    message: (name: string) => `name '${name}' is not defined`,
    doc: "The name is not a comprehension variable, a name bound in this expression position (`result`, `item`, the accumulator names) or a builtin. A close match is suggested when there is one.",
  },
  "EXPR-NAME-UNAVAILABLE": {
    severity: "error",
    message: (name: string, kind: string | undefined, reason: string) =>
      `name '${name}' is not available in ${kind === undefined ? "these" : kind} expressions (${reason})`,
    doc: "The name exists in the language but is not bound in this expression position: `result` is not bound in `skip_if` (the step has not run) nor in `accumulate_key` (which sees `item`); `item` only in `accumulate_key`; the accumulator names only in the `exit_criterion` of a step with `accumulate`.",
  },
  "EXPR-UNKNOWN-FUNCTION": {
    severity: "error",
    message: (name: string) => `unknown function '${name}'`,
    unsupported: (name: string) => `function '${name}' is not supported by this implementation`,
    doc: "Only the builtins of the expression language can be called (len, bool, int, float, str, min, max, any, all, sum, abs, round, sorted, file_exists, file_contains). The reference's extension helpers no_file_conflicts, plan_completion and vocabulary_compliance are not provided.",
  },
  "EXPR-ARITY": {
    severity: "error",
    message: (pythonText: string) => pythonText,
    doc: "The call passes the wrong number of arguments or an unknown keyword argument; the message is the TypeError Python would raise. Parameters are positional only except the documented keywords (default of min/max, reverse of sorted, start of sum, ndigits of round, sep/maxsplit of str.split).",
  },
  "EXPR-UNKNOWN-FIELD": {
    severity: "error",
    message: (contract: string, field: string) => `contract '${contract}' has no field '${field}'`,
    doc: "The expression reads a field (`.f`, `['f']` or `.get('f')`) that the contract does not declare. Results may carry extra keys at run time, but reading an undeclared field is reported so that typos are caught; declare the field in the contract (or in the step's output_schema).",
  },
  "EXPR-UNKNOWN-METHOD": {
    severity: "error",
    message: (typeName: string, name: string) => `'${typeName}' object has no attribute '${name}'`,
    doc: "The value has no such method. Strings, lists, tuples and dicts have the methods listed in the language reference; other kinds have none.",
  },
  "EXPR-TYPE": {
    severity: "error",
    message: (pythonText: string, failsFrom?: 1 | 2) =>
      `${pythonText}${failsFrom === undefined ? ALWAYS_FAILS : FAILS_FROM[failsFrom]}`,
    mustCall: (name: string) => `builtin function '${name}' must be called${ALWAYS_FAILS}`,
    doc: "The operation raises a TypeError (or AttributeError) for every value its operands can have, according to their types: ordering a string against a number, len() of a number, concatenating str and int, subscripting a number, iterating a number, calling a non-method value. Operands of unknown type (`any`), and unions with at least one working member, are never reported.",
  },
  "EXPR-ENUM-VALUE": {
    severity: "error",
    message: (valueRepr: string, field: string, allowedRepr: string) =>
      `${valueRepr} is not an allowed value of field '${field}' (allowed: ${allowedRepr})`,
    doc: "The field is an enumeration (its contract lists `values`), and the literal it is compared with (`==`, `!=`, or an element of an `in` display) is not one of them, so the comparison has a constant outcome. Usually a typo in the literal.",
  },
  "EXPR-ACCUMULATE-NOT-LIST": {
    severity: "error",
    message: (expr: string, type: string) =>
      `accumulate expression ${strRepr(expr)} does not evaluate to a list (it evaluates to ${type})`,
    doc: "An accumulate expression must produce the list of items found by the iteration; its static type has no list member.",
  },
  "EXPR-COMPARISON-CONSTANT": {
    severity: "warning",
    message: (op: "==" | "!=", left: string, right: string) =>
      `comparison is always ${op === "==" ? "False" : "True"}: ${left} and ${right} values are never equal`,
    doc: "Both operands have fully known types that can never be equal (for example a string and a number, or the namespace `result` and a dict display), so the comparison has a constant result.",
  },
  "EXPR-METHOD-NOT-CALLED": {
    severity: "warning",
    message: (typeName: string, name: string) => `method '${typeName}.${name}' is used without being called`,
    doc: "A method is read but not called (`result.name.lower` instead of `result.name.lower()`); a bound method is always truthy and equals only itself.",
  },
  "EXPR-IS-LITERAL": {
    severity: "warning",
    message: (op: "is" | "is not") =>
      op === "is" ? `"is" with a literal. Did you mean "=="?` : `"is not" with a literal. Did you mean "!="?`,
    fix: (op: "is" | "is not") => (op === "is" ? "Replace 'is' with '=='" : "Replace 'is not' with '!='"),
    doc: "`is` compares identity; with a number or string literal the result depends on object identity, not value. Use `==` (or `!=`). `is None`, `is True` and `is False` are fine.",
  },
  "EXPR-LOWERCASE-LITERAL": {
    severity: "warning",
    message: (word: string, canonical: string, kind: string | undefined) =>
      `'${word}' is not portable in ${kind ?? "these"} expressions: stratum-mcp 0.2.50 raises "name '${word}' is not defined" on every run; write '${canonical}'`,
    fix: (word: string, canonical: string) => `Replace '${word}' with '${canonical}'`,
    doc: "Lowercase true, false or null is not portable to the reference implementation. This implementation reads them as True, False and None in every expression, but stratum-mcp 0.2.50 knows the lowercase words only in skip_if: in ensure, exit_criterion, accumulate and accumulate_key it raises NameError, so a shared spec fails every run there (an ensure becomes a violation, an exit_criterion never ends the loop). Write Python's True, False and None; the fix replaces the word.",
    example: {
      bad: 'ensure:\n  - "result.ok == true"',
      good: 'ensure:\n  - "result.ok == True"',
    },
  },
  "SPEC-REF-MALFORMED": {
    severity: "error",
    message: (ref: string) => malformedReferenceMessage(ref),
    doc: "A `$` reference must have the form `$.input.<name>[.<field>…]` or `$.steps.<id>.output[.<field>…]`.",
  },
} as const satisfies Record<string, Entry>;

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

export function severityOf(code: MessageCode): Severity {
  return MESSAGES[code].severity;
}

/** Did-you-mean suggestion text (docs/language.md §9.1). */
export function didYouMean(candidate: string): string {
  return `Did you mean '${candidate}'?`;
}

export function renameFix(from: string, to: string): string {
  return `Replace '${from}' with '${to}'`;
}
