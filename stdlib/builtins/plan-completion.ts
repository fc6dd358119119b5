// plan_completion(plan_items, files_changed, threshold=90) (docs/reference/language.md §10.9): the
// reference's ensure helper that checks a diff against a plan. An item names a `file` (or none: it
// counts as done); it is done when that file is among `files_changed`. A missing `critical` item is a
// violation whatever the threshold; otherwise the share of done items must reach the threshold.
// Violations are raised as `ValueError([...])` with the reference's texts.
import { dictGetStr, hashKey } from "../values/dict";
import { PyError } from "../values/errors";
import { pyCompare } from "../values/ordering";
import { str } from "../values/repr";
import { truthy } from "../values/truth";
import { type DictKey, PyDict, PyFloat, PyNamespace, type PyValue } from "../values/value";
import { elements } from "./common";
import { pyLen } from "./conversions";
import type { EvalEnv } from "./env";
import { violationList } from "./violation-list";

/** `item.get(name, absent)` for a dict, `getattr(item, name, absent)` for anything else. */
function field(item: PyValue, name: string, absent: PyValue): PyValue {
  const fields = item instanceof PyDict ? item : item instanceof PyNamespace ? item.dict : null;
  const value = fields === null ? undefined : dictGetStr(fields, name);
  return value === undefined ? absent : value;
}

/** A number as Python's float, for `format(x, '.0f')`. */
function asFloat(x: PyValue): number {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") return x;
  if (x instanceof PyFloat) return x.v;
  if (typeof x === "bigint") {
    const n = Number(x);
    if (!Number.isFinite(n)) throw new PyError("OverflowError", "int too large to convert to float");
    return n;
  }
  throw new PyError("TypeError", "unsupported format string passed to object.__format__");
}

/** `format(x, '.0f')`: rounded half to even on the float's exact value. */
function formatNoDecimals(value: PyValue): string {
  const x = asFloat(value);
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let digits: string;
  if (a >= 2 ** 52) digits = BigInt(a).toString();
  else {
    const floor = Math.floor(a);
    const rest = a - floor; // exact below 2^52
    const up = rest > 0.5 || (rest === 0.5 && floor % 2 === 1);
    digits = String(up ? floor + 1 : floor);
  }
  return negative ? `-${digits}` : digits;
}

export function planCompletion(
  planItems: PyValue,
  filesChanged: PyValue,
  threshold: PyValue | undefined,
  env: EvalEnv,
): boolean {
  if (!truthy(planItems)) return true;
  const limit = threshold ?? 90;
  const changed = new Set<DictKey>();
  for (const f of elements(truthy(filesChanged) ? filesChanged : [], env)) changed.add(hashKey(f));

  let done = 0;
  const missing: [item: PyValue, file: PyValue][] = [];
  for (const item of elements(planItems, env)) {
    const file = field(item, "file", null);
    if (truthy(file) && changed.has(hashKey(file))) done++;
    else if (truthy(file)) missing.push([item, file]);
    else done++;
  }
  const completion = (done / Number(pyLen(planItems))) * 100;

  const critical = missing
    .filter(([item]) => truthy(field(item, "critical", false)))
    .map(
      ([item, file]) =>
        `Missing critical item: ${str(field(item, "text", ""), env.budget)} (expected in ${str(file, env.budget)})`,
    );
  if (critical.length > 0) throw violationList(critical);

  if (pyCompare("<", new PyFloat(completion), limit, env.budget)) {
    throw violationList([
      `Plan completion ${formatNoDecimals(new PyFloat(completion))}% is below threshold ${formatNoDecimals(limit)}%`,
      ...missing.map(
        ([item, file]) =>
          `Missing item: ${str(field(item, "text", ""), env.budget)} (expected in ${str(file, env.budget)})`,
      ),
    ]);
  }
  return true;
}
