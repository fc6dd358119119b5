// A sound, conservative judgment that an expression cannot raise for any result that passes the
// step's contract (so for every candidate the solver would try: they all conform). The solver's
// "make an ensure raise" searches scan every candidate, drawing the step's random ones, when none
// raises, and ensures such as `len(result.items) > 0` on required fields never do: a raise-free
// verdict answers those searches without drawing. "Raise-free" is proven, never guessed: only the
// node kinds below, on operands whose run-time kinds the contract fixes, are accepted (the
// evaluator's own rules: docs/reference/language.md §10.8, docs/reference/language.md §10.9 and
// docs/reference/language.md §10.10); anything else may raise.
//
// The evaluation budget (docs/reference/language.md §10.15) is the one limit this leaves aside: no
// accepted expression nests a comprehension in another, so one costs at most about its node count
// times the square of the result's size (values and code points), far below the 1,000,000 steps
// for the candidates: shapes.ts draws lists of at most a few items, derived.ts sizes near the
// spec's literals.
import type { CheckedSpec, ContractIR, FieldDefIR } from "../../checker/index";
import type { Expr } from "../../grammar/index";
import { PyDict, PyFloat, type PyValue } from "../../stdlib/index";

/** One run-time kind a value may have (after `bindable`: `result` is a namespace). */
type Kind =
  | { readonly k: "none" | "bool" | "int" | "float" | "str" | "any" }
  | { readonly k: "list" | "tuple" | "gen"; readonly item: Ty }
  /** A dict or namespace; with a contract, its required fields are present and conform. */
  | { readonly k: "dict"; readonly contract: ContractIR | null };

/** The kinds a value may have: a union (empty: no value at all). */
export type Ty = readonly Kind[];

const ANY: Ty = [{ k: "any" }];
const NONE: Ty = [{ k: "none" }];
const BOOL: Ty = [{ k: "bool" }];
const INT: Ty = [{ k: "int" }];
const FLOAT: Ty = [{ k: "float" }];
const STR: Ty = [{ k: "str" }];

/** Deeper expressions are judged "may raise" (the judgment recurses; the walk of grammar/ does not). */
const MAX_DEPTH = 64;
/** Elements whose kinds are looked at when typing a list value (the kinds of a union repeat). */
const MAX_ELEMENTS = 64;
/** Lists nested deeper than this in a value at hand are typed as lists of anything. */
const MAX_NESTING = 4;
/** The most kinds a value at hand is typed with, all its lists together. */
const MAX_VALUE_KINDS = 256;

type ExprOf<K extends Expr["kind"]> = Extract<Expr, { kind: K }>;

const every = (t: Ty, test: (kind: Kind) => boolean): boolean => t.every(test);
const isStr = (t: Ty) => every(t, (x) => x.k === "str");
const isNumeric = (t: Ty) => every(t, (x) => x.k === "bool" || x.k === "int" || x.k === "float");
const isIntegral = (t: Ty) => every(t, (x) => x.k === "bool" || x.k === "int");
const isDict = (t: Ty) => every(t, (x) => x.k === "dict");
/** Kinds `hashKey` accepts without raising (JSON scalars). */
const isHashable = (t: Ty) =>
  every(t, (x) => x.k === "none" || x.k === "bool" || x.k === "int" || x.k === "float" || x.k === "str");
/** Kinds `len()` accepts. */
const isSized = (t: Ty) =>
  every(t, (x) => x.k === "str" || x.k === "list" || x.k === "tuple" || x.k === "dict");
/** Kinds iteration accepts. */
const isIterable = (t: Ty) =>
  every(t, (x) => x.k === "str" || x.k === "list" || x.k === "tuple" || x.k === "gen" || x.k === "dict");

/** The kinds of the elements iteration yields (a dict from JSON yields its keys: strings). */
function elementsOf(t: Ty): Ty {
  return t.flatMap((x): Ty => {
    if (x.k === "list" || x.k === "tuple" || x.k === "gen") return x.item;
    return STR;
  });
}

