// str.find, str.count, str.startswith, str.endswith with optional start/end bounds, all by code
// point, following CPython's index adjustment (ADJUST_INDICES) and its empty-string rules.
import { typeError } from "../values/errors";
import { cpIndexOf, cpLength, cpSlice } from "../values/strings";
import { PyTuple, type PyValue, typeName } from "../values/value";
import { adjustIndices, sliceBound } from "./common";
import type { EvalEnv } from "./env";

function requireSub(sub: PyValue): string {
  if (typeof sub !== "string") throw typeError(`must be str, not ${typeName(sub)}`);
  return sub;
}

/** The searched region [start, end) in code points, or null when it is shorter than `subLength`. */
function region(
  s: string,
  subLength: number,
  start: number | null,
  end: number | null,
): [number, number] | null {
  const [a, b] = adjustIndices(start, end, cpLength(s));
  return b - a < subLength ? null : [a, b];
}

/** The needle and the searched region of a find/count call, in CPython's checking order. */
function searchArgs(
  s: string,
  sub: PyValue,
  start: PyValue | undefined,
  end: PyValue | undefined,
): { needle: string; bounds: [number, number] | null } {
  // CPython converts the bounds before it checks `sub`.
  const a = sliceBound(start);
  const b = sliceBound(end);
  const needle = requireSub(sub);
  return { needle, bounds: region(s, cpLength(needle), a, b) };
}

export function strFind(
  s: string,
  sub: PyValue,
  start: PyValue | undefined,
  end: PyValue | undefined,
  env: EvalEnv,
): number {
  const { needle, bounds } = searchArgs(s, sub, start, end);
  if (bounds === null) return -1;
  const hay = cpSlice(s, bounds[0], bounds[1]);
  env.budget.charge(hay.length);
  const unit = cpIndexOf(hay, needle);
  return unit < 0 ? -1 : bounds[0] + cpLength(hay.slice(0, unit));
}

export function strCount(
  s: string,
  sub: PyValue,
  start: PyValue | undefined,
  end: PyValue | undefined,
  env: EvalEnv,
): number {
  const { needle, bounds } = searchArgs(s, sub, start, end);
  if (bounds === null) return 0;
  if (needle === "") return bounds[1] - bounds[0] + 1;
  const hay = cpSlice(s, bounds[0], bounds[1]);
  env.budget.charge(hay.length);
  let count = 0;
  for (let i = cpIndexOf(hay, needle); i !== -1; i = cpIndexOf(hay, needle, i + needle.length)) count++;
  return count;
}

/** CPython's tailmatch: does s[start:end] start (or end) with `sub`? */
function tailMatch(
  s: string,
  sub: string,
  start: number | null,
  end: number | null,
  atEnd: boolean,
): boolean {
  const subLength = cpLength(sub);
  const [a, b0] = adjustIndices(start, end, cpLength(s));
  const b = b0 - subLength;
  if (b < a) return false;
  if (subLength === 0) return true;
  const at = atEnd ? b : a;
  return cpSlice(s, at, at + subLength) === sub;
}

export function strStartsOrEndsWith(
  which: "startswith" | "endswith",
  s: string,
  prefix: PyValue,
  start: PyValue | undefined,
  end: PyValue | undefined,
  env: EvalEnv,
): boolean {
  // CPython converts the bounds before it checks `prefix`.
  const a = sliceBound(start);
  const b = sliceBound(end);
  const candidates = prefix instanceof PyTuple ? prefix.items : [prefix];
  if (!(prefix instanceof PyTuple) && typeof prefix !== "string") {
    throw typeError(`${which} first arg must be str or a tuple of str, not ${typeName(prefix)}`);
  }
  for (const candidate of candidates) {
    if (typeof candidate !== "string") {
      throw typeError(`tuple for ${which} must only contain str, not ${typeName(candidate)}`);
    }
    env.budget.charge(1 + candidate.length);
    if (tailMatch(s, candidate, a, b, which === "endswith")) return true;
  }
  return false;
}
