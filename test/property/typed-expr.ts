// Type-directed random expressions over typed paths. They need not all be well typed: the
// checker decides; the generator only makes acceptance likely.
//
// They never build a union of incompatible types (a conditional or a display mixing a list and
// a string, an empty list display typed list[any]): the checker accepts an operation when SOME
// member of a union supports it (docs/reference/language.md §10.12.3), so the no-TypeError guarantee only covers
// expressions whose values have types without `any`, `none` or such mixed unions. Numbers mix
// freely (bool, int, float) and so do strings and enumerations. Deliberately ill-typed probes do
// occur: a list of any element type handed to sum, join or sorted (whose result is then only
// measured), which the checker must reject when it always fails.

import type { Type } from "../../stdlib/types/type";
import type { Rand } from "../differential/rand";
import { pathsOf, type TypedPath } from "./typed-env";

type Want = "num" | "str" | "bool" | "list" | "any";

function kindOf(t: Type): Want {
  switch (t.k) {
    case "int":
    case "float":
    case "bool":
      return "num";
    case "str":
      return "str";
    case "list":
      return "list";
    default:
      return "any";
  }
}

const NUM_LITERALS = ["0", "1", "2", "-3", "0.5", "2.5", "10", "1e3"];
const STR_LITERALS = ["''", "'a'", "'ok'", "'failed'", "','", "' '", "'é'", "'ab'"];

export class TypedExprGen {
  constructor(
    private readonly r: Rand,
    private readonly paths: readonly TypedPath[],
  ) {}

  private pathOf(want: Want, extra: readonly TypedPath[] = []): string | null {
    const all = [...extra, ...this.paths].filter((p) => want === "any" || kindOf(p.type) === want);
    return all.length === 0 ? null : this.r.pick(all).text;
  }

  private listPath(elem: Want): TypedPath | null {
    const lists = this.paths.filter(
      (p) => p.type.k === "list" && (elem === "any" || kindOf(p.type.elem) === elem),
    );
    return lists.length === 0 ? null : this.r.pick(lists);
  }