/** The kinds of a field's present value that passes the contract check (interpreter/checks/contract.ts). */
function fieldTy(spec: CheckedSpec, def: FieldDefIR): Ty {
  // An absent or optional field may hold None; a required one never does (its kind is checked).
  const base = presentTy(spec, def);
  return def.required ? base : [...base, ...NONE];
}

function presentTy(spec: CheckedSpec, def: FieldDefIR): Ty {
  switch (def.kind) {
    case "string":
      return STR;
    case "boolean":
      return BOOL;
    // `integer` accepts an integral float (2.0) as well.
    case "integer":
    case "number":
      return [...INT, ...FLOAT];
    case "array":
      return [{ k: "list", item: def.items === null ? ANY : fieldTy(spec, def.items) }];
    case "object":
      return [{ k: "dict", contract: null }];
    case "contract":
      return [{ k: "dict", contract: spec.contracts.get(def.type) ?? null }];
  }
}

/** What `result` is for a result that passes `contract` (an object: bound as a namespace). */
export function resultTy(contract: ContractIR | null): Ty {
  return contract === null ? ANY : [{ k: "dict", contract }];
}

/**
 * The kinds of a value at hand (the accumulator names of an iteration report). Past MAX_ELEMENTS
 * elements in one list, MAX_NESTING nested lists or MAX_VALUE_KINDS kinds in all, a list's items
 * are "any": the judgment stays sound (any value may raise) and its size bounded whatever the
 * agent reported.
 */
export function valueTy(v: PyValue): Ty {
  return kindsOf(v, 0, { left: MAX_VALUE_KINDS });
}

function kindsOf(v: PyValue, depth: number, budget: { left: number }): Ty {
  budget.left--;
  if (v === null) return NONE;
  switch (typeof v) {
    case "boolean":
      return BOOL;
    case "number":
    case "bigint":
      return INT;
    case "string":
      return STR;
  }
  if (v instanceof PyFloat) return FLOAT;
  if (Array.isArray(v)) {
    if (v.length > MAX_ELEMENTS || depth >= MAX_NESTING) return [{ k: "list", item: ANY }];
    const item: Kind[] = [];
    for (const x of v as readonly PyValue[]) {
      if (budget.left <= 0) return [{ k: "list", item: ANY }];
      item.push(...kindsOf(x, depth + 1, budget));
    }
    return [{ k: "list", item }];
  }
  if (v instanceof PyDict) return [{ k: "dict", contract: null }];
  return ANY;
}

/** A scope of comprehension variables over the position names. */
interface Scope {
  readonly vars: ReadonlyMap<string, Ty>;
  readonly names: ReadonlyMap<string, Ty>;
  /** Inside a comprehension: another one would nest a loop over a value in a loop. */
  readonly inLoop: boolean;
  readonly spec: CheckedSpec;
}

/**
 * The kinds `e` may evaluate to when it cannot raise with the names bound to values of the given
 * kinds (and any `$` path values), or null when it may raise.
 */
export function raiseFreeTy(spec: CheckedSpec, e: Expr, names: ReadonlyMap<string, Ty>): Ty | null {
  return judge(e, { vars: new Map(), names, inLoop: false, spec }, 0);
}

