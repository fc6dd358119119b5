// Random expressions of the supported subset, as text. Every operator, chained comparisons,
// boolean operators, conditionals, subscripts and slices, builtin calls (with keywords and
// generator arguments), methods, displays and comprehensions. Sub-expressions are parenthesised
// only where precedence requires it (plus a few redundant parentheses), so the texts also test
// the parser's precedence against CPython's.
//
// Not generated (documented differences, divergences.md): `is` / `is not` with anything but
// None, `**` and bitwise operators, file builtins, `$` paths.
import { BOUND_NAMES, genKey, genString, IDENT_KEYS } from "./json-gen";
import type { Rand } from "./rand";

/** A generated expression and the precedence level of its outermost construct (docs/reference/language.md §10.4). */
interface Node {
  readonly t: string;
  readonly p: number;
}

const P_COND = 1;
const P_OR = 2;
const P_AND = 3;
const P_NOT = 4;
const P_CMP = 5;
const P_SUM = 6;
const P_TERM = 7;
const P_UNARY = 8;
const P_PRIMARY = 9;

type Want = "num" | "str" | "list" | "bool";

interface Scope {
  readonly vars: readonly string[];
}

const INT_LITERALS = [
  "0",
  "1",
  "2",
  "3",
  "5",
  "10",
  "0x1f",
  "0o7",
  "0b101",
  "1_000",
  "9007199254740993",
  "12345678901234567890123",
];
const FLOAT_LITERALS = ["0.0", "0.5", "1.5", "2.0", "0.1", "1e16", "1e-7", "1e308", "2.675", ".25", "3."];
const STR_LITERALS = [
  "''",
  "'a'",
  "'ab'",
  "'a,b'",
  "' x '",
  "'é'",
  "'😀'",
  `"it's"`,
  "'A b'",
  "'1_0'",
  "' 7 '",
  "'٣'",
  "'inf'",
  "'-0.0'",
  "'1e3'",
  "','",
  "'b'",
];
const COMPARE_OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not in"];
const VAR_NAMES = ["v", "w", "k", "i"];
const STR_METHODS = [
  "startswith",
  "endswith",
  "lower",
  "upper",
  "strip",
  "lstrip",
  "rstrip",
  "split",
  "join",
  "replace",
  "count",
  "find",
  "isdigit",
  "isalpha",
  "isalnum",
  "isspace",
];
const SEQ_METHODS = ["count", "index"];
const DICT_METHODS = ["get", "keys", "values", "items"];
const MISSING_METHODS = ["append", "title", "pop", "bit_length", "format", "sort"];

function wrap(n: Node, min: number): string {
  return n.p < min ? `(${n.t})` : n.t;
}

function primary(t: string): Node {
  return { t, p: P_PRIMARY };
}

export class ExprGen {
  constructor(private readonly r: Rand) {}

  /** A whole expression. */
  expression(depth: number): string {
    return this.expr(depth, { vars: [] }).t;
  }

  private expr(depth: number, scope: Scope): Node {
    const r = this.r;
    // Half of the time, an expression that is likely well typed (so that evaluation goes deep
    // instead of stopping at the first TypeError); otherwise anything.
    if (r.chance(50)) return this.typed(depth, scope, r.pick(["num", "num", "str", "str", "list", "bool"]));
    if (depth <= 0) return this.leaf(scope);
    const n = r.weighted<() => Node>([
      [6, () => this.leaf(scope)],
      [6, () => this.binary(depth, scope)],
      [5, () => this.compare(depth, scope)],
      [3, () => this.boolOp(depth, scope)],
      [2, () => this.unary(depth, scope)],
      [2, () => this.conditional(depth, scope)],
      [5, () => this.subscript(depth, scope)],
      [3, () => this.attribute(depth, scope)],
      [6, () => this.methodCall(depth, scope)],
      [8, () => this.builtinCall(depth, scope)],
      [4, () => this.display(depth, scope)],
      [3, () => this.comprehension(depth, scope)],
    ])();
    return r.chance(3) ? primary(`(${n.t})`) : n;
  }

