// Where a partitioned store puts a flow (host/pg-store/partition-hash.ts): the choice must be the
// same on every server (a function of the flow id and the set of databases only, not their order
// in the list), spread evenly, and adding a database must move only the flows it now holds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { partitionOf } from "../../../host/pg-store/partition-hash";

const flowId = fc.uuid();
const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 8 });

describe("rendezvous hashing of flow ids", () => {
  it("is stable: the same id and set of databases give the same database, whatever their order", () => {
    fc.assert(
      fc.property(
        flowId,
        names.chain((list) =>
          fc.tuple(
            fc.constant(list),
            fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }),
          ),
        ),
        (id, [list, shuffled]) => {
          const chosen = list[partitionOf(id, list)];
          expect(shuffled[partitionOf(id, shuffled)]).toBe(chosen);
          expect(partitionOf(id, list)).toBe(partitionOf(id, [...list]));
        },
      ),
    );
  });

  it("moves, when a database is added, only the flows that go to the new one", () => {
    fc.assert(
      fc.property(fc.array(flowId, { minLength: 1, maxLength: 50 }), names, (ids, list) => {
        const added = `${list.join("")}+new`;
        const grown = [...list, added];
        for (const id of ids) {
          const after = grown[partitionOf(id, grown)];
          if (after !== added) expect(after).toBe(list[partitionOf(id, list)]);
        }
      }),
    );
  });

  it("spreads ids evenly over the databases", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.nat(), (n, seed) => {
        const list = Array.from({ length: n }, (_, i) => `db${seed}-${i}.example:5432/flows`);
        const counts = new Array<number>(n).fill(0);
        const total = 4000;
        for (let k = 0; k < total; k++) counts[partitionOf(`flow-${seed}-${k}`, list)]! += 1;
        // Binomial: the standard deviation of a count is below sqrt(total / n) ≈ 45 at n = 2;
        // ±20% of the mean is more than 5 of them at every n here.
        for (const c of counts) expect(Math.abs(c - total / n)).toBeLessThan((0.2 * total) / n);
      }),
      { numRuns: 10 },
    );
  });

  it("moves about 1/(n+1) of the flows when a database is added", () => {
    const list = ["a:5432/f", "b:5432/f", "c:5432/f"];
    const grown = [...list, "d:5432/f"];
    let moved = 0;
    const total = 8000;
    for (let k = 0; k < total; k++) {
      if (list[partitionOf(`f${k}`, list)] !== grown[partitionOf(`f${k}`, grown)]) moved += 1;
    }
    expect(moved / total).toBeGreaterThan(0.2);
    expect(moved / total).toBeLessThan(0.3);
  });
});
