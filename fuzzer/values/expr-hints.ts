// What a step's expressions ask of its result, field by field, read from the checked IR: the AST of
// each expression that sees `result` (ensure, exit_criterion, accumulate) and the step's static
// result type R(s) (StepIR.resultType), never the expressions' source text. The derived candidates
// (derived.ts) turn these hints into values a well-behaved agent would report.
import type { CheckedSpec, JsonValue, StepIR } from "../../checker/index";
import type { Expr } from "../../grammar/index";
import { walk } from "../../grammar/index";
import { PyFloat, type Type } from "../../stdlib/index";
import { ensureOf } from "../target";

/** What the expressions test of one field of the result (a path of keys below `result`). */
export interface FieldHint {
  readonly path: readonly string[];
  /** The field's static type from R(s) (`any` when R(s) does not know it). */
  readonly type: Type;
  /** The field reaches `int()` or `float()`. */
  numeric: boolean;
  /** Values it is compared with (`==`, `!=`, orderings) or looked up in (`result.f in [...]`). */
  readonly values: JsonValue[];
  /** Texts tested with `x in result.f` where the field can be a string. */
  readonly contains: string[];
  /** Members tested with `x in result.f` where the field can be a list. */
  readonly elements: JsonValue[];
  /** Sizes `len(result.f)` is compared with. */
  readonly lengths: number[];
}

const ANY: Type = { k: "any" };

/** The path below `result` an expression reads (`result.a.b`, `result['a']`, `result.get('a')`), or null. */
export function resultPath(e: Expr): string[] | null {
  if (e.kind === "Name") return e.id === "result" ? [] : null;
  if (e.kind === "Attribute") {
    const base = resultPath(e.value);
    return base === null ? null : [...base, e.attr];
  }
  if (e.kind === "Subscript" && e.index.kind === "Constant" && typeof e.index.value === "string") {
    const base = resultPath(e.value);
    return base === null ? null : [...base, e.index.value];
  }
  if (e.kind === "Call" && e.func.kind === "Attribute" && e.func.attr === "get") {
    const first = e.args[0];
    if (first?.kind !== "Constant" || typeof first.value !== "string") return null;
    const base = resultPath(e.func.value);
    return base === null ? null : [...base, first.value];
  }
  return null;
}

/** The members of a type, `none` left out (an optional field's type is `T | none`). */
function nonNull(t: Type): Type[] {
  const all = t.k === "union" ? t.members : [t];
  return all.filter((m) => m.k !== "none");
}

/** The static type of `result.<path>` under R(s): record fields, dict values; `any` when unknown. */
export function typeAt(resultType: Type, path: readonly string[]): Type {
  let t: Type = resultType;
  for (const key of path) {
    const next: Type[] = [];
    for (const m of nonNull(t)) {
      const inner = m.k === "ns" ? m.of : m;
      if (inner.k === "record") {
        const field = inner.record.fields.get(key);
        if (field !== undefined) next.push(field.type);
      } else if (inner.k === "dict") next.push(inner.value);
      else if (inner.k === "any") return ANY;
    }
    if (next.length === 0) return ANY;
    t = next.length === 1 ? next[0]! : { k: "union", members: next.flatMap((n) => nonNull(n)) };
  }
  return t;
}

/** Whether a value of this type can be a string (`str`, or unknown). */
function mayBeString(t: Type): boolean {
  return nonNull(t).some((m) => m.k === "str" || m.k === "any");
}

/** Whether a value of this type can be a list (or unknown). */
function mayBeList(t: Type): boolean {
  return nonNull(t).some((m) => m.k === "list" || m.k === "any");
}

/** A literal as JSON (ints, floats, strings, booleans, None), or undefined for anything else. */
export function constantOf(e: Expr): JsonValue | undefined {
  if (e.kind === "UnaryOp" && e.op === "-") {
    const inner = constantOf(e.operand);
    return typeof inner === "number" ? -inner : undefined;
  }
  if (e.kind !== "Constant") return undefined;
  const v = e.value;
  if (v instanceof PyFloat) return Number.isFinite(v.v) ? v.v : undefined;
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : undefined;
  return v;
}

/** The literal members of a list, tuple or set display (`['a', 'b']`), or null. */
function displayMembers(e: Expr): JsonValue[] | null {
  if (e.kind !== "List" && e.kind !== "Tuple") return null;
  const out: JsonValue[] = [];
  for (const x of e.elts) {
    const c = constantOf(x);
    if (c !== undefined) out.push(c);
  }
  return out;
}

