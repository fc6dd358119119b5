// The methods of str, list, tuple and dict/namespace (docs/reference/language.md §10.10): one entry per method
// with its display signature, hover doc, parameters, implementation and typing rule.
import { methodTypeRules } from "../types/method-rules";
import type { MethodTypeRule } from "../types/rule";
import { ANY } from "../types/type";
import { PyTuple, type PyValue } from "../values/value";
import { bindArguments, type ParamSpec } from "./arity";
import { dictGetMethod, dictView, sequenceCount, sequenceIndex } from "./container-methods";
import type { EvalEnv } from "./env";
import { strCount, strFind, strStartsOrEndsWith } from "./str-search";
import { strCase, strIs, strJoin, strReplace, strSplit, strStrip } from "./str-transform";

type Kwargs = ReadonlyMap<string, PyValue> | null;

export type MethodReceiver = "str" | "list" | "tuple" | "dict";

export interface MethodSpec {
  /** "dict" also covers the namespace bound to `result` / `item`. */
  readonly receiver: MethodReceiver;
  readonly name: string;
  /** Display signature, e.g. "str.split(sep=None, maxsplit=-1) -> list[str]". */
  readonly signature: string;
  /** One or two sentences, used for hover. */
  readonly doc: string;
  readonly params: ParamSpec;
  /** Runs the method on `self` (of the receiver's type); the call shape has passed `arityError`. */
  impl(self: PyValue, args: readonly PyValue[], kwargs: Kwargs, env: EvalEnv): PyValue;
  readonly typeRule: MethodTypeRule;
}

type Slots = readonly (PyValue | undefined)[];
type Entry = Omit<MethodSpec, "typeRule" | "impl"> & {
  readonly run: (self: PyValue, slots: Slots, env: EvalEnv) => PyValue;
};

const NONE: ParamSpec = { positional: [], required: 0 };
const SEARCH: ParamSpec = { positional: ["sub", "start", "end"], required: 1 };
const STRIP: ParamSpec = { positional: ["chars"], required: 0 };

/** Sequence items of a list or tuple receiver. */
function items(self: PyValue): readonly PyValue[] {
  return self instanceof PyTuple ? self.items : (self as readonly PyValue[]);
}

const s = (self: PyValue): string => self as string;

const STR_ENTRIES: readonly Entry[] = [
  ...(["startswith", "endswith"] as const).map(
    (name): Entry => ({
      receiver: "str",
      name,
      signature: `str.${name}(${name === "startswith" ? "prefix" : "suffix"}, start=None, end=None, /) -> bool`,
      doc: `True if the string (or its slice [start:end]) ${name === "startswith" ? "starts" : "ends"} with the given string, or with one of a tuple of strings.`,
      params: { positional: ["prefix", "start", "end"], required: 1 },
      run: (self, [p, a, b], env) => strStartsOrEndsWith(name, s(self), p as PyValue, a, b, env),
    }),
  ),
  ...(["lower", "upper"] as const).map(
    (name): Entry => ({
      receiver: "str",
      name,
      signature: `str.${name}() -> str`,
      doc: `The string converted to ${name}case with full Unicode case mapping${name === "upper" ? " ('ß' → 'SS')" : ""}.`,
      params: NONE,
      run: (self, _slots, env) => strCase(name, s(self), env),
    }),
  ),
  ...(["strip", "lstrip", "rstrip"] as const).map(
    (name): Entry => ({
      receiver: "str",
      name,
      signature: `str.${name}(chars=None, /) -> str`,
      doc: `The string with ${name === "strip" ? "leading and trailing" : name === "lstrip" ? "leading" : "trailing"} characters in chars removed (Unicode whitespace when chars is None).`,
      params: STRIP,
      run: (self, [chars], env) => strStrip(name, s(self), chars, env),
    }),
  ),
  {
    receiver: "str",
    name: "split",
    signature: "str.split(sep=None, maxsplit=-1) -> list[str]",
    doc: "The parts between occurrences of sep (at most maxsplit splits); without sep, splits on runs of whitespace and drops empty parts.",
    params: { positional: ["sep", "maxsplit"], required: 0, positionalKeywords: ["sep", "maxsplit"] },
    run: (self, [sep, maxsplit], env) => strSplit(s(self), sep, maxsplit, env),
  },
  {
    receiver: "str",
    name: "join",
    signature: "str.join(iterable, /) -> str",
    doc: "The strings of the iterable concatenated with this string between them.",
    params: { positional: ["iterable"], required: 1 },
    run: (self, [it], env) => strJoin(s(self), it as PyValue, env),
  },
  {
    receiver: "str",
    name: "replace",
    signature: "str.replace(old, new, count=-1, /) -> str",
    doc: "A copy with occurrences of old replaced by new, left to right and non-overlapping (at most count when count ≥ 0).",
    params: { positional: ["old", "new", "count"], required: 2 },
    run: (self, [o, n, c], env) => strReplace(s(self), o as PyValue, n as PyValue, c, env),
  },
  {
    receiver: "str",
    name: "count",
    signature: "str.count(sub, start=None, end=None, /) -> int",
    doc: "The number of non-overlapping occurrences of sub in the string (or its slice [start:end]).",
    params: SEARCH,
    run: (self, [sub, a, b], env) => strCount(s(self), sub as PyValue, a, b, env),
  },
  {
    receiver: "str",
    name: "find",
    signature: "str.find(sub, start=None, end=None, /) -> int",
    doc: "The lowest index where sub occurs in the string (or its slice [start:end]), or -1.",
    params: SEARCH,
    run: (self, [sub, a, b], env) => strFind(s(self), sub as PyValue, a, b, env),
  },
  ...(
    [
      ["isdigit", "digits (including superscripts and other Unicode digits)"],
      ["isalpha", "letters"],
      ["isalnum", "letters or numeric characters"],
      ["isspace", "whitespace"],
    ] as const
  ).map(
    ([name, what]): Entry => ({
      receiver: "str",
      name,
      signature: `str.${name}() -> bool`,
      doc: `True if the string is not empty and all its characters are ${what}.`,
      params: NONE,
      run: (self, _slots, env) => strIs(name, s(self), env),
    }),
  ),
];

