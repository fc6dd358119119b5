// Properties of the flow graph (fast-check): the stable topological order of random DAGs, one
// SPEC-DEPENDENCY-CYCLE per cyclic component of random graphs with the path the docs/reference/language.md §9.5.4 search
// defines, and SPEC-FLOW-RECURSION against a brute-force reachability oracle.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFlowGraph } from "../../../checker/graph/index";
import { SPEC_DEPENDENCY_CYCLE } from "../../../checker/graph/rules/SPEC-DEPENDENCY-CYCLE";
import { SPEC_FLOW_RECURSION } from "../../../checker/graph/rules/SPEC-FLOW-RECURSION";
import { flowOf, runRules, specModel } from "./support/model";
import { flowSpec, flowsSpec } from "./support/specs";

const id = (i: number) => `s${i}`;

/** Step items for `deps[i]` = the steps step i depends on; odd-indexed edges as input references. */
function stepItems(deps: readonly (readonly number[])[]): string[] {
  return deps.map((list, i) => {
    const viaDepends = list.filter((_, k) => k % 2 === 0).map(id);
    const viaInputs = list.filter((_, k) => k % 2 === 1).map((d, k) => `in${k}: "$.steps.${id(d)}.output"`);
    return `{id: ${id(i)}, intent: x, depends_on: [${viaDepends.join(", ")}], inputs: {${viaInputs.join(", ")}}}`;
  });
}

/** A random graph on n nodes: `deps[i]` distinct targets (self-edges allowed when `self`). */
function graphArb(maxNodes: number, self: boolean): fc.Arbitrary<number[][]> {
  return fc.integer({ min: 1, max: maxNodes }).chain((n) =>
    fc
      .array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), {
        minLength: n,
        maxLength: n,
      })
      .map((deps) => deps.map((list, i) => (self ? list : list.filter((d) => d !== i)))),
  );
}

/** A random DAG: node i may depend on nodes earlier in a random permutation of the nodes. */
const dagArb: fc.Arbitrary<number[][]> = fc.integer({ min: 1, max: 25 }).chain((n) =>
  fc
    .tuple(
      fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      fc.array(fc.uniqueArray(fc.nat(), { maxLength: 3 }), { minLength: n, maxLength: n }),
    )
    .map(([perm, picks]) => {
      const rank = new Map(perm.map((node, r) => [node, r]));
      return picks.map((list, i) => {
        const r = rank.get(i) ?? 0;
        return r === 0 ? [] : [...new Set(list.map((p) => perm[p % r] as number))];
      });
    }),
);

/** Kahn's algorithm by definition: repeatedly place the smallest node whose deps are all placed. */
function oracleOrder(deps: readonly (readonly number[])[]): number[] {
  const placed = new Set<number>();
  const out: number[] = [];
  while (out.length < deps.length) {
    const next = deps.findIndex((list, i) => !placed.has(i) && list.every((d) => placed.has(d)));
    if (next < 0) break;
    placed.add(next);
    out.push(next);
  }
  return out;
}

function reachability(succ: readonly (readonly number[])[]): boolean[][] {
  const n = succ.length;
  const r = succ.map((list) => {
    const row = Array<boolean>(n).fill(false);
    for (const d of list) row[d] = true;
    return row;
  });
  for (let k = 0; k < n; k++)
    for (let i = 0; i < n; i++)
      if (r[i]?.[k]) for (let j = 0; j < n; j++) if (r[k]?.[j]) (r[i] as boolean[])[j] = true;
  return r;
}

/** The docs/reference/language.md §9.5.4 search by its definition: plain backtracking over simple paths, no pruning. */
function naiveCycle(
  succ: readonly (readonly number[])[],
  members: ReadonlySet<number>,
  start: number,
): number[] | null {
  const path = [start];
  const walk = (v: number): boolean => {
    for (const w of [...(succ[v] ?? [])].sort((a, b) => a - b)) {
      if (!members.has(w)) continue;
      if (w === start) return true;
      if (path.includes(w)) continue;
      path.push(w);
      if (walk(w)) return true;
      path.pop();
    }
    return false;
  };
  return walk(start) ? path : null;
}