/** `len(<result path>)` → the path, else null. */
function lenOf(e: Expr): string[] | null {
  if (e.kind !== "Call" || e.func.kind !== "Name" || e.func.id !== "len" || e.args.length !== 1) return null;
  return resultPath(e.args[0]!);
}

/** `int(<result path>)` / `float(<result path>)` → the path and the function, else null. */
export function conversionOf(e: Expr): { path: string[]; fn: "int" | "float" } | null {
  if (e.kind !== "Call" || e.func.kind !== "Name" || e.args.length < 1) return null;
  if (e.func.id !== "int" && e.func.id !== "float") return null;
  const path = resultPath(e.args[0]!);
  return path === null || path.length === 0 ? null : { path, fn: e.func.id };
}

export class ExprHints {
  private readonly byKey = new Map<string, FieldHint>();

  constructor(private readonly resultType: Type) {}

  /** The hint of one field, created on first use. */
  at(path: readonly string[]): FieldHint {
    const key = path.join("\u0000");
    let hint = this.byKey.get(key);
    if (hint === undefined) {
      hint = {
        path: [...path],
        type: typeAt(this.resultType, path),
        numeric: false,
        values: [],
        contains: [],
        elements: [],
        lengths: [],
      };
      this.byKey.set(key, hint);
    }
    return hint;
  }

  /** The hint of a field if its expressions test it. */
  get(path: readonly string[]): FieldHint | undefined {
    return this.byKey.get(path.join("\u0000"));
  }

  all(): FieldHint[] {
    return [...this.byKey.values()];
  }

  /** Reads one expression's tests of the result. */
  read(e: Expr): void {
    walk(e, {
      enter: (node) => {
        if (node.kind === "Slice") return true;
        const conversion = conversionOf(node);
        if (conversion !== null) this.at(conversion.path).numeric = true;
        if (node.kind === "Call" && node.func.kind === "Attribute")
          this.method(node.func.value, node.func.attr, node.args);
        if (node.kind === "Compare") {
          let left = node.left;
          node.ops.forEach(({ op }, i) => {
            const right = node.comparators[i]!;
            this.compare(left, op, right);
            left = right;
          });
        }
        return true;
      },
    });
  }

  /** `result.f.startswith('x')` and the like: the argument is a value of the field. */
  private method(receiver: Expr, name: string, args: readonly Expr[]): void {
    if (!["startswith", "endswith", "count", "find", "index"].includes(name)) return;
    const path = resultPath(receiver);
    const arg = args[0] === undefined ? undefined : constantOf(args[0]);
    if (path === null || path.length === 0 || typeof arg !== "string") return;
    push(this.at(path).contains, arg);
  }

  private compare(left: Expr, op: string, right: Expr): void {
    if (op === "in" || op === "not in") {
      const needle = constantOf(left);
      const hay = resultPath(right);
      if (needle !== undefined && hay !== null && hay.length > 0) {
        const hint = this.at(hay);
        if (typeof needle === "string" && mayBeString(hint.type)) push(hint.contains, needle);
        if (mayBeList(hint.type)) push(hint.elements, needle);
      }
      const member = resultPath(left);
      const members = displayMembers(right);
      if (member !== null && member.length > 0 && members !== null) {
        for (const m of members) push(this.at(member).values, m);
      }
      return;
    }
    if (op === "is" || op === "is not") return;
    for (const [a, b] of [
      [left, right],
      [right, left],
    ] as const) {
      const literal = constantOf(b);
      if (literal === undefined) continue;
      const sized = lenOf(a);
      if (sized !== null && sized.length > 0 && typeof literal === "number" && Number.isInteger(literal)) {
        const hint = this.at(sized);
        for (const n of [literal - 1, literal, literal + 1]) if (n >= 0 && n <= 4096) push(hint.lengths, n);
      }
      const path = resultPath(a) ?? conversionOf(a)?.path ?? null;
      if (path !== null && path.length > 0) push(this.at(path).values, literal);
    }
  }
}

function push<T>(list: T[], v: T): void {
  if (!list.includes(v)) list.push(v);
}

/** The hints of every expression that sees a step's result: its ensures, exit_criterion and accumulate. */
export function stepHints(spec: CheckedSpec, step: StepIR): ExprHints {
  const hints = new ExprHints(step.resultType);
  const exprs = [...ensureOf(spec, step), step.exitCriterion, step.accumulate];
  for (const e of exprs) if (e !== null) hints.read(e.ast);
  return hints;
}