  /** An expression that is probably of the wanted kind. */
  private typed(depth: number, scope: Scope, want: Want): Node {
    const r = this.r;
    const t = (w: Want, min: number) => wrap(this.typed(depth - 1, scope, w), min);
    if (depth <= 0 || r.chance(15)) return primary(this.typedLeaf(want));
    switch (want) {
      case "num":
        return r.weighted<() => Node>([
          [4, () => ({ t: `${t("num", P_SUM)} ${r.pick(["+", "-"])} ${t("num", P_TERM)}`, p: P_SUM })],
          [
            4,
            () => ({
              t: `${t("num", P_TERM)} ${r.pick(["*", "/", "//", "%"])} ${t("num", P_UNARY)}`,
              p: P_TERM,
            }),
          ],
          [1, () => ({ t: `-${t("num", P_UNARY)}`, p: P_UNARY })],
          [3, () => primary(`len(${t(r.pick(["str", "list"]), P_COND)})`)],
          [2, () => primary(`${r.pick(["sum", "min", "max"])}(${t("list", P_COND)})`)],
          [2, () => primary(`${r.pick(["abs", "int", "round", "float"])}(${t("num", P_COND)})`)],
          [1, () => primary(`round(${t("num", P_COND)}, ${r.int(-1, 3)})`)],
          [1, () => primary(`int(${r.pick(["' 7 '", "'-12'", "'1_000'", "'٣'", "'3.5'", "True"])})`)],
          [2, () => primary(`${t("str", P_PRIMARY)}.${r.pick(["find", "count"])}(${t("str", P_COND)})`)],
          [1, () => primary(`${t("list", P_PRIMARY)}[${r.int(-2, 2)}]`)],
        ])();
      case "str":
        return r.weighted<() => Node>([
          [4, () => ({ t: `${t("str", P_SUM)} + ${t("str", P_TERM)}`, p: P_SUM })],
          [1, () => ({ t: `${t("str", P_TERM)} * ${r.int(-1, 3)}`, p: P_TERM })],
          [
            3,
            () => primary(`${t("str", P_PRIMARY)}[${this.bound(depth, scope)}:${this.bound(depth, scope)}]`),
          ],
          [2, () => primary(`${t("str", P_PRIMARY)}[${r.int(-3, 3)}]`)],
          [
            4,
            () =>
              primary(`${t("str", P_PRIMARY)}.${r.pick(["lower", "upper", "strip", "lstrip", "rstrip"])}()`),
          ],
          [
            2,
            () => primary(`${t("str", P_PRIMARY)}.replace(${r.pick(STR_LITERALS)}, ${r.pick(STR_LITERALS)})`),
          ],
          [2, () => primary(`${r.pick(STR_LITERALS)}.join(${t("list", P_COND)})`)],
          [3, () => primary(`str(${this.sub(depth, scope, P_COND)})`)],
          [1, () => ({ t: `${t("str", P_OR)} if ${t("bool", P_OR)} else ${t("str", P_COND)}`, p: P_COND })],
        ])();
      case "list":
        return r.weighted<() => Node>([
          [3, () => ({ t: `${t("list", P_SUM)} + ${t("list", P_TERM)}`, p: P_SUM })],
          [
            3,
            () =>
              primary(`sorted(${t(r.pick(["list", "str"]), P_COND)}${r.chance(30) ? ", reverse=True" : ""})`),
          ],
          [
            3,
            () =>
              primary(`${t("str", P_PRIMARY)}.split(${r.pick(["", "','", "' '", "None, 1", "maxsplit=1"])})`),
          ],
          [
            3,
            () =>
              primary(
                `[${this.typed(depth - 1, scope, r.pick(["num", "str"])).t} for v in ${t("list", P_OR)}]`,
              ),
          ],
          [
            3,
            () =>
              primary(
                `[v for v in ${t(r.pick(["list", "str"]), P_OR)} if v ${r.pick(["!=", ">", "<"])} ${this.typedLeaf(r.pick(["num", "str"]))}]`,
              ),
          ],
          [
            2,
            () =>
              primary(
                `${t("list", P_PRIMARY)}[${this.bound(depth, scope)}:${this.bound(depth, scope)}:${r.pick(["", "-1", "2"])}]`,
              ),
          ],
          [2, () => primary(`[${t("num", P_COND)}, 1, 2]`)],
        ])();
      default:
        return r.weighted<() => Node>([
          [
            4,
            () => ({
              t: `${t("num", P_SUM)} ${r.pick(COMPARE_OPS.slice(0, 6))} ${t("num", P_SUM)}`,
              p: P_CMP,
            }),
          ],
          [3, () => ({ t: `${t("str", P_SUM)} ${r.pick(COMPARE_OPS)} ${t("str", P_SUM)}`, p: P_CMP })],
          [2, () => ({ t: `${t("num", P_SUM)} ${r.pick(["in", "not in"])} ${t("list", P_SUM)}`, p: P_CMP })],
          [
            2,
            () => ({
              t: `${t("bool", P_AND + 1)} ${r.pick(["and", "or"])} ${t("bool", P_AND + 1)}`,
              p: P_OR,
            }),
          ],
          [
            2,
            () =>
              primary(
                `${r.pick(["any", "all"])}(v ${r.pick([">", "<", "=="])} ${r.int(0, 3)} for v in ${t("list", P_OR)})`,
              ),
          ],
          [
            2,
            () =>
              primary(
                `${t("str", P_PRIMARY)}.${r.pick(["startswith", "endswith", "isdigit", "isalpha", "isalnum", "isspace"])}(${r.chance(50) ? r.pick(STR_LITERALS) : ""})`,
              ),
          ],
        ])();
    }
  }