function judge(e: Expr, scope: Scope, depth: number): Ty | null {
  if (depth > MAX_DEPTH) return null;
  const sub = (x: Expr) => judge(x, scope, depth + 1);
  switch (e.kind) {
    case "Constant":
      return constantTy(e.value);
    case "Name":
      return scope.vars.get(e.id) ?? scope.names.get(e.id) ?? null;
    case "Path":
      // Evaluating a path never raises: anything unresolvable is None.
      return ANY;
    case "Attribute":
      return attributeTy(e, sub, scope.spec);
    case "Call":
      return callTy(e, sub, scope);
    case "UnaryOp": {
      const t = sub(e.operand);
      if (t === null) return null;
      if (e.op === "not") return BOOL;
      if (!isNumeric(t)) return null;
      return t.map((x) => (x.k === "bool" ? INT[0]! : x));
    }
    case "BinOp": {
      // Only int ± int: exact (bigints), never an error.
      if (e.op !== "+" && e.op !== "-") return null;
      const l = sub(e.left);
      const r = l === null ? null : sub(e.right);
      return l !== null && r !== null && isIntegral(l) && isIntegral(r) ? INT : null;
    }
    case "BoolOp": {
      // `and` / `or` give one of their operands.
      const parts = e.values.map((v) => sub(v));
      return parts.every((p) => p !== null) ? (parts as Ty[]).flat() : null;
    }
    case "Compare":
      return compareTy(e, sub);
    case "IfExp": {
      const test = sub(e.test);
      const body = test === null ? null : sub(e.body);
      const orelse = body === null ? null : sub(e.orelse);
      return body !== null && orelse !== null ? [...body, ...orelse] : null;
    }
    case "List":
    case "Tuple": {
      const items = e.elts.map((x) => sub(x));
      if (!items.every((t) => t !== null)) return null;
      return [{ k: e.kind === "List" ? "list" : "tuple", item: (items as Ty[]).flat() }];
    }
    case "ListComp":
    case "GeneratorExp":
      return comprehensionTy(e, scope, depth);
    // Subscripts (IndexError, KeyError), dict displays (unhashable keys) and holes may raise.
    case "Subscript":
    case "Dict":
    case "Error":
      return null;
  }
}

function constantTy(v: ExprOf<"Constant">["value"]): Ty {
  if (v === null) return NONE;
  if (typeof v === "boolean") return BOOL;
  if (typeof v === "string") return STR;
  return v instanceof PyFloat ? FLOAT : INT;
}

type Sub = (e: Expr) => Ty | null;

/** `x.f`: a required field of a contract (a namespace or a dict gives the value under the key). */
function attributeTy(e: ExprOf<"Attribute">, sub: Sub, spec: CheckedSpec): Ty | null {
  const base = sub(e.value);
  if (base === null || !isDict(base)) return null;
  const out: Kind[] = [];
  for (const x of base) {
    const def = x.k === "dict" ? x.contract?.fields.get(e.attr) : undefined;
    if (def === undefined || !def.required) return null;
    out.push(...fieldTy(spec, def));
  }
  return out;
}

function compareTy(e: ExprOf<"Compare">, sub: Sub): Ty | null {
  const operands = [e.left, ...e.comparators].map((x) => sub(x));
  if (!operands.every((t) => t !== null)) return null;
  const ts = operands as Ty[];
  for (const [i, { op }] of e.ops.entries()) {
    const a = ts[i]!;
    const b = ts[i + 1]!;
    switch (op) {
      // Equality and identity never raise.
      case "==":
      case "!=":
      case "is":
      case "is not":
        break;
      case "<":
      case "<=":
      case ">":
      case ">=":
        if (!((isNumeric(a) && isNumeric(b)) || (isStr(a) && isStr(b)))) return null;
        break;
      case "in":
      case "not in":
        if (!containsSafely(b, a)) return null;
        break;
    }
  }
  return BOOL;
}

/** Whether `x in c` cannot raise (stdlib/values/membership.ts), for each kind `c` may have. */
function containsSafely(c: Ty, x: Ty): boolean {
  return every(c, (k) => {
    if (k.k === "str") return isStr(x);
    if (k.k === "list" || k.k === "tuple" || k.k === "gen") return true;
    if (k.k === "dict") return isHashable(x);
    return false;
  });
}

/** Methods of str called with no argument: their result kind. */
const STR_NULLARY: ReadonlyMap<string, Ty> = new Map([
  ["lower", STR],
  ["upper", STR],
  ["isdigit", BOOL],
  ["isalpha", BOOL],
  ["isalnum", BOOL],
  ["isspace", BOOL],
]);
const STRIPS = new Set(["strip", "lstrip", "rstrip"]);
const AFFIXES = new Set(["startswith", "endswith"]);

