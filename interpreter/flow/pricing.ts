// The token → USD pricing of run budgets (docs/reference/runtime.md §11.4): the reference's static
// table, copied from stratum-mcp 0.2.69 (smartmemory/stratum 63fc11d,
// stratum-mcp/src/stratum_mcp/pricing.py, MODEL_PRICING), and the override a host reads from
// STRATUM_MODEL_PRICING_JSON. Pure: the core reads no environment; host/compose.ts parses the
// variable with `pricingOverride` and hands the merged table to the engine.
import { parsePyFloat } from "./py-numbers";

/** USD per million tokens. */
interface ModelRates {
  readonly input: number;
  readonly output: number;
}

/** Base model id (no `/effort` suffix) → rates. */
export type PricingTable = ReadonlyMap<string, ModelRates>;

const rates = (input: number, output: number): ModelRates => ({ input, output });

/** The built-in table: approximate list prices, a ceiling estimator rather than billing. */
export const BUILT_IN_PRICING: PricingTable = new Map([
  ["claude-sonnet-4-6", rates(3, 15)],
  ["claude-opus-4-8", rates(15, 75)],
  ["claude-opus-4-7", rates(15, 75)],
  ["claude-opus-4-6", rates(15, 75)],
  ["claude-haiku-4-5", rates(1, 5)],
  ["gpt-5.4", rates(1.25, 10)],
  ["gpt-5.2-codex", rates(1.25, 10)],
  ["gpt-5.1-codex-max", rates(1.25, 10)],
  ["gpt-5.1-codex", rates(1.25, 10)],
  ["gpt-5.1-codex-mini", rates(0.25, 2)],
]);

/** The parsed override: the merged table, and a warning when the text was not used. */
export interface PricingOverride {
  readonly table: PricingTable;
  readonly warning: string | null;
}

const VARIABLE = "STRATUM_MODEL_PRICING_JSON";

/**
 * The built-in table with the override text merged over it, as the reference reads its variable:
 * empty or absent text is no override; text that is not JSON, or JSON that is not an object, is
 * ignored with a warning; an entry that is not an object or whose `input` or `output` Python's
 * float() would refuse is skipped silently.
 */
export function pricingOverride(text: string | undefined): PricingOverride {
  if (text === undefined || text === "") return { table: BUILT_IN_PRICING, warning: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      table: BUILT_IN_PRICING,
      warning: `${VARIABLE} is not valid JSON; ignoring (using built-in prices)`,
    };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { table: BUILT_IN_PRICING, warning: `${VARIABLE} must be a JSON object; ignoring` };
  }
  const merged = new Map(BUILT_IN_PRICING);
  for (const [model, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const input = jsonFloat((entry as Record<string, unknown>).input);
    const output = jsonFloat((entry as Record<string, unknown>).output);
    if (input === null || output === null) continue;
    merged.set(model, rates(input, output));
  }
  return { table: merged, warning: null };
}

/** Python's float() of a JSON value: numbers, booleans and numeric text; null when it raises. */
function jsonFloat(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return parsePyFloat(v);
  return null;
}

/** The model id the table is keyed by: a `/effort` suffix cut off; "" for a non-string. */
export function baseModel(model: unknown): string {
  if (typeof model !== "string") return "";
  const slash = model.indexOf("/");
  return slash < 0 ? model : model.slice(0, slash);
}

/** USD of one usage report; an unpriced model costs 0 (it under-counts, never blocks). */
export function costOf(
  table: PricingTable,
  model: unknown,
  inputTokens: number,
  outputTokens: number,
): number {
  const r = table.get(baseModel(model));
  if (r === undefined) return 0;
  return (inputTokens / 1_000_000) * r.input + (outputTokens / 1_000_000) * r.output;
}

export function isPriced(table: PricingTable, model: unknown): boolean {
  return table.has(baseModel(model));
}
