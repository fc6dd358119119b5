// The result cache's files under STRATUM_HOME/cache/results are anyone's to edit: the engine must
// treat whatever it finds there as untrusted. Through the real file store of the cache
// (host/result-cache) and the engine: an entry edited to a result the step's ensure rejects, a
// 50 GiB sparse entry, one nested 100,000 levels deep, a FIFO, text that is not JSON, an entry of
// another key or format version — each is a miss, answered at once, and the step is dispatched.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileResultCache } from "../../host/result-cache/file-result-cache";
import { resultCacheFromEnv } from "../../host/result-cache/result-cache-env";
import { planOk, result } from "../interpreter/flow/api-fixtures";
import { makeTestApi } from "../interpreter/support/make-test-api";

const SPEC = `version: "0.2"
contracts:
  Out:
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
        inputs: {s: $.steps.a.output.score}
`;

let home: string;
let dir: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "stratum-cache-hostile-"));
  dir = join(home, "cache", "results");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Runs step a once so that its entry exists; returns the entry's path. */
async function storedEntry(cache: FileResultCache): Promise<string> {
  const h = makeTestApi({ cwd: "/nowhere", resultCache: cache });
  const plan = await planOk(h.api, SPEC, "main", '{"n": 1}');
  const r = await h.api.stepDone({
    flow_id: String(plan.flow_id),
    step_id: "a",
    result: result('{"score": 3}'),
  });
  expect(r.step_id).toBe("b");
  const [name] = readdirSync(dir).filter((n) => n.endsWith(".json"));
  return join(dir, String(name));
}

async function firstStep(cache: FileResultCache): Promise<unknown> {
  const h = makeTestApi({ cwd: "/nowhere", resultCache: cache });
  return (await planOk(h.api, SPEC, "main", '{"n": 1}')).step_id;
}

describe("the result cache's files", () => {
  it("a valid entry is a hit (the baseline of the cases below)", async () => {
    const cache = new FileResultCache(dir);
    await storedEntry(cache);
    expect(await firstStep(cache)).toBe("b");
  });

  it("an entry edited to a result ensure rejects is not used", async () => {
    const cache = new FileResultCache(dir);
    const path = await storedEntry(cache);
    const record = JSON.parse(readFileSync(path, "utf8")) as { output: { score: number } };
    record.output.score = -1;
    writeFileSync(path, JSON.stringify(record));
    expect(await firstStep(cache)).toBe("a");
  });

  it("an entry of another key or format version, or not JSON, is a miss", async () => {
    const cache = new FileResultCache(dir);
    const path = await storedEntry(cache);
    const record = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...record, key: "0".repeat(64) }));
    expect(await firstStep(cache)).toBe("a");
    writeFileSync(path, JSON.stringify({ ...record, cache_version: 2 }));
    expect(await firstStep(cache)).toBe("a");
    writeFileSync(path, "{not json");
    expect(await firstStep(cache)).toBe("a");
  });

  it("a 50 GiB entry is refused by its size without being read", async () => {
    const cache = new FileResultCache(dir);
    const path = await storedEntry(cache);
    truncateSync(path, 50 * 1024 ** 3);
    const started = Date.now();
    expect(await firstStep(cache)).toBe("a");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("an entry nested 100,000 levels deep is a miss, not a stack overflow", async () => {
    const cache = new FileResultCache(dir);
    const path = await storedEntry(cache);
    const key = path.slice(-69, -5);
    writeFileSync(
      path,
      `{"key": "${key}", "cache_version": 1, "output": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    );
    expect(await firstStep(cache)).toBe("a");
  });

  it("a FIFO where the entry should be is a miss, answered at once", async () => {
    const cache = new FileResultCache(dir);
    const path = await storedEntry(cache);
    rmSync(path);
    execFileSync("mkfifo", [path]);
    const started = Date.now();
    expect(await firstStep(cache)).toBe("a");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a deep output is not written (it could not be read back)", async () => {
    const cache = new FileResultCache(dir, {
      maxAgeDays: 30,
      maxEntries: 10,
      maxEntryBytes: 1 << 20,
      maxDepth: 4,
    });
    const deep = result('{"a": {"b": {"c": {"d": {"e": 1}}}}}');
    cache.put({ key: "a".repeat(64), flowName: "main", stepId: "a", sourceFlowId: "f", output: deep });
    expect(readdirSync(home)).toEqual([]);
  });

  it("keeps at most STRATUM_CACHE_MAX_ENTRIES entries, and none with STRATUM_DISABLE_RESULT_CACHE", () => {
    expect(resultCacheFromEnv({ STRATUM_DISABLE_RESULT_CACHE: "1" }, home)).toBeNull();
    expect(resultCacheFromEnv({ STRATUM_DISABLE_RESULT_CACHE: "false" }, home)).not.toBeNull();
    const cache = resultCacheFromEnv({ STRATUM_CACHE_MAX_ENTRIES: "3" }, home);
    if (cache === null) throw new Error("no cache");
    for (let i = 0; i < 50; i++) {
      const key = i.toString(16).padStart(64, "0");
      cache.put({ key, flowName: "main", stepId: "a", sourceFlowId: "f", output: result(`{"i": ${i}}`) });
    }
    expect(readdirSync(dir).filter((n) => n.endsWith(".json")).length).toBe(3);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});
