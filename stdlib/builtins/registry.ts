// The builtin functions of the expression language (docs/reference/language.md §10.9): one entry per builtin
// with its display signature, hover doc, purity, parameters, implementation and typing rule.
import { builtinTypeRules } from "../types/builtin-rules";
import type { BuiltinTypeRule } from "../types/rule";
import { ANY } from "../types/type";
import type { PyValue } from "../values/value";
import { minMax, pyAll, pyAny, pySorted, pySum } from "./aggregates";
import { bindArguments, type ParamSpec } from "./arity";
import { pyAbs, pyBool, pyFloat, pyInt, pyLen, pyRound, pyStr } from "./conversions";
import type { EvalEnv } from "./env";
import { fileContains, fileExists } from "./file-builtins";
import { noFileConflicts } from "./no-file-conflicts";
import { planCompletion } from "./plan-completion";
import { vocabularyCompliance } from "./vocabulary-compliance";

type Kwargs = ReadonlyMap<string, PyValue> | null;

export interface BuiltinSpec {
  readonly name: string;
  /** Display signature, e.g. "len(x, /) -> int". */
  readonly signature: string;
  /** One or two sentences, used for hover. */
  readonly doc: string;
  readonly purity: "pure" | "reads-files";
  readonly params: ParamSpec;
  /** Runs the builtin; the call shape has already passed `arityError`. */
  impl(args: readonly PyValue[], kwargs: Kwargs, env: EvalEnv): PyValue;
  readonly typeRule: BuiltinTypeRule;
}

/** Looked up at call time: the rule table lives in stdlib/types and may load after this module. */
function ruleFor(name: string): BuiltinTypeRule {
  return (args, keywords) => {
    const rule = builtinTypeRules[name];
    return rule ? rule(args, keywords) : { ok: true, type: ANY };
  };
}

type Entry = Omit<BuiltinSpec, "typeRule" | "impl" | "purity"> & {
  readonly purity?: BuiltinSpec["purity"];
  /** Receives one slot per parameter (positional, then keyword-only), undefined when absent. */
  readonly run: (slots: readonly (PyValue | undefined)[], env: EvalEnv, args: readonly PyValue[]) => PyValue;
};

const ONE_ARG: ParamSpec = { positional: ["x"], required: 1 };
const OPTIONAL_ARG: ParamSpec = { positional: ["x"], required: 0 };
const ITERABLE: ParamSpec = { positional: ["iterable"], required: 1 };
const MIN_MAX: ParamSpec = { positional: ["iterable"], required: 1, varargs: true, keywordOnly: ["default"] };