  private typedLeaf(want: Want): string {
    const r = this.r;
    switch (want) {
      case "num":
        return r.pick([...INT_LITERALS, ...FLOAT_LITERALS, "n", "len(l)", "result.n", "d.n"]);
      case "str":
        return r.chance(80)
          ? r.pick([...STR_LITERALS, "s", "result.name", "d.v", "str(x)"])
          : pyStringLiteral(genString(r, 4));
      case "list":
        return r.pick([
          "l",
          "[1, 2, 3]",
          "[3, 1, 2]",
          "['b', 'a', 'c']",
          "[]",
          "[2.5, -1, 0]",
          "result.items",
          "d.values",
          "[[1, 2], [0]]",
        ]);
      default:
        return r.pick(["True", "False", "result.v", "x", "not l"]);
    }
  }

  private sub(depth: number, scope: Scope, min: number): string {
    return wrap(this.expr(depth - 1, scope), min);
  }

  private leaf(scope: Scope): Node {
    const r = this.r;
    return r.weighted<() => Node>([
      [scope.vars.length > 0 ? 10 : 0, () => primary(r.pick(scope.vars))],
      [8, () => primary(r.pick(BOUND_NAMES))],
      [6, () => primary(`${r.pick(["result", "d", "x"])}.${r.pick(IDENT_KEYS)}`)],
      [3, () => primary(`${r.pick(["result", "d", "x"])}[${JSON.stringify(genKey(r))}]`)],
      [5, () => primary(r.pick(INT_LITERALS))],
      [3, () => primary(r.pick(FLOAT_LITERALS))],
      [5, () => primary(r.chance(70) ? r.pick(STR_LITERALS) : pyStringLiteral(genString(r, 4)))],
      [3, () => primary(r.pick(["True", "False", "None", "true", "false", "null"]))],
      [2, () => ({ t: `-${r.pick(INT_LITERALS.slice(0, 6))}`, p: P_UNARY })],
      [
        3,
        () =>
          primary(
            r.pick([
              "[1, 2, 3]",
              "[3, 1, 2]",
              "['b', 'a']",
              "[]",
              "(1, 2)",
              "{'a': 1, 'b': 2}",
              "[[1, 2], [3]]",
              "[1, 'a']",
            ]),
          ),
      ],
    ])();
  }

