// The fuzz jobs of the MCP server (mcp/fuzz-jobs.ts) with jobs the test drives: the cap answers
// fuzz_busy at once, a job past its budget and grace is terminated and answered from its last
// progress (never with verdicts), a shutdown answers every running job, a failed worker is an
// internal_error, and a job that answers in time is decoded kind for kind. The real worker thread
// is tested through the built server (test/hostile/fuzz-hostile.test.ts).
import { describe, expect, it } from "vitest";
import { encodeWire, type Response } from "../../interpreter/index";
import type { FromFuzzJob, FuzzJobRequest } from "../../mcp/fuzz-job";
import { type FuzzCall, type FuzzJobHandle, FuzzJobs, inThreadStarter } from "../../mcp/fuzz-jobs";
import { PyFloat } from "../../stdlib/index";

interface FakeJob {
  readonly request: FuzzJobRequest;
  post(message: FromFuzzJob): void;
  fail(reason: string): void;
  terminated: boolean;
}

function fakeStarter(): { jobs: FakeJob[]; start: (r: FuzzJobRequest) => FuzzJobHandle } {
  const jobs: FakeJob[] = [];
  return {
    jobs,
    start: (request) => {
      const listeners: ((m: FromFuzzJob) => void)[] = [];
      const failures: ((reason: string) => void)[] = [];
      const job: FakeJob = {
        request,
        post: (m) => {
          for (const l of listeners) l(m);
        },
        fail: (reason) => {
          for (const f of failures) f(reason);
        },
        terminated: false,
      };
      jobs.push(job);
      return {
        onMessage: (l) => listeners.push(l),
        onFailure: (f) => failures.push(f),
        terminate: () => {
          job.terminated = true;
        },
      };
    },
  };
}

const CALL: FuzzCall = { spec: "version: '0.2'\n", flow: null, runs: 10, seed: 42, timeBudgetMs: 30 };

describe("FuzzJobs", () => {
  it("answers past the cap with fuzz_busy at once, and takes a job again once one has answered", async () => {
    const fake = fakeStarter();
    const jobs = new FuzzJobs(fake.start, 2, 10_000);
    const long = { ...CALL, timeBudgetMs: 60_000 };
    const first = jobs.run(long);
    const second = jobs.run(long);
    expect(await jobs.run(long)).toMatchObject({ status: "error", error_type: "fuzz_busy" });
    expect(fake.jobs).toHaveLength(2);
    fake.jobs[0]?.post({ kind: "done", response: encodeWire({ status: "fuzzed", runs: 3 }) });
    expect(await first).toEqual({ status: "fuzzed", runs: 3 });
    expect(fake.jobs[0]?.terminated).toBe(true);
    void jobs.run(long);
    expect(fake.jobs).toHaveLength(3);
    jobs.shutdown();
    expect(await second).toMatchObject({ status: "deadline_exceeded" });
  });

  it("terminates a job past its budget and grace and says what its last progress explored", async () => {
    const fake = fakeStarter();
    const jobs = new FuzzJobs(fake.start, 2, 20);
    const answer = jobs.run(CALL);
    expect(fake.jobs[0]?.request.deadlineAt).toBeGreaterThan(Date.now() - 1_000);
    fake.jobs[0]?.post({ kind: "progress", phase: "checking" });
    fake.jobs[0]?.post({
      kind: "progress",
      phase: "fuzzing",
      runs: 12,
      paths: 3,
      findings: 1,
      flowsDone: 2,
      flows: 9,
      flow: "f2",
    });
    const r = await answer;
    expect(fake.jobs[0]?.terminated).toBe(true);
    expect(r).toMatchObject({
      status: "deadline_exceeded",
      runs: 12,
      paths: 3,
      flows_done: 2,
      flows: 9,
      flow: "f2",
    });
    expect(r.message).toMatch(
      /^stopped by the deadline \(time_budget_ms 30 \+ \d+ ms\) while exploring flow 'f2'/,
    );
    expect(r).not.toHaveProperty("soundness");
    expect(r).not.toHaveProperty("findings");
    // A late answer of the terminated job changes nothing.
    fake.jobs[0]?.post({ kind: "done", response: encodeWire({ status: "fuzzed" }) });
  });

  it("hands each progress report to the caller and, cancelled, terminates the job at once with what it explored", async () => {
    const fake = fakeStarter();
    const jobs = new FuzzJobs(fake.start, 1, 60_000);
    const cancel = new AbortController();
    const seen: unknown[] = [];
    const answer = jobs.run(
      { ...CALL, timeBudgetMs: 60_000 },
      { signal: cancel.signal, onProgress: (p) => seen.push(p) },
    );
    const progress = {
      kind: "progress",
      phase: "fuzzing",
      runs: 25,
      paths: 4,
      findings: 0,
      flowsDone: 0,
      flows: 2,
      flow: "main",
    } as const;
    fake.jobs[0]?.post({ kind: "progress", phase: "checking" });
    fake.jobs[0]?.post(progress);
    expect(seen).toEqual([{ kind: "progress", phase: "checking" }, progress]);
    cancel.abort();
    expect(fake.jobs[0]?.terminated).toBe(true);
    const r = await answer;
    expect(r).toMatchObject({
      status: "cancelled",
      runs: 25,
      paths: 4,
      flows_done: 0,
      flows: 2,
      flow: "main",
    });
    expect(r.message).toMatch(/^cancelled by the client after \d+ ms while exploring flow 'main'/);
    // The slot is free again, and a job whose signal is already aborted is not started.
    void jobs.run(CALL);
    expect(fake.jobs).toHaveLength(2);
    jobs.shutdown();
    expect(await jobs.run(CALL, { signal: AbortSignal.abort() })).toMatchObject({
      status: "cancelled",
      runs: 0,
    });
    expect(fake.jobs).toHaveLength(2);
  });

  it("says the job was checking when no fuzzing progress came", async () => {
    const fake = fakeStarter();
    const answer = new FuzzJobs(fake.start, 2, 0).run(CALL);
    fake.jobs[0]?.post({ kind: "progress", phase: "checking" });
    const r = await answer;
    expect(r).toMatchObject({ status: "deadline_exceeded", runs: 0, paths: 0, flows: null });
    expect(r.message).toMatch(/while checking the spec: 0 run\(s\) and 0 path\(s\) explored/);
  });

  it("answers a failed worker with internal_error, and a worker that cannot start too", async () => {
    const fake = fakeStarter();
    const answer = new FuzzJobs(fake.start).run(CALL);
    fake.jobs[0]?.fail("out of memory");
    expect(await answer).toEqual({
      status: "error",
      error_type: "internal_error",
      message: "the fuzz job failed: out of memory",
    });
    const broken = new FuzzJobs(() => {
      throw new Error("no such file: fuzz-worker.cjs");
    });
    expect(await broken.run(CALL)).toMatchObject({ error_type: "internal_error" });
  });

  it("keeps a float a float across the boundary", async () => {
    const fake = fakeStarter();
    const answer = new FuzzJobs(fake.start).run(CALL);
    const response: Response = { status: "fuzzed", score: new PyFloat(1) };
    fake.jobs[0]?.post({ kind: "done", response: encodeWire(response) });
    expect(encodeWire(await answer)).toBe('{"status": "fuzzed", "score": 1.0}');
  });

  it("from the sources, runs the real job in this thread", async () => {
    const r = await new FuzzJobs(inThreadStarter).run({ ...CALL, spec: "version: 1\n", timeBudgetMs: 5_000 });
    expect(r).toMatchObject({ status: "error", error_type: "invalid_spec" });
  });
});