describe("stable topological order", () => {
  it("random DAGs: a topological order, and the smallest ready step is always placed next", () => {
    fc.assert(
      fc.property(dagArb, (deps) => {
        const graph = buildFlowGraph(flowOf(specModel(flowSpec(stepItems(deps))), "f"));
        expect(graph.hasCycle).toBe(false);
        expect(graph.order?.map((s) => s.id)).toEqual(oracleOrder(deps).map(id));
      }),
      { numRuns: 120 },
    );
  });
});

describe("SPEC-DEPENDENCY-CYCLE on random graphs", () => {
  it("exactly one diagnostic per cyclic component, with the path of the backtracking search", () => {
    fc.assert(
      fc.property(graphArb(9, true), (deps) => {
        const out = runRules(flowSpec(stepItems(deps)), [SPEC_DEPENDENCY_CYCLE]);
        const r = reachability(deps);
        const n = deps.length;
        const expected: string[] = [];
        const done = new Set<number>();
        for (let i = 0; i < n; i++) {
          if (done.has(i)) continue;
          const members = new Set([...Array(n).keys()].filter((j) => j === i || (r[i]?.[j] && r[j]?.[i])));
          for (const m of members) done.add(m);
          if (members.size === 1 && !deps[i]?.includes(i)) continue;
          const path = naiveCycle(deps, members, i);
          expect(path).not.toBeNull();
          expected.push(`Cycle detected in step dependencies: ${[...(path ?? []), i].map(id).join(" -> ")}`);
        }
        expect(out.map((d) => d.message)).toEqual(expected);
        const graph = buildFlowGraph(flowOf(specModel(flowSpec(stepItems(deps))), "f"));
        expect(graph.hasCycle).toBe(expected.length > 0);
        expect(graph.order === null).toBe(expected.length > 0);
      }),
      { numRuns: 150 },
    );
  });
});

describe("SPEC-FLOW-RECURSION on random call graphs", () => {
  const callsArb = fc.integer({ min: 1, max: 7 }).chain((n) =>
    fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), {
      minLength: n,
      maxLength: n,
    }),
  );

  it("a step is reported exactly when its target reaches its own flow, with a shortest chain", () => {
    fc.assert(
      fc.property(callsArb, (calls) => {
        const name = (i: number) => `F${i}`;
        const text = flowsSpec(
          calls.map((targets, f) => [
            name(f),
            targets.length === 0
              ? ["{id: x, intent: y}"]
              : targets.map((t, k) => `{id: c${k}, flow: ${name(t)}}`),
          ]),
        );
        const r = reachability(calls);
        // Breadth-first distances between flows, by definition.
        const dist = (from: number, to: number): number => {
          if (from === to) return 0;
          let frontier = [from];
          const seen = new Set([from]);
          for (let d = 1; frontier.length > 0; d++) {
            const next: number[] = [];
            for (const x of frontier)
              for (const y of calls[x] ?? []) {
                if (y === to) return d;
                if (!seen.has(y)) {
                  seen.add(y);
                  next.push(y);
                }
              }
            frontier = next;
          }
          return Number.POSITIVE_INFINITY;
        };
        const expected: string[] = [];
        calls.forEach((targets, f) => {
          targets.forEach((g) => {
            if (g === f || r[g]?.[f]) expected.push(`${name(f)}:${dist(g, f) + 2}`);
          });
        });
        const out = runRules(text, [SPEC_FLOW_RECURSION]);
        const got = out.map((d) => {
          const chain = /\((.*)\)$/.exec(d.message)?.[1]?.split(" -> ") ?? [];
          const f = d.path.replace("flows.", "");
          expect(chain[0]).toBe(f);
          expect(chain[chain.length - 1]).toBe(f);
          // Every link of the chain is a real call.
          for (let k = 0; k + 1 < chain.length; k++) {
            const x = Number(chain[k]?.slice(1));
            const y = Number(chain[k + 1]?.slice(1));
            expect(calls[x]).toContain(y);
          }
          expect(d.related?.length ?? 0).toBe(chain.length - 2);
          return `${f}:${chain.length}`;
        });
        expect(got).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