  private binary(depth: number, scope: Scope): Node {
    const op = this.r.pick(["+", "-", "*", "/", "//", "%", "+", "*"]);
    const p = op === "+" || op === "-" ? P_SUM : P_TERM;
    return { t: `${this.sub(depth, scope, p)} ${op} ${this.sub(depth, scope, p + 1)}`, p };
  }

  private compare(depth: number, scope: Scope): Node {
    const r = this.r;
    if (r.chance(10))
      return { t: `${this.sub(depth, scope, P_SUM)} ${r.pick(["is", "is not"])} None`, p: P_CMP };
    let t = this.sub(depth, scope, P_SUM);
    const links = r.weighted([
      [6, 1],
      [3, 2],
      [1, 3],
    ]);
    for (let i = 0; i < links; i++) t += ` ${r.pick(COMPARE_OPS)} ${this.sub(depth, scope, P_SUM)}`;
    return { t, p: P_CMP };
  }

  private boolOp(depth: number, scope: Scope): Node {
    const op = this.r.pick(["and", "or"]);
    const p = op === "and" ? P_AND : P_OR;
    const n = this.r.int(2, 3);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(this.sub(depth, scope, p + 1));
    return { t: parts.join(` ${op} `), p };
  }

  private unary(depth: number, scope: Scope): Node {
    const op = this.r.pick(["-", "+", "not ", "-", "not "]);
    if (op === "not ") return { t: `not ${this.sub(depth, scope, P_NOT)}`, p: P_NOT };
    return { t: `${op}${this.sub(depth, scope, P_UNARY)}`, p: P_UNARY };
  }

  private conditional(depth: number, scope: Scope): Node {
    const body = this.sub(depth, scope, P_OR);
    const test = this.sub(depth, scope, P_OR);
    return { t: `${body} if ${test} else ${this.sub(depth, scope, P_COND)}`, p: P_COND };
  }

  private object(depth: number, scope: Scope): string {
    const n = this.expr(depth - 1, scope);
    // `1.x` would lex as a float: numbers are parenthesised before a trailer.
    return n.p < P_PRIMARY || /^[0-9.]/.test(n.t) ? `(${n.t})` : n.t;
  }

  private index(depth: number, scope: Scope): string {
    const r = this.r;
    return r.weighted<() => string>([
      [6, () => String(r.int(-3, 3))],
      [1, () => r.pick(["True", "False", "100", "-100", "12345678901234567890"])],
      [3, () => JSON.stringify(genKey(r))],
      [3, () => this.sub(depth, scope, P_COND)],
    ])();
  }

  private bound(depth: number, scope: Scope): string {
    const r = this.r;
    return r.weighted<() => string>([
      [3, () => ""],
      [5, () => String(r.int(-4, 4))],
      [1, () => r.pick(["None", "True", "-100000000000000000000", "'a'"])],
      [1, () => this.sub(depth, scope, P_COND)],
    ])();
  }

  private subscript(depth: number, scope: Scope): Node {
    const r = this.r;
    const obj = this.object(depth, scope);
    if (r.chance(65)) return primary(`${obj}[${this.index(depth, scope)}]`);
    const lower = this.bound(depth, scope);
    const upper = this.bound(depth, scope);
    if (!r.chance(50)) return primary(`${obj}[${lower}:${upper}]`);
    const step = r.weighted<string>([
      [2, ""],
      [6, r.pick(["-1", "2", "-2", "3", "1"])],
      [1, "0"],
      [1, r.pick(["None", "'a'", "1.5"])],
    ]);
    return primary(`${obj}[${lower}:${upper}:${step}]`);
  }

