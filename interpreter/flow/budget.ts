// The run-budget ledger (docs/reference/runtime.md §11.4): which flows have one, what a report of
// usage charges, and when a cap is reached. Pure: the callers (step-done.ts, budget-stop.ts, the
// parallel executor) own the flow and its persistence. Values are coerced as the reference
// coerces them (run_budget.py nonneg_int / nonneg_float), so that bad input never raises and
// never credits the ledger back.
import type { BudgetIR } from "../../checker/ir/types";
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";
import type { BudgetState } from "../base/flow-state";
import { costOf, isPriced, type PricingTable } from "./pricing";
import { parsePyFloat, parsePyInt } from "./py-numbers";

/** A flow's ledger: only when its budget sets one of the four caps; null otherwise. */
export function newLedger(budget: BudgetIR | null): BudgetState | null {
  if (budget === null) return null;
  const { ms, usd, max_agent_dispatches, max_tokens } = budget;
  if (ms === null && usd === null && max_agent_dispatches === null && max_tokens === null) return null;
  return {
    caps: { ms, usd, max_agent_dispatches, max_tokens },
    consumed: { wall_s: new PyFloat(0), dispatches: 0, tokens: 0, dollars: new PyFloat(0) },
  };
}

/** Python's int(x) when it succeeds and is positive, else 0 (a float is truncated; NaN and ±inf give 0). */
export function nonnegInt(x: PyValue | undefined): number {
  let v: number | null;
  if (typeof x === "boolean") v = x ? 1 : 0;
  else if (typeof x === "number") v = x;
  else if (typeof x === "bigint") v = Number(x);
  else if (x instanceof PyFloat) v = Number.isFinite(x.v) ? Math.trunc(x.v) : null;
  else if (typeof x === "string") v = parsePyInt(x);
  else v = null;
  return v !== null && v > 0 ? v : 0;
}

/** Python's float(x) when it succeeds, is finite and not negative, else 0. */
export function nonnegFloat(x: PyValue | undefined): number {
  let v: number | null;
  if (typeof x === "boolean") v = x ? 1 : 0;
  else if (typeof x === "number") v = x;
  else if (typeof x === "bigint") v = Number(x);
  else if (x instanceof PyFloat) v = x.v;
  else if (typeof x === "string") v = parsePyFloat(x);
  else v = null;
  return v !== null && Number.isFinite(v) && v >= 0 ? v : 0;
}

/** What one report charges. */
export interface Charge {
  readonly dispatches?: number;
  readonly tokens?: number;
  readonly wall_s?: number;
  readonly dollars?: number;
}

/** The charge of a `usage` object, and the model it could not price (named in a warning). */
export interface UsageCharge {
  readonly charge: Charge;
  /** A non-empty model id the table does not know (only on the token-count form). */
  readonly unpriced: string | null;
}

/**
 * The charge of the `usage` of stratum_step_done; null when it is not an object. Pre-priced when
 * `tokens` or `dollars` is present and not null: those two are charged and the token counts beside
 * them are ignored. Otherwise input + output tokens, priced by `model`.
 */
export function usageCharge(usage: PyValue | undefined, pricing: PricingTable): UsageCharge | null {
  if (!(usage instanceof PyDict)) return null;
  const field = (key: string): PyValue | undefined => dictGetStr(usage, key);
  const tokens = field("tokens");
  const dollars = field("dollars");
  if ((tokens !== undefined && tokens !== null) || (dollars !== undefined && dollars !== null)) {
    return { charge: { tokens: nonnegInt(tokens), dollars: nonnegFloat(dollars) }, unpriced: null };
  }
  const input = nonnegInt(field("input_tokens"));
  const output = nonnegInt(field("output_tokens"));
  const model = pyTruthy(field("model")) ? field("model") : "";
  const unpriced = typeof model === "string" && model !== "" && !isPriced(pricing, model) ? model : null;
  return { charge: { tokens: input + output, dollars: costOf(pricing, model, input, output) }, unpriced };
}

/** The ledger after a charge (counters only grow; float counters stay floats). */
export function charged(ledger: BudgetState, charge: Charge): BudgetState {
  const c = ledger.consumed;
  return {
    caps: ledger.caps,
    consumed: {
      wall_s: new PyFloat(numberOf(c.wall_s) + (charge.wall_s ?? 0)),
      dispatches: c.dispatches + Math.trunc(charge.dispatches ?? 0),
      tokens: c.tokens + Math.trunc(charge.tokens ?? 0),
      dollars: new PyFloat(numberOf(c.dollars) + (charge.dollars ?? 0)),
    },
  };
}

/** Which cap is reached (consumed ≥ cap; `ms` as wall seconds ≥ ms / 1000), in the reference's order; null when none. */
export function reachedCap(
  ledger: BudgetState | null,
): "ms" | "max_agent_dispatches" | "max_tokens" | "usd" | null {
  if (ledger === null) return null;
  const { caps, consumed } = ledger;
  if (caps.ms !== null && numberOf(consumed.wall_s) >= caps.ms / 1000) return "ms";
  if (caps.max_agent_dispatches !== null && consumed.dispatches >= caps.max_agent_dispatches) {
    return "max_agent_dispatches";
  }
  if (caps.max_tokens !== null && consumed.tokens >= caps.max_tokens) return "max_tokens";
  if (caps.usd !== null && numberOf(consumed.dollars) >= caps.usd) return "usd";
  return null;
}

export function budgetExhausted(ledger: BudgetState | null): boolean {
  return reachedCap(ledger) !== null;
}

/** A stored counter (a float, or an int in a file another program wrote). */
function numberOf(v: PyValue): number {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  return 0;
}

/** Python truthiness of the JSON kinds a usage object holds (`usage.get("model") or ""`). */
function pyTruthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (v instanceof PyFloat) return v.v !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyDict) return v.entries.size > 0;
  return true;
}
