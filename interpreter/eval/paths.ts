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

/** Every segment of the path read from a property state root. */
function fromState(state: PyValue, segments: readonly string[]): PyValue {
  let v = state;
  for (let i = 0; i < segments.length && v !== null; i++) v = step(v, segments[i]!);
  return v;
}

export function compilePath(node: Path): Code {
  const ref = node.ref;
  const segments = node.text.slice(2).split(".");
  if (ref === null) {
    return (ctx) => {
      ctx.env.budget.charge(1);
      const state = ctx.paths?.state;
      return state === undefined ? null : fromState(state, segments);
    };
  }
  const name = ref.name.name;
  const fields = ref.fields.map((f: PathSegment) => f.name);
  const fromInput = ref.scope === "input";
  return (ctx) => {
    ctx.env.budget.charge(1);
    const paths = ctx.paths;
    if (paths === undefined) return null;
    if (paths.state !== undefined) return fromState(paths.state, segments);
    let v: PyValue = (fromInput ? paths.input(name) : paths.stepOutput(name)) ?? null;
    for (let i = 0; i < fields.length && v !== null; i++) v = step(v, fields[i]!);
    return v;
  };
}
