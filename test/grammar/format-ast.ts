// Test helpers: a compact, deterministic rendering of an AST (with or without offsets), used by
// the table tests, the differential test against CPython's `ast` and the round-trip properties.
import type { Comprehension, Expr, Keyword, Slice, Target } from "../../grammar/ast";
import { floatRepr, strRepr } from "../../stdlib/values/repr";

export interface FormatOptions {
  /** Append `@start-end` to every node (default true). */
  readonly offsets?: boolean;
}

function constantRepr(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return strRepr(v);
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "object" && v !== null && "v" in v && typeof v.v === "number") return `f${floatRepr(v.v)}`;
  return "?";
}

export function formatExpr(e: Expr | Slice, options: FormatOptions = {}): string {
  const withOffsets = options.offsets ?? true;
  const at = (n: { start: number; end: number }): string => (withOffsets ? `@${n.start}-${n.end}` : "");
  const list = (xs: readonly Expr[]): string => `[${xs.map((x) => fmt(x)).join(", ")}]`;
  const target = (t: Target): string =>
    t.kind === "Name" ? `${t.id}${at(t)}` : `(${t.elts.map(target).join(", ")},)`;
  const comps = (gs: readonly Comprehension[]): string =>
    gs
      .map((g) => ` for ${target(g.target)} in ${fmt(g.iter)}${g.ifs.map((c) => ` if ${fmt(c)}`).join("")}`)
      .join("");
  const kw = (k: Keyword): string => `${k.name}=${fmt(k.value)}${at(k)}`;
  const opt = (x: Expr | null): string => (x === null ? "_" : fmt(x));

  function fmt(n: Expr | Slice): string {
    switch (n.kind) {
      case "Constant":
        return `Const(${constantRepr(n.value)})${at(n)}`;
      case "Name":
        return `Name(${n.id})${at(n)}`;
      case "Path":
        return `Path(${n.text})${at(n)}`;
      case "Error":
        return `Error${at(n)}`;
      case "Attribute":
        return `Attr(${fmt(n.value)}, ${n.attr})${at(n)}`;
      case "Subscript":
        return `Sub(${fmt(n.value)}, ${fmt(n.index)})${at(n)}`;
      case "Slice":
        return `Slice(${opt(n.lower)}, ${opt(n.upper)}, ${opt(n.step)})${at(n)}`;
      case "Call":
        return `Call(${fmt(n.func)}, ${list(n.args)}, [${n.keywords.map(kw).join(", ")}])${at(n)}`;
      case "UnaryOp":
        return `Unary(${n.op}, ${fmt(n.operand)})${at(n)}`;
      case "BinOp":
        return `Bin(${n.op}, ${fmt(n.left)}, ${fmt(n.right)})${at(n)}`;
      case "BoolOp":
        return `Bool(${n.op}, ${list(n.values)})${at(n)}`;
      case "Compare":
        return `Cmp(${fmt(n.left)}, [${n.ops.map((o) => o.op).join(", ")}], ${list(n.comparators)})${at(n)}`;
      case "IfExp":
        return `If(${fmt(n.test)}, ${fmt(n.body)}, ${fmt(n.orelse)})${at(n)}`;
      case "List":
        return `List(${list(n.elts)})${at(n)}`;
      case "Tuple":
        return `Tuple(${list(n.elts)})${at(n)}`;
      case "Dict":
        return `Dict([${n.keys.map((k, i) => `${fmt(k)}: ${fmt(n.values[i]!)}`).join(", ")}])${at(n)}`;
      case "ListComp":
        return `ListComp(${fmt(n.elt)}${comps(n.generators)})${at(n)}`;
      case "GeneratorExp":
        return `Gen(${fmt(n.elt)}${comps(n.generators)})${at(n)}`;
    }
  }
  return fmt(e);
}

