// What a store remembers of recent flows (interpreter/store/recent-flows.ts): bounded, the least
// recently remembered forgotten first, against a plain model.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_RECENT_FLOWS, RecentFlows } from "../../../interpreter/store/recent-flows";

type Op =
  | { readonly kind: "remember"; readonly id: string; readonly value: number }
  | { readonly kind: "forget"; readonly id: string }
  | { readonly kind: "clear" };

const id = fc.constantFrom("a", "b", "c", "d", "e", "f");
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("remember" as const), id, value: fc.integer() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant("forget" as const), id }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("clear" as const) }), weight: 1 },
);

describe("recent flows", () => {
  it("remembers 4096 flows by default", () => {
    expect(MAX_RECENT_FLOWS).toBe(4096);
    const recent = new RecentFlows<number>();
    for (let i = 0; i <= MAX_RECENT_FLOWS; i++) recent.remember(`f${i}`, i);
    expect(recent.size).toBe(MAX_RECENT_FLOWS);
    expect(recent.has("f0")).toBe(false);
    expect(recent.get(`f${MAX_RECENT_FLOWS}`)).toBe(MAX_RECENT_FLOWS);
  });

  it("remembering again makes a flow the most recent", () => {
    const recent = new RecentFlows<number>(2);
    recent.remember("a", 1);
    recent.remember("b", 2);
    recent.remember("a", 3);
    recent.remember("c", 4);
    expect(recent.has("b")).toBe(false);
    expect(recent.get("a")).toBe(3);
    expect(recent.get("c")).toBe(4);
  });

  it("behaves as a model list under any operations", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 50 }), (limit, ops) => {
        const recent = new RecentFlows<number>(limit);
        let model: [string, number][] = []; // least recent first
        for (const o of ops) {
          if (o.kind === "remember") {
            model = [...model.filter(([k]) => k !== o.id), [o.id, o.value] as [string, number]].slice(-limit);
            recent.remember(o.id, o.value);
          } else if (o.kind === "forget") {
            model = model.filter(([k]) => k !== o.id);
            recent.forget(o.id);
          } else {
            model = [];
            recent.clear();
          }
          expect(recent.size).toBe(model.length);
          for (const k of ["a", "b", "c", "d", "e", "f"]) {
            const entry = model.find(([m]) => m === k);
            expect(recent.has(k)).toBe(entry !== undefined);
            expect(recent.get(k)).toBe(entry?.[1]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