const SEQUENCE_ENTRIES: readonly Entry[] = (["list", "tuple"] as const).flatMap((kind): Entry[] => [
  {
    receiver: kind,
    name: "count",
    signature: `${kind}.count(x, /) -> int`,
    doc: "The number of elements equal to x.",
    params: { positional: ["x"], required: 1 },
    run: (self, [x], env) => sequenceCount(items(self), x as PyValue, env),
  },
  {
    receiver: kind,
    name: "index",
    signature: `${kind}.index(x, start=0, end=len, /) -> int`,
    doc: "The index of the first element equal to x (searching [start:end]); ValueError when there is none.",
    params: { positional: ["x", "start", "end"], required: 1 },
    run: (self, [x, a, b], env) => sequenceIndex(kind, items(self), x as PyValue, a, b, env),
  },
]);

const DICT_ENTRIES: readonly Entry[] = [
  {
    receiver: "dict",
    name: "get",
    signature: "dict.get(key, default=None, /)",
    doc: "The value under key, or default when the key is absent.",
    params: { positional: ["key", "default"], required: 1 },
    run: (self, [key, fallback]) => dictGetMethod(self, key as PyValue, fallback),
  },
  ...(["keys", "values", "items"] as const).map(
    (kind): Entry => ({
      receiver: "dict",
      name: kind,
      signature: `dict.${kind}() -> dict_${kind}`,
      doc: `A live view of the ${kind === "items" ? "(key, value) pairs" : kind} (iterable, with len and in).`,
      params: NONE,
      run: (self) => dictView(self, kind),
    }),
  ),
];

/** Looked up at call time: the rule table lives in stdlib/types and may load after this module. */
function ruleFor(key: string): MethodTypeRule {
  return (receiver, args, keywords) => {
    const rule = methodTypeRules[key];
    return rule ? rule(receiver, args, keywords) : { ok: true, type: ANY };
  };
}

function toSpec(entry: Entry): MethodSpec {
  const { run, ...rest } = entry;
  return {
    ...rest,
    impl: (self, args, kwargs, env) => run(self, bindArguments(entry.params, args, kwargs), env),
    typeRule: ruleFor(`${entry.receiver}.${entry.name}`),
  };
}

/** Keyed "<receiver>.<name>", e.g. "str.lower", "dict.get". */
export const METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  [...STR_ENTRIES, ...SEQUENCE_ENTRIES, ...DICT_ENTRIES].map((e) => [`${e.receiver}.${e.name}`, toSpec(e)]),
);

export function methodsOf(receiver: MethodReceiver): readonly MethodSpec[] {
  return [...METHODS.values()].filter((m) => m.receiver === receiver);
}