/** A Python program printing, for each expression of a JSON list on stdin, the same format. */
export const PYTHON_FORMATTER = `
import ast, json, sys

OPS = {ast.Add: '+', ast.Sub: '-', ast.Mult: '*', ast.Div: '/', ast.FloorDiv: '//', ast.Mod: '%',
       ast.Not: 'not', ast.USub: '-', ast.UAdd: '+', ast.And: 'and', ast.Or: 'or',
       ast.Eq: '==', ast.NotEq: '!=', ast.Lt: '<', ast.LtE: '<=', ast.Gt: '>', ast.GtE: '>=',
       ast.In: 'in', ast.NotIn: 'not in', ast.Is: 'is', ast.IsNot: 'is not'}

def at(n, start=None, end=None):
    return '@%d-%d' % (n.col_offset if start is None else start, n.end_col_offset if end is None else end)

def const(v):
    if isinstance(v, float):
        return 'f' + repr(v)
    return repr(v)

def target(t):
    if isinstance(t, ast.Name):
        return t.id + at(t)
    return '(' + ', '.join(target(e) for e in t.elts) + ',)'

def comps(gs):
    out = ''
    for g in gs:
        out += ' for ' + target(g.target) + ' in ' + fmt(g.iter) + ''.join(' if ' + fmt(c) for c in g.ifs)
    return out

def lst(xs):
    return '[' + ', '.join(fmt(x) for x in xs) + ']'

def gen_span(g):
    last = g.generators[-1]
    end = max([last.iter.end_col_offset] + [c.end_col_offset for c in last.ifs])
    return g.elt.col_offset, end

def fmt(n):
    k = type(n)
    if k is ast.Constant: return 'Const(%s)%s' % (const(n.value), at(n))
    if k is ast.Name: return 'Name(%s)%s' % (n.id, at(n))
    if k is ast.Attribute: return 'Attr(%s, %s)%s' % (fmt(n.value), n.attr, at(n))
    if k is ast.Subscript: return 'Sub(%s, %s)%s' % (fmt(n.value), fmt(n.slice), at(n))
    if k is ast.Slice:
        o = lambda x: '_' if x is None else fmt(x)
        return 'Slice(%s, %s, %s)%s' % (o(n.lower), o(n.upper), o(n.step), at(n))
    if k is ast.Call:
        args = n.args
        if len(args) == 1 and not n.keywords and isinstance(args[0], ast.GeneratorExp):
            g = args[0]
            s, e = gen_span(g)
            a = '[Gen(%s%s)%s]' % (fmt(g.elt), comps(g.generators), at(g, s, e))
        else:
            a = lst(args)
        kws = ', '.join('%s=%s%s' % (kw.arg, fmt(kw.value), at(kw)) for kw in n.keywords)
        return 'Call(%s, %s, [%s])%s' % (fmt(n.func), a, kws, at(n))
    if k is ast.UnaryOp: return 'Unary(%s, %s)%s' % (OPS[type(n.op)], fmt(n.operand), at(n))
    if k is ast.BinOp: return 'Bin(%s, %s, %s)%s' % (OPS[type(n.op)], fmt(n.left), fmt(n.right), at(n))
    if k is ast.BoolOp: return 'Bool(%s, %s)%s' % (OPS[type(n.op)], lst(n.values), at(n))
    if k is ast.Compare:
        return 'Cmp(%s, [%s], %s)%s' % (fmt(n.left), ', '.join(OPS[type(o)] for o in n.ops), lst(n.comparators), at(n))
    if k is ast.IfExp: return 'If(%s, %s, %s)%s' % (fmt(n.test), fmt(n.body), fmt(n.orelse), at(n))
    if k is ast.List: return 'List(%s)%s' % (lst(n.elts), at(n))
    if k is ast.Tuple: return 'Tuple(%s)%s' % (lst(n.elts), at(n))
    if k is ast.Dict:
        return 'Dict([%s])%s' % (', '.join('%s: %s' % (fmt(a), fmt(b)) for a, b in zip(n.keys, n.values)), at(n))
    if k is ast.ListComp: return 'ListComp(%s%s)%s' % (fmt(n.elt), comps(n.generators), at(n))
    if k is ast.GeneratorExp: return 'Gen(%s%s)%s' % (fmt(n.elt), comps(n.generators), at(n))
    return '?' + k.__name__

out = []
for src in json.load(sys.stdin):
    out.append(fmt(ast.parse(src, mode='eval').body))
print(json.dumps(out))
`;
