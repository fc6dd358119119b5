// The iteration accumulator (docs/reference/runtime.md §9.3): collects the elements that `accumulate` extracts
// from each iteration result, deduplicated by the canonical JSON text (docs/reference/language.md §10.16) of
// their `accumulate_key` (or of the element itself), first occurrence winning.
//
// Pure: expressions are evaluated through the injected `evaluate`, which binds the named value the
// way the flow does (`result` / `item` as namespaces). Accumulators of the committed state are
// never mutated; every report builds a new one.
import type { ExpressionIR } from "../../checker/ir/types";
import { canonicalJson, parseJson, toJson } from "../../stdlib/values/json";
import { strRepr } from "../../stdlib/values/repr";
import { PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";
import type { Accumulator } from "../base/flow-state";
import type { Evaluation } from "./expressions";
import type { RaisedError } from "./violations";

/** Evaluates `expr` with one position name bound to `value` (`result` or `item`). */
export type BoundEvaluator = (expr: ExpressionIR, name: "result" | "item", value: PyValue) => Evaluation;

export interface AccumulationFields {
  readonly accumulate: ExpressionIR | null;
  readonly accumulateKey: ExpressionIR | null;
}

export interface Accumulation {
  /** The accumulator after this report (a new object). */
  readonly accumulator: Accumulator;
  /** Elements added by this report; null when `accumulate` failed (or the step has none). */
  readonly newCount: number | null;
  /** `accumulate_error` of the report, or null. */
  readonly error: string | null;
  /** What `accumulate` raised (null when it did not raise). */
  readonly raised: RaisedError | null;
}

export function emptyAccumulator(): Accumulator {
  return { items: [], seen: [], dry_streak: 0 };
}

/**
 * One report's accumulation. Without `accumulate` the accumulator is returned unchanged (it still
 * exists, docs/reference/runtime.md §4.6); a failed extraction leaves items and dry streak as they were (a broken extractor
 * cannot fake dryness).
 */
export function accumulateReport(
  previous: Accumulator,
  step: AccumulationFields,
  result: PyValue,
  evaluate: BoundEvaluator,
): Accumulation {
  if (step.accumulate === null) return { accumulator: previous, newCount: null, error: null, raised: null };
  const extracted = evaluate(step.accumulate, "result", result);
  if (!extracted.ok) {
    const error = `Expression ${strRepr(step.accumulate.text)} raised: ${extracted.message}`;
    return { accumulator: previous, newCount: null, error, raised: extracted.error };
  }
  if (!Array.isArray(extracted.value)) {
    const error = `accumulate expression ${strRepr(step.accumulate.text)} did not return a list`;
    return { accumulator: previous, newCount: null, error, raised: null };
  }
  const items = [...previous.items];
  const seen = [...previous.seen];
  const seenSet = new Set(seen);
  let added = 0;
  for (const element of extracted.value as readonly PyValue[]) {
    const key = keyOf(element, step.accumulateKey, evaluate);
    const text = canonicalJson(key);
    if (seenSet.has(text)) continue;
    seenSet.add(text);
    seen.push(text);
    items.push(storedJson(element));
    added++;
  }
  const dryStreak = added > 0 ? 0 : previous.dry_streak + 1;
  return { accumulator: { items, seen, dry_streak: dryStreak }, newCount: added, error: null, raised: null };
}

/** The dedup key: `accumulate_key` of the element, or the element itself (also when the key fails). */
function keyOf(element: PyValue, keyExpr: ExpressionIR | null, evaluate: BoundEvaluator): PyValue {
  if (keyExpr === null) return element;
  const key = evaluate(keyExpr, "item", element);
  return key.ok ? key.value : element;
}

/**
 * Items are stored (and persisted) as JSON data. An extractor can produce values outside the JSON
 * kinds (a namespace from `[result]`, tuples from `.items()`); they are stored as a JSON round trip
 * would give them back, so the in-memory accumulator equals the one restored from disk.
 */
export function storedJson(value: PyValue): PyValue {
  return isJsonData(value) ? value : parseJson(toJson(value));
}

function isJsonData(v: PyValue): boolean {
  if (v === null || typeof v !== "object") return true;
  if (v instanceof PyFloat) return true;
  if (Array.isArray(v)) return (v as readonly PyValue[]).every(isJsonData);
  if (v instanceof PyDict) {
    for (const [k, val] of v.entries.values()) if (typeof k !== "string" || !isJsonData(val)) return false;
    return true;
  }
  return false;
}
