// The result cache (docs/reference/runtime.md §25.4) through the engine, with the store in memory:
// a second plan of an unchanged spec with the same inputs answers with the step after the cached
// one; other inputs, an edited step and a failed result miss; a stored output that no longer
// passes the step's checks is not used.
import { describe, expect, it } from "vitest";
import { MemoryResultCache } from "../../../interpreter/engine/memory-result-cache";
import { makeTestApi } from "../support/make-test-api";
import { plain, planOk, result } from "./api-fixtures";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
    score: {type: number}
functions:
  calc:
    mode: compute
    intent: c
    input: {n: {type: integer}}
    output: Out
    cache: true
    ensure: ["result.score > 0"]
flows:
  main:
    input: {n: {type: integer}}
    steps:
      - id: a
        function: calc
        inputs: {n: $.input.n}
      - id: b
        intent: use
        inputs: {v: $.steps.a.output.v}
`;

function setup() {
  const cache = new MemoryResultCache();
  const h = makeTestApi({ cwd: "/nowhere", resultCache: cache });
  return { cache, api: h.api };
}

describe("the result cache", () => {
  it("serves a validated result to a second run with the same inputs, and records the hit", async () => {
    const { cache, api } = setup();
    const first = await planOk(api, SPEC, "main", '{"n": 1}');
    expect(first.step_id).toBe("a");
    const done = await api.stepDone({
      flow_id: String(first.flow_id),
      step_id: "a",
      result: result('{"v": "one", "score": 1}'),
    });
    expect(done.step_id).toBe("b");
    expect(cache.entries.size).toBe(1);

    const second = await planOk(api, SPEC, "main", '{"n": 1}');
    expect(plain(second)).toMatchObject({ status: "execute_step", step_id: "b", inputs: { v: "one" } });
    const audit = plain(await api.audit({ flow_id: String(second.flow_id) })) as {
      cache_hits: number;
      trace: { attempts: number; cache_hit: boolean; cache_key: string | null }[];
    };
    expect(audit.cache_hits).toBe(1);
    expect(audit.trace).toHaveLength(1);
    expect(audit.trace[0]).toMatchObject({ attempts: 0, cache_hit: true });
    expect(audit.trace[0]?.cache_key).toMatch(/^[0-9a-f]{64}$/);

    const other = await planOk(api, SPEC, "main", '{"n": 2}');
    expect(other.step_id).toBe("a");
  });

  it("every record says whether it was a hit", async () => {
    const { api } = setup();
    const plan = await planOk(api, SPEC, "main", '{"n": 1}');
    const id = String(plan.flow_id);
    await api.stepDone({ flow_id: id, step_id: "a", result: result('{"v": "x", "score": 2}') });
    const done = plain(await api.stepDone({ flow_id: id, step_id: "b", result: result("{}") })) as {
      trace: { cache_hit: boolean; cache_key: string | null }[];
    };
    expect(done.trace.map((r) => [r.cache_hit, r.cache_key])).toEqual([
      [false, null],
      [false, null],
    ]);
  });

  it("does not store a result that failed ensure", async () => {
    const { cache, api } = setup();
    const plan = await planOk(api, SPEC, "main", '{"n": 1}');
    const r = await api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "a",
      result: result('{"v": "bad", "score": 0}'),
    });
    expect(r.status).toBe("ensure_failed");
    expect(cache.entries.size).toBe(0);
    expect((await planOk(api, SPEC, "main", '{"n": 1}')).step_id).toBe("a");
  });

  it("misses when the step's function changes, and for the steps after a changed step", async () => {
    const { api } = setup();
    const plan = await planOk(api, SPEC, "main", '{"n": 1}');
    await api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "a",
      result: result('{"v": "one", "score": 1}'),
    });
    const edited = SPEC.replace("intent: c", "intent: c2");
    expect((await planOk(api, edited, "main", '{"n": 1}')).step_id).toBe("a");
    // Editing the later step leaves the cached one a hit.
    const later = SPEC.replace("intent: use", "intent: use it");
    expect((await planOk(api, later, "main", '{"n": 1}')).step_id).toBe("b");
  });

  it("does not use a stored output that fails the step's checks today", async () => {
    const { cache, api } = setup();
    const plan = await planOk(api, SPEC, "main", '{"n": 1}');
    await api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "a",
      result: result('{"v": "one", "score": 1}'),
    });
    // Someone edits the entry: the score now breaks ensure.
    const [key] = [...cache.entries.keys()];
    cache.entries.set(String(key), '{"v": "one", "score": -5}');
    expect((await planOk(api, SPEC, "main", '{"n": 1}')).step_id).toBe("a");
    // And one that breaks the contract.
    cache.entries.set(String(key), '{"v": 7, "score": 5}');
    expect((await planOk(api, SPEC, "main", '{"n": 1}')).step_id).toBe("a");
  });

  it("without a cache every run dispatches the step", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const plan = await planOk(h.api, SPEC, "main", '{"n": 1}');
    await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "a",
      result: result('{"v": "one", "score": 1}'),
    });
    expect((await planOk(h.api, SPEC, "main", '{"n": 1}')).step_id).toBe("a");
  });
});