  private attribute(depth: number, scope: Scope): Node {
    const r = this.r;
    const name = r.weighted<string>([
      [6, r.pick(IDENT_KEYS)],
      [3, r.pick([...STR_METHODS, ...DICT_METHODS])],
      [1, r.pick(MISSING_METHODS)],
    ]);
    return primary(`${this.object(depth, scope)}.${name}`);
  }

  private args(depth: number, scope: Scope, min: number, max: number): string[] {
    const n = this.r.int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.arg(depth, scope));
    return out;
  }

  /** An argument: mostly a short literal (so that methods mostly succeed), else any expression. */
  private arg(depth: number, scope: Scope): string {
    const r = this.r;
    return r.weighted<() => string>([
      [4, () => r.pick(STR_LITERALS)],
      [3, () => String(r.int(-3, 4))],
      [1, () => r.pick(["None", "('a', 'b')", "(',', ' ')", "[1]", "1.5"])],
      [4, () => this.sub(depth, scope, P_COND)],
    ])();
  }

  private methodCall(depth: number, scope: Scope): Node {
    const r = this.r;
    const obj = this.object(depth, scope);
    const kind = r.weighted<string>([
      [6, "str"],
      [2, "seq"],
      [3, "dict"],
      [1, "missing"],
    ]);
    if (kind === "dict") {
      const m = r.pick(DICT_METHODS);
      const args = m === "get" ? [r.chance(70) ? JSON.stringify(genKey(r)) : this.arg(depth, scope)] : [];
      if (m === "get" && r.chance(40)) args.push(this.arg(depth, scope));
      return primary(`${obj}.${m}(${args.join(", ")})`);
    }
    if (kind === "seq")
      return primary(`${obj}.${r.pick(SEQ_METHODS)}(${this.args(depth, scope, 1, 3).join(", ")})`);
    if (kind === "missing")
      return primary(`${obj}.${r.pick(MISSING_METHODS)}(${this.args(depth, scope, 0, 1).join(", ")})`);
    const m = r.pick(STR_METHODS);
    if (m === "split" && r.chance(40)) {
      const kw = r.pick(["sep=','", "maxsplit=1", "sep=' ', maxsplit=1", "sep=None"]);
      return primary(`${obj}.split(${kw})`);
    }
    if (m === "join" && r.chance(40)) return primary(`${obj}.join(${this.generatorArg(depth, scope)})`);
    const arity: Record<string, readonly [number, number]> = {
      startswith: [1, 3],
      endswith: [1, 3],
      strip: [0, 1],
      lstrip: [0, 1],
      rstrip: [0, 1],
      split: [0, 2],
      join: [1, 1],
      replace: [2, 3],
      count: [1, 3],
      find: [1, 3],
    };
    const [lo, hi] = arity[m] ?? [0, 0];
    // Now and then a wrong argument count (compared by kind only: DIV-ARITY-MESSAGES).
    const extra = r.chance(4) ? 1 : 0;
    return primary(`${obj}.${m}(${this.args(depth, scope, lo, hi + extra).join(", ")})`);
  }

  /** A generator expression, to be used as the sole argument of a call. */
  private generatorArg(depth: number, scope: Scope): string {
    return this.comprehensionBody(depth, scope);
  }

  private builtinCall(depth: number, scope: Scope): Node {
    const r = this.r;
    const a = () => this.sub(depth, scope, P_COND);
    const f = r.pick([
      "len",
      "bool",
      "int",
      "float",
      "str",
      "abs",
      "any",
      "all",
      "round",
      "min",
      "max",
      "sum",
      "sorted",
    ]);
    if (["any", "all", "sum", "sorted", "min", "max"].includes(f) && r.chance(30)) {
      return primary(`${f}(${this.generatorArg(depth, scope)})`);
    }
    let args: string[];
    switch (f) {
      case "round":
        args = r.chance(50)
          ? [a()]
          : [a(), r.chance(70) ? String(r.int(-2, 3)) : r.pick(["ndigits=1", "None", "ndigits=None"])];
        break;
      case "min":
      case "max":
        args = r.weighted<() => string[]>([
          [4, () => [a()]],
          [2, () => [a(), `default=${a()}`]],
          [3, () => [a(), a(), ...(r.chance(30) ? [a()] : [])]],
        ])();
        break;
      case "sum":
        args = r.chance(60)
          ? [a()]
          : [a(), r.chance(50) ? a() : `start=${r.pick(["0", "0.5", "[]", "''", "10"])}`];
        break;
      case "sorted":
        args = r.chance(50) ? [a()] : [a(), `reverse=${r.pick(["True", "False", "1", "0", "None"])}`];
        break;
      case "int":
      case "float":
      case "bool":
      case "str":
        args = r.chance(10) ? [] : [r.chance(30) ? r.pick(STR_LITERALS) : a()];
        break;
      default:
        args = [a()];
    }
    if (r.chance(2)) args.push(a()); // a wrong argument count now and then
    return primary(`${f}(${args.join(", ")})`);
  }

  private display(depth: number, scope: Scope): Node {
    const r = this.r;
    const items = (n: number) => Array.from({ length: n }, () => this.sub(depth, scope, P_COND));
    return r.weighted<() => Node>([
      [4, () => primary(`[${items(r.int(0, 3)).join(", ")}${r.chance(10) ? "," : ""}]`)],
      [1, () => primary("()")],
      [2, () => primary(`(${items(1)[0]},)`)],
      [2, () => primary(`(${items(r.int(2, 3)).join(", ")}${r.chance(10) ? "," : ""})`)],
      [
        3,
        () => {
          const n = r.int(0, 3);
          const pairs: string[] = [];
          for (let i = 0; i < n; i++) {
            const key = r.chance(60)
              ? r.pick(["'a'", "'b'", "1", "1.0", "True", "None", "(1, 2)", "''"])
              : this.sub(depth, scope, P_COND);
            pairs.push(`${key}: ${this.sub(depth, scope, P_COND)}`);
          }
          return primary(`{${pairs.join(", ")}}`);
        },
      ],
    ])();
  }

  /** `elt for t in it [if c]… [for …]` (without brackets). */
  private comprehensionBody(depth: number, scope: Scope): string {
    const r = this.r;
    const clauses: string[] = [];
    let vars = scope.vars;
    const n = r.weighted([
      [7, 1],
      [3, 2],
    ]);
    for (let i = 0; i < n; i++) {
      const iter = this.sub(depth, { vars }, P_OR);
      const pair = r.chance(20);
      const v1 = r.pick(VAR_NAMES);
      const v2 = r.pick(VAR_NAMES.filter((v) => v !== v1));
      const target = pair ? r.pick([`${v1}, ${v2}`, `(${v1}, ${v2})`, `[${v1}, ${v2}]`]) : v1;
      const iterText = pair && r.chance(60) ? `${this.object(depth, { vars })}.items()` : iter;
      vars = [...vars.filter((v) => v !== v1 && v !== v2), v1, ...(pair ? [v2] : [])];
      clauses.push(`for ${target} in ${iterText}`);
      const ifs = r.weighted([
        [6, 0],
        [3, 1],
        [1, 2],
      ]);
      for (let j = 0; j < ifs; j++) clauses.push(`if ${this.sub(depth, { vars }, P_OR)}`);
    }
    return `${this.sub(depth, { vars }, P_COND)} ${clauses.join(" ")}`;
  }

  private comprehension(depth: number, scope: Scope): Node {
    const body = this.comprehensionBody(depth, scope);
    return primary(this.r.chance(80) ? `[${body}]` : `(${body})`);
  }
}

/** A Python string literal for `s` (escapes only what must be escaped). */
function pyStringLiteral(s: string): string {
  let out = "'";
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === "'") out += "\\'";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else out += ch;
  }
  return `${out}'`;
}