  gen(want: Want, depth: number, locals: readonly TypedPath[] = []): string {
    const r = this.r;
    const sub = (w: Want) => `(${this.gen(w, depth - 1, locals)})`;
    const scalar = (): Want => r.pick(["num", "str", "bool"]);
    if (depth <= 0 || r.chance(25)) {
      const p = r.chance(75) ? this.pathOf(want, locals) : null;
      if (p !== null) return p;
      if (want === "num") return r.pick(NUM_LITERALS);
      if (want === "str") return r.pick(STR_LITERALS);
      if (want === "bool") return r.pick(["True", "False"]);
      if (want === "list") return r.pick(["[1, 2]", "['a', 'b']", "[2.5, True]"]);
      return r.pick([...NUM_LITERALS, ...STR_LITERALS]);
    }
    switch (want) {
      case "num":
        return r.pick([
          () => `${sub("num")} ${r.pick(["+", "-", "*", "/", "//", "%"])} ${sub("num")}`,
          () => `len(${sub(r.pick(["str", "list"]))})`,
          () => `${r.pick(["abs", "int", "float", "round"])}(${sub("num")})`,
          () => `sum(${this.numList(depth, locals, true)})`,
          () => `len(sorted(${this.anyList(depth, locals)}))`,
          () =>
            `${r.pick(["min", "max"])}(${this.numList(depth, locals)}${r.chance(30) ? ", default=0" : ""})`,
          () => `${sub("str")}.${r.pick(["count", "find"])}(${sub("str")})`,
          () => `-${sub("num")}`,
          () => `${sub("num")} if ${sub(scalar())} else ${sub("num")}`,
        ])();
      case "str":
        return r.pick([
          () => `${sub("str")} + ${sub("str")}`,
          () => `${sub("str")}.${r.pick(["lower", "upper", "strip", "lstrip", "rstrip"])}()`,
          () => `${sub("str")}.replace(${sub("str")}, ${sub("str")})`,
          () => `${sub("str")}[${r.int(-2, 2)}:${r.pick(["", "3", "-1"])}]`,
          () => `str(${sub(r.pick(["num", "str", "list", "any"]))})`,
          () => `${r.pick(STR_LITERALS)}.join(${this.strList(depth, locals, true)})`,
          () => `${sub("str")} * ${r.int(0, 3)}`,
          () => `${sub("str")} if ${sub("any")} else ${sub("str")}`,
          () => `${sub("str")} or ${sub("str")}`,
        ])();
      case "bool":
        return r.pick([
          () => `${sub("num")} ${r.pick(["<", "<=", ">", ">=", "==", "!="])} ${sub("num")}`,
          () => `${sub("str")} ${r.pick(["<", "==", "!=", "in", "not in"])} ${sub("str")}`,
          () => `${sub("any")} ${r.pick(["==", "!="])} ${sub("any")}`,
          () => `${sub("num")} if ${sub("any")} else ${sub("num")}`,
          () => `${sub("bool")} ${r.pick(["and", "or"])} ${sub("bool")}`,
          () => `not ${sub("any")}`,
          () => `${sub("str")}.${r.pick(["startswith", "endswith"])}(${sub("str")})`,
          () => `${sub("str")}.${r.pick(["isdigit", "isalpha", "isalnum", "isspace"])}()`,
          () => `${r.pick(["any", "all", "bool"])}(${sub("list")})`,
          () => this.comprehension("bool", depth, locals, true),
          () => `${sub("num")} in ${this.numList(depth, locals, true)}`,
        ])();
      case "list":
        return r.pick([
          () => this.comprehension(r.pick(["num", "str", "bool"]), depth, locals, false),
          () =>
            `sorted(${r.chance(50) ? this.numList(depth, locals) : this.strList(depth, locals)}${r.chance(30) ? ", reverse=True" : ""})`,
          () => `${sub("str")}.split(${r.pick(["", "','", "' '"])})`,
          () =>
            r.chance(50)
              ? `${this.numList(depth, locals)} + ${this.numList(depth, locals)}`
              : `${this.strList(depth, locals)} + ${this.strList(depth, locals)}`,
          () => `${sub("list")}[${r.int(-2, 2)}:]`,
          () => {
            const w = r.pick<Want>(["num", "str"]);
            return `[${sub(w)}, ${sub(w)}]`;
          },
        ])();
      default:
        return this.gen(r.pick(["num", "str", "bool", "list"]), depth, locals);
    }
  }

  /** A list of numbers; with `probe`, sometimes a list of anything. */
  private numList(depth: number, locals: readonly TypedPath[], probe = false): string {
    const p = this.listPath(probe && this.r.chance(15) ? "any" : "num");
    return p && this.r.chance(70)
      ? p.text
      : `[${this.gen("num", depth - 1, locals)}, ${this.gen("num", depth - 1, locals)}]`;
  }

  /** A list of strings; with `probe`, sometimes a list of anything. */
  private strList(depth: number, locals: readonly TypedPath[], probe = false): string {
    const p = this.listPath(probe && this.r.chance(15) ? "any" : "str");
    return p && this.r.chance(70) ? p.text : `[${this.gen("str", depth - 1, locals)}]`;
  }

  private anyList(depth: number, locals: readonly TypedPath[]): string {
    return this.listPath("any")?.text ?? this.numList(depth, locals);
  }

  /** `[e for v in L if c]` over a list path, with `v` typed as the element. */
  private comprehension(elem: Want, depth: number, locals: readonly TypedPath[], generator: boolean): string {
    const r = this.r;
    const list = this.listPath("any");
    if (list === null || list.type.k !== "list") return generator ? "any([1])" : "[1]";
    const v = r.pick(["v", "w"]);
    const inner = [...pathsOf(v, list.type.elem, 1), ...locals.filter((p) => p.text.split(/[.[]/)[0] !== v)];
    const cond = r.chance(40) ? ` if ${this.gen("bool", depth - 1, inner)}` : "";
    const body = `${this.gen(elem, depth - 1, inner)} for ${v} in ${list.text}${cond}`;
    return generator ? `${r.pick(["any", "all"])}(${body})` : `[${body}]`;
  }
}
