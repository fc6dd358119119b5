// `$` paths (docs/reference/language.md §10.5): evaluation never raises; anything unresolvable is None.
import type { Path, PathSegment } from "../../grammar/ast";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, PyNamespace, PyTuple, type PyValue } from "../../stdlib/values/value";
import type { Code } from "./context";

const DIGITS = /^[0-9]+$/;

/** One `.SEG` step applied to the current value. */
function step(v: PyValue, seg: string): PyValue {
  if (v === null) return null;
  if (v instanceof PyDict) return dictGetStr(v, seg) ?? null;
  // Path values are plain dicts; a namespace can only appear if a host passes one in.
  if (v instanceof PyNamespace) return dictGetStr(v.dict, seg) ?? null;
  const items = Array.isArray(v) ? (v as readonly PyValue[]) : v instanceof PyTuple ? v.items : null;
  if (items !== null && DIGITS.test(seg)) {
    const index = Number(seg);
    return index < items.length ? (items[index] ?? null) : null;
  }
  return null;
}

export function compilePath(node: Path): Code {
  const ref = node.ref;
  if (ref === null) {
    return (ctx) => {
      ctx.env.budget.charge(1);
      return null;
    };
  }
  const name = ref.name.name;
  const fields = ref.fields.map((f: PathSegment) => f.name);
  const fromInput = ref.scope === "input";
  return (ctx) => {
    ctx.env.budget.charge(1);
    const paths = ctx.paths;
    if (paths === undefined) return null;
    let v: PyValue = (fromInput ? paths.input(name) : paths.stepOutput(name)) ?? null;
    for (let i = 0; i < fields.length && v !== null; i++) v = step(v, fields[i]!);
    return v;
  };
}