const ENTRIES: readonly Entry[] = [
  {
    name: "len",
    signature: "len(x, /) -> int",
    doc: "Number of code points of a string, or of elements of a list, tuple, dict, namespace or view.",
    params: ONE_ARG,
    run: ([x]) => pyLen(x as PyValue),
  },
  {
    name: "bool",
    signature: "bool(x=False, /) -> bool",
    doc: "The truthiness of x: False for None, False, zero, empty strings and empty containers.",
    params: OPTIONAL_ARG,
    run: ([x]) => pyBool(x),
  },
  {
    name: "int",
    signature: "int(x=0, /) -> int",
    doc: "Converts a number (truncating floats toward zero) or a decimal string to an int.",
    params: OPTIONAL_ARG,
    run: ([x]) => pyInt(x),
  },
  {
    name: "float",
    signature: "float(x=0.0, /) -> float",
    doc: "Converts a number or a string such as '1.5', '1e3', 'inf' or 'nan' to a float.",
    params: OPTIONAL_ARG,
    run: ([x]) => pyFloat(x),
  },
  {
    name: "str",
    signature: "str(x='', /) -> str",
    doc: "The text of x: a string itself, otherwise its Python repr (1.0, [1, 'a'], None).",
    params: OPTIONAL_ARG,
    run: ([x], env) => pyStr(x, env),
  },
  {
    name: "min",
    signature: "min(iterable, /, *, default) | min(a, b, /, *args)",
    doc: "The smallest element of an iterable (or `default` when it is empty), or the smallest of several arguments; ties keep the first.",
    params: MIN_MAX,
    run: (slots, env, args) => minMax("min", args, slots[1], env),
  },
  {
    name: "max",
    signature: "max(iterable, /, *, default) | max(a, b, /, *args)",
    doc: "The largest element of an iterable (or `default` when it is empty), or the largest of several arguments; ties keep the first.",
    params: MIN_MAX,
    run: (slots, env, args) => minMax("max", args, slots[1], env),
  },
  {
    name: "any",
    signature: "any(iterable, /) -> bool",
    doc: "True if some element is truthy; stops at the first one.",
    params: ITERABLE,
    run: ([it], env) => pyAny(it as PyValue, env),
  },
  {
    name: "all",
    signature: "all(iterable, /) -> bool",
    doc: "True if every element is truthy (True for an empty iterable); stops at the first falsy one.",
    params: ITERABLE,
    run: ([it], env) => pyAll(it as PyValue, env),
  },
  {
    name: "sum",
    signature: "sum(iterable, /, start=0)",
    doc: "start + the elements, added left to right with `+` (numbers, or lists/tuples to concatenate; not strings).",
    params: { positional: ["iterable", "start"], required: 1, positionalKeywords: ["start"] },
    run: ([it, start], env) => pySum(it as PyValue, start, env),
  },
  {
    name: "abs",
    signature: "abs(x, /)",
    doc: "The absolute value of a number (booleans give ints).",
    params: ONE_ARG,
    run: ([x]) => pyAbs(x as PyValue),
  },
  {
    name: "round",
    signature: "round(x, /, ndigits=None)",
    doc: "x rounded half to even: an int without ndigits, else a value of x's type rounded to ndigits decimals (on the float's exact binary value).",
    params: { positional: ["x", "ndigits"], required: 1, positionalKeywords: ["ndigits"] },
    run: ([x, ndigits]) => pyRound(x as PyValue, ndigits),
  },
  {
    name: "sorted",
    signature: "sorted(iterable, /, *, reverse=False) -> list",
    doc: "A new list of the elements in ascending order (descending with reverse=True); stable.",
    params: { positional: ["iterable"], required: 1, keywordOnly: ["reverse"] },
    run: ([it, reverse], env) => pySorted(it as PyValue, reverse, env),
  },
  {
    name: "file_exists",
    signature: "file_exists(path, /) -> bool",
    doc: "True if path names an existing regular file inside the flow's working root.",
    purity: "reads-files",
    params: { positional: ["path"], required: 1 },
    run: ([path], env) => fileExists(path as PyValue, env),
  },
  {
    name: "file_contains",
    signature: "file_contains(path, needle, /) -> bool",
    doc: "True if path is a regular file inside the working root, at most 10 MiB, whose UTF-8 text contains needle.",
    purity: "reads-files",
    params: { positional: ["path", "needle"], required: 2 },
    run: ([path, needle], env) => fileContains(path as PyValue, needle as PyValue, env),
  },
  {
    name: "no_file_conflicts",
    signature: "no_file_conflicts(tasks) -> bool",
    doc: "True when no two independent tasks (neither reaches the other through depends_on, transitively) share an entry of files_owned; otherwise raises ValueError naming the first such pair and their shared files. files_read is never compared.",
    params: { positional: ["tasks"], required: 1, positionalKeywords: ["tasks"] },
    run: ([tasks], env) => noFileConflicts(tasks as PyValue, env),
  },
  {
    name: "plan_completion",
    signature: "plan_completion(plan_items, files_changed, threshold=90) -> bool",
    doc: "True when every critical plan item's `file` is among files_changed and the share of done items (an item without `file` counts as done) reaches threshold percent; otherwise raises ValueError listing the missing items.",
    params: {
      positional: ["plan_items", "files_changed", "threshold"],
      required: 2,
      positionalKeywords: ["plan_items", "files_changed", "threshold"],
    },
    run: ([items, files, threshold], env) =>
      planCompletion(items as PyValue, files as PyValue, threshold, env),
  },
  {
    name: "vocabulary_compliance",
    signature: "vocabulary_compliance(path, files_changed, git_fallback=False, base='HEAD') -> bool",
    doc: "True when no changed file uses, as a whole word, an alias that the vocabulary file at path rejects (no file, or an empty one: True); otherwise raises ValueError with one violation per match naming the file, line, alias and canonical name.",
    purity: "reads-files",
    params: {
      positional: ["path", "files_changed", "git_fallback", "base"],
      required: 2,
      positionalKeywords: ["path", "files_changed", "git_fallback", "base"],
    },
    run: ([path, files], env) => vocabularyCompliance(path as PyValue, files as PyValue, env),
  },
];

function toSpec(entry: Entry): BuiltinSpec {
  const { run, purity, ...rest } = entry;
  return {
    ...rest,
    purity: purity ?? "pure",
    impl: (args, kwargs, env) => run(bindArguments(entry.params, args, kwargs), env, args),
    typeRule: ruleFor(entry.name),
  };
}

export const BUILTINS: ReadonlyMap<string, BuiltinSpec> = new Map(ENTRIES.map((e) => [e.name, toSpec(e)]));
