// The accumulator (docs/reference/runtime.md §9.3) in isolation: dedup by canonical JSON keys, first occurrence
// wins, dry streaks, failures, values outside the JSON kinds, and a model-based property test.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExpressionIR } from "../../../checker/ir/types";
import type { Accumulator } from "../../../interpreter/base/flow-state";
import { accumulateReport, emptyAccumulator, storedJson } from "../../../interpreter/flow/accumulator";
import { bindable, evaluateIn } from "../../../interpreter/flow/expressions";
import { makeDict } from "../../../stdlib/values/dict";
import { canonicalJson } from "../../../stdlib/values/json";
import { PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";
import { data, plain, world } from "./support";

function stepWith(accumulate: string, accumulateKey?: string) {
  const spec = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "S"
        max_iterations: 9
        accumulate: ${JSON.stringify(accumulate)}
${accumulateKey === undefined ? "" : `        accumulate_key: ${JSON.stringify(accumulateKey)}\n`}`;
  const { tx, run } = world(spec);
  const step = run.flow.stepById.get("s");
  if (step === undefined) throw new Error("no step");
  const evaluate = (expr: ExpressionIR, name: string, value: PyValue) =>
    evaluateIn(tx, run, expr, new Map([[name, bindable(value)]]));
  return {
    step,
    apply: (previous: Accumulator, result: unknown) =>
      accumulateReport(previous, step, data(result), evaluate),
    applyValue: (previous: Accumulator, result: PyValue) =>
      accumulateReport(previous, step, result, evaluate),
  };
}

describe("accumulateReport", () => {
  it("keeps the first element of each key, in order, and counts new ones", () => {
    const { apply } = stepWith("result.findings", "item.id");
    const one = apply(emptyAccumulator(), { findings: [{ id: 1, t: "a" }, { id: 1, t: "dup" }, { id: 2 }] });
    expect(one.newCount).toBe(2);
    expect(one.error).toBeNull();
    expect(plain(one.accumulator.items)).toEqual([{ id: 1, t: "a" }, { id: 2 }]);
    expect(one.accumulator.seen).toEqual(["1", "2"]);
    expect(one.accumulator.dry_streak).toBe(0);
  });

  it("does not mutate the previous accumulator", () => {
    const { apply } = stepWith("result.xs");
    const previous = emptyAccumulator();
    const next = apply(previous, { xs: [1, 2] });
    expect(previous).toEqual({ items: [], seen: [], dry_streak: 0 });
    const after = apply(next.accumulator, { xs: [] });
    expect(plain(next.accumulator.items)).toEqual([1, 2]);
    expect(next.accumulator.dry_streak).toBe(0);
    expect(after.accumulator.dry_streak).toBe(1);
  });

  it("distinguishes 1 from 1.0 and '1' by canonical text, and equates key order of objects", () => {
    const { applyValue } = stepWith("result.xs");
    const elements = [...(data([1, "1", { b: 1, a: 2 }, { a: 2, b: 1 }]) as PyValue[]), new PyFloat(1), 1];
    const outcome = applyValue(emptyAccumulator(), makeDict([["xs", elements]]));
    expect(outcome.accumulator.seen).toEqual(["1", '"1"', '{"a": 2, "b": 1}', "1.0"]);
    expect(outcome.newCount).toBe(4);
  });

  it("uses the element itself as its key when accumulate_key raises for it", () => {
    const { apply } = stepWith("result.xs", "item.id");
    const outcome = apply(emptyAccumulator(), { xs: [{ id: 1 }, { other: 1 }, { other: 1 }, 7] });
    expect(outcome.accumulator.seen).toEqual(["1", '{"other": 1}', "7"]);
    expect(outcome.newCount).toBe(3);
  });

  it("a raising accumulate keeps items and dry streak and reports the error", () => {
    const { apply } = stepWith("result.xs");
    const base = apply(emptyAccumulator(), { xs: [] }).accumulator;
    const outcome = apply(base, { ys: [] });
    expect(outcome.error).toBe(
      "Expression 'result.xs' raised: 'types.SimpleNamespace' object has no attribute 'xs'",
    );
    expect(outcome.newCount).toBeNull();
    expect(outcome.accumulator).toBe(base);
  });

  it("a non-list value is an error (a tuple too)", () => {
    const { apply: applyTuple } = stepWith("result.xs[0:1] if False else (1, 2)");
    expect(applyTuple(emptyAccumulator(), { xs: [] }).error).toBe(
      "accumulate expression 'result.xs[0:1] if False else (1, 2)' did not return a list",
    );
  });

  it("stores namespaces and tuples as JSON data (as a restore from disk would give them)", () => {
    const { apply } = stepWith("[result, (1, 'a')]");
    const outcome = apply(emptyAccumulator(), { k: 1 });
    const [first, second] = outcome.accumulator.items;
    expect(first).toBeInstanceOf(PyDict);
    expect(plain(first as PyValue)).toEqual({ k: 1 });
    expect(second).toEqual([1, "a"]);
    // The key of a namespace is its str() text (canonical JSON, docs/reference/language.md §10.16).
    expect(outcome.accumulator.seen[0]).toBe('"namespace(k=1)"');
  });

  it("without accumulate returns the accumulator unchanged", () => {
    const { tx, run } = world(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "S"
        max_iterations: 2
`);
    const step = run.flow.stepById.get("s");
    if (step === undefined) throw new Error("no step");
    const previous = emptyAccumulator();
    const outcome = accumulateReport(previous, step, data({}), (expr, name, value) =>
      evaluateIn(tx, run, expr, new Map([[name, value]])),
    );
    expect(outcome).toEqual({ accumulator: previous, newCount: null, error: null, raised: null });
    expect(outcome.accumulator).toBe(previous);
  });
});

describe("storedJson", () => {
  it("returns JSON data as it is", () => {
    const value = data({ a: [1, 2.5, null, "x"] });
    expect(storedJson(value)).toBe(value);
  });
});

const jsonLeaf = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom("a", "b", "é"),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(0.5, 1.5),
);
const jsonElement = fc.oneof(jsonLeaf, fc.dictionary(fc.constantFrom("a", "b"), jsonLeaf, { maxKeys: 2 }));

describe("accumulator properties", () => {
  it("equals a first-occurrence dedup of all elements by canonical JSON; dry streak counts trailing dry reports", () => {
    const { apply } = stepWith("result.xs");
    fc.assert(
      fc.property(fc.array(fc.array(jsonElement, { maxLength: 4 }), { maxLength: 6 }), (reports) => {
        let acc = emptyAccumulator();
        const modelSeen: string[] = [];
        const modelItems: unknown[] = [];
        let modelDry = 0;
        for (const xs of reports) {
          const outcome = apply(acc, { xs });
          let added = 0;
          for (const x of xs) {
            const text = canonicalJson(data(x));
            if (!modelSeen.includes(text)) {
              modelSeen.push(text);
              modelItems.push(x);
              added++;
            }
          }
          modelDry = added > 0 ? 0 : modelDry + 1;
          expect(outcome.newCount).toBe(added);
          acc = outcome.accumulator;
        }
        expect(acc.seen).toEqual(modelSeen);
        expect(plain(acc.items)).toEqual(modelItems);
        expect(acc.dry_streak).toBe(modelDry);
        expect(new Set(acc.seen).size).toBe(acc.seen.length);
      }),
      { numRuns: 150 },
    );
  });
});