function callTy(e: ExprOf<"Call">, sub: Sub, scope: Scope): Ty | null {
  if (e.keywords.length > 0) return null;
  const args = e.args.map((a) => sub(a));
  if (!args.every((t) => t !== null)) return null;
  const a = args as Ty[];
  if (e.func.kind === "Attribute") return methodTy(e, e.func, a, sub, scope.spec);
  if (e.func.kind !== "Name") return null;
  const id = e.func.id;
  // A comprehension variable or a position name of that name is called instead of the builtin.
  if (scope.vars.has(id) || scope.names.has(id)) return null;
  switch (id) {
    case "len":
      return a.length === 1 && isSized(a[0]!) ? INT : null;
    case "bool":
      return a.length <= 1 ? BOOL : null;
    // Truthiness never raises; a generator's elements were judged with the generator.
    case "any":
    case "all":
      return a.length === 1 && isIterable(a[0]!) ? BOOL : null;
    // The file builtins answer False for a path they cannot read (docs/reference/language.md §10.9).
    case "file_exists":
      return a.length === 1 && isStr(a[0]!) ? BOOL : null;
    case "file_contains":
      return a.length === 2 && isStr(a[0]!) && isStr(a[1]!) ? BOOL : null;
    default:
      return null;
  }
}

/** `x.m(args)`: methods of str, and `get` of a dict or namespace, with arguments they accept. */
function methodTy(
  call: ExprOf<"Call">,
  func: ExprOf<"Attribute">,
  args: readonly Ty[],
  sub: Sub,
  spec: CheckedSpec,
): Ty | null {
  const receiver = sub(func.value);
  if (receiver === null) return null;
  const name = func.attr;
  if (isStr(receiver)) {
    const nullary = STR_NULLARY.get(name);
    if (nullary !== undefined) return args.length === 0 ? nullary : null;
    if (STRIPS.has(name)) {
      const chars = args[0];
      const ok =
        args.length === 0 || (args.length === 1 && every(chars!, (x) => x.k === "str" || x.k === "none"));
      return ok ? STR : null;
    }
    if (AFFIXES.has(name)) {
      const affix = args[0];
      if (args.length !== 1 || affix === undefined) return null;
      return every(affix, (x) => x.k === "str" || (x.k === "tuple" && isStr(x.item))) ? BOOL : null;
    }
    return null;
  }
  if (!isDict(receiver) || name !== "get" || args.length < 1 || args.length > 2) return null;
  // A dict's method wins over a key of the same name (docs/reference/language.md §10.8.9).
  const key = args[0]!;
  if (!isHashable(key)) return null;
  const fallback = args[1] ?? NONE;
  const keyNode = call.args[0]!;
  const keyText = keyNode.kind === "Constant" && typeof keyNode.value === "string" ? keyNode.value : null;
  const out: Kind[] = [];
  for (const x of receiver) {
    const def = x.k === "dict" && keyText !== null ? x.contract?.fields.get(keyText) : undefined;
    // Another key may still be present (a contract does not close its objects): any value.
    if (def === undefined) out.push(...ANY, ...fallback);
    else if (def.required) out.push(...presentTy(spec, def));
    else out.push(...presentTy(spec, def), ...NONE, ...fallback);
  }
  return out;
}

/**
 * `[elt for v in iter if …]` / `(… )`: one `for` clause over an iterable with a plain name (no
 * unpacking, nothing read before it is bound), and no comprehension inside (see the budget above).
 */
function comprehensionTy(
  e: ExprOf<"ListComp"> | ExprOf<"GeneratorExp">,
  scope: Scope,
  depth: number,
): Ty | null {
  if (scope.inLoop || e.generators.length !== 1) return null;
  const clause = e.generators[0]!;
  if (clause.target.kind !== "Name") return null;
  const iter = judge(clause.iter, scope, depth + 1);
  if (iter === null || !isIterable(iter)) return null;
  const vars = new Map(scope.vars);
  vars.set(clause.target.id, elementsOf(iter));
  const inner: Scope = { ...scope, vars, inLoop: true };
  for (const test of clause.ifs) if (judge(test, inner, depth + 1) === null) return null;
  const elt = judge(e.elt, inner, depth + 1);
  if (elt === null) return null;
  return [{ k: e.kind === "ListComp" ? "list" : "gen", item: elt }];
}
