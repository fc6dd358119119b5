// The ledger and the pricing of run budgets (interpreter/flow/budget.ts, pricing.ts): which flows
// get one, what a usage report charges, when a cap counts as reached, and how the override text
// of STRATUM_MODEL_PRICING_JSON is read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BudgetState } from "../../../interpreter/base/flow-state";
import { charged, newLedger, reachedCap, usageCharge } from "../../../interpreter/flow/budget";
import { BUILT_IN_PRICING, costOf, pricingOverride } from "../../../interpreter/flow/pricing";
import { parseJson } from "../../../stdlib/values/json";
import { PyFloat } from "../../../stdlib/values/value";

type Caps = BudgetState["caps"];
const caps: Caps = { ms: null, usd: null, max_agent_dispatches: null, max_tokens: null };
const ledger = (c: Partial<Caps>): BudgetState => newLedger({ ...caps, ...c })!;
const usage = (json: string) => usageCharge(parseJson(json), BUILT_IN_PRICING);

describe("newLedger", () => {
  it("is null without a budget or without any cap, else every cap is present", () => {
    expect(newLedger(null)).toBeNull();
    expect(newLedger(caps)).toBeNull();
    const l = ledger({ usd: 0.5 });
    expect(l.caps).toEqual({ ...caps, usd: 0.5 });
    expect(l.consumed).toEqual({ wall_s: new PyFloat(0), dispatches: 0, tokens: 0, dollars: new PyFloat(0) });
  });
});

describe("usageCharge", () => {
  it("ignores anything but an object", () => {
    for (const text of ["null", "[1]", "5", '"tokens"']) expect(usage(text)).toBeNull();
  });

  it("charges a pre-priced report as it is, ignoring its token counts", () => {
    expect(
      usage('{"tokens": 60, "dollars": 0.5, "input_tokens": 999999, "model": "claude-sonnet-4-6"}'),
    ).toEqual({
      charge: { tokens: 60, dollars: 0.5 },
      unpriced: null,
    });
    // Either key being non-null makes it pre-priced; a null one counts 0.
    expect(usage('{"tokens": null, "dollars": 0.25, "input_tokens": 10}')?.charge).toEqual({
      tokens: 0,
      dollars: 0.25,
    });
  });

  it("prices token counts by the base model, and names a model it cannot price", () => {
    expect(
      usage('{"input_tokens": 1000, "output_tokens": 1000, "model": "claude-sonnet-4-6"}')?.charge,
    ).toEqual({
      tokens: 2000,
      dollars: (1000 / 1e6) * 3 + (1000 / 1e6) * 15,
    });
    expect(usage('{"input_tokens": 1000, "output_tokens": 0, "model": "gpt-5.4/high"}')?.charge.dollars).toBe(
      (1000 / 1e6) * 1.25,
    );
    expect(usage('{"input_tokens": 5, "output_tokens": 5, "model": "some-unknown-model"}')).toEqual({
      charge: { tokens: 10, dollars: 0 },
      unpriced: "some-unknown-model",
    });
  });

  it("coerces bad values to 0 and never names a model that is not a string", () => {
    expect(usage('{"tokens": -500, "dollars": "NaN"}')?.charge).toEqual({ tokens: 0, dollars: 0 });
    expect(usage('{"input_tokens": "many", "output_tokens": -3, "model": 7}')).toEqual({
      charge: { tokens: 0, dollars: 0 },
      unpriced: null,
    });
  });
});

describe("charged and reachedCap", () => {
  it("adds to the counters, keeps the float counters floats, and sums dollars in order", () => {
    let l = ledger({ usd: 0.02 });
    l = charged(l, { tokens: 2000, dollars: 0.018 });
    l = charged(l, { tokens: 2000, dollars: 0.018 });
    expect(l.consumed).toEqual({
      wall_s: new PyFloat(0),
      dispatches: 0,
      tokens: 4000,
      dollars: new PyFloat(0.036),
    });
    expect(reachedCap(l)).toBe("usd");
  });

  it("counts a cap as reached at equality, ms against wall seconds", () => {
    expect(reachedCap(charged(ledger({ max_tokens: 100 }), { tokens: 99 }))).toBeNull();
    expect(reachedCap(charged(ledger({ max_tokens: 100 }), { tokens: 100 }))).toBe("max_tokens");
    expect(reachedCap(charged(ledger({ ms: 1500 }), { wall_s: 1.499 }))).toBeNull();
    expect(reachedCap(charged(ledger({ ms: 1500 }), { wall_s: 1.5 }))).toBe("ms");
    expect(reachedCap(charged(ledger({ max_agent_dispatches: 1 }), { dispatches: 1 }))).toBe(
      "max_agent_dispatches",
    );
    expect(reachedCap(null)).toBeNull();
  });

  it("never decreases a counter, whatever the charges (property)", () => {
    const charge = fc.record({
      dispatches: fc.nat(5),
      tokens: fc.nat(1000),
      wall_s: fc.double({ min: 0, max: 10, noNaN: true }),
      dollars: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(charge, { maxLength: 20 }), (charges) => {
        let l = ledger({ max_tokens: 5000 });
        let reached = false;
        for (const c of charges) {
          const next = charged(l, c);
          expect(next.consumed.tokens).toBeGreaterThanOrEqual(l.consumed.tokens);
          expect(next.consumed.dispatches).toBeGreaterThanOrEqual(l.consumed.dispatches);
          // Once reached, a cap stays reached.
          if (reached) expect(reachedCap(next)).not.toBeNull();
          reached = reachedCap(next) !== null;
          l = next;
        }
      }),
    );
  });
});

describe("pricingOverride", () => {
  it("is the built-in table without text", () => {
    expect(pricingOverride(undefined)).toEqual({ table: BUILT_IN_PRICING, warning: null });
    expect(pricingOverride("")).toEqual({ table: BUILT_IN_PRICING, warning: null });
  });

  it("merges numeric entries over the table and skips the others silently", () => {
    const { table, warning } = pricingOverride(
      '{"my-model": {"input": 1, "output": 1000}, "bad": {"input": "x"}, "text": {"input": "2", "output": true}, "claude-sonnet-4-6": {"input": 0, "output": 0}, "odd": 5}',
    );
    expect(warning).toBeNull();
    expect(table.get("my-model")).toEqual({ input: 1, output: 1000 });
    expect(table.has("bad")).toBe(false);
    expect(table.has("odd")).toBe(false);
    // float("2") and float(True) succeed in Python.
    expect(table.get("text")).toEqual({ input: 2, output: 1 });
    expect(costOf(table, "claude-sonnet-4-6", 1000, 1000)).toBe(0);
    expect(costOf(table, "my-model", 0, 1000)).toBe(1);
    expect(BUILT_IN_PRICING.get("claude-sonnet-4-6")).toEqual({ input: 3, output: 15 });
  });

  it("ignores text that is not a JSON object, with a warning", () => {
    for (const text of ["{not json", "[1, 2]", "3", "null"]) {
      const { table, warning } = pricingOverride(text);
      expect(table).toBe(BUILT_IN_PRICING);
      expect(warning).toMatch(/^STRATUM_MODEL_PRICING_JSON (is not valid JSON|must be a JSON object)/);
    }
  });
});
