// The checks of big specs (mcp/check-jobs.ts): the answer a worker gives is byte for byte the
// engine's answer in the server's thread — for validate, and for plan's refusal of an invalid
// spec — through the real worker bundle and, as a property over damaged specs, through the same
// job code with every spec sent down the worker path; the cap answers check_busy, the deadline
// check_deadline_exceeded naming the size and the deadline, a shutdown answers at once. The
// built server with a real ~2 MB spec: test/hostile/big-check.test.ts.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Clock,
  createApi,
  encodeWire,
  type IdSource,
  MemoryStore,
  type Response,
  type StratumApi,
  wireToPlain,
} from "../../interpreter/index";
import type { CheckJobRequest } from "../../mcp/check-job";
import { CheckJobs, planRefusal } from "../../mcp/check-jobs";
import { inThreadStarter, type JobHandle, workerStarter } from "../../mcp/worker-jobs";
import { PyDict } from "../../stdlib/index";
import { NO_WORKSPACE } from "../support/no-workspace";
import { brokenExamples, cleanExamples } from "../support/spec-examples";
import { mutatedSpecArb } from "../support/spec-mutate";

const WORKER = resolve(import.meta.dirname, "../../dist/fuzz-worker.cjs");

function engine(): StratumApi {
  const clock: Clock = { wallMs: () => 0, monoMs: () => 0 };
  const ids: IdSource = { newFlowId: () => "00000000-0000-4000-8000-000000000001" };
  return createApi({
    store: new MemoryStore(),
    clock,
    ids,
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
    verifyEdits: true,
  });
}

/** What the server sends of an answer: its text and its structuredContent. */
function sent(r: Response): [string, string] {
  return [encodeWire(r, { indent: 2 }), JSON.stringify(wireToPlain(r))];
}

const SPECS = [...cleanExamples(), ...brokenExamples()].map((e) => e.text);

/** A starter whose jobs never answer. */
function silent(): { started: number; start: (r: CheckJobRequest) => JobHandle } {
  const box = {
    started: 0,
    start: (): JobHandle => {
      box.started++;
      return { onMessage: () => {}, onFailure: () => {}, terminate: () => {} };
    },
  };
  return box;
}

describe("CheckJobs", () => {
  it.skipIf(!existsSync(WORKER))(
    "answers validate and plan's refusal through the worker bundle exactly as the engine does",
    async () => {
      const api = engine();
      const checks = new CheckJobs({ start: workerStarter(WORKER), bigSpecBytes: 0 });
      expect(SPECS.length).toBeGreaterThan(5);
      for (const spec of SPECS) {
        const inThread = await api.validate({ spec });
        const checked = await checks.validate(spec);
        expect(sent(checked)).toEqual(sent(inThread));
        const planned = await api.plan({ spec, flow: "main", inputs: new PyDict() });
        const refusal = planRefusal(checked);
        if (inThread.valid === true) expect(refusal).toBeNull();
        else expect(sent(refusal as Response)).toEqual(sent(planned));
      }
    },
  );

  it("gives the engine's answers for damaged specs sent down the worker path", async () => {
    const api = engine();
    const checks = new CheckJobs({ start: inThreadStarter, bigSpecBytes: 0 });
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(mutatedSpecArb(SPECS, 3), async (spec) => {
        const inThread = await api.validate({ spec });
        const checked = await checks.validate(spec);
        expect(sent(checked)).toEqual(sent(inThread));
        if (inThread.valid !== true) {
          invalid++;
          const planned = await api.plan({ spec, flow: "main", inputs: new PyDict() });
          expect(sent(planRefusal(checked) as Response)).toEqual(sent(planned));
        }
      }),
      { numRuns: 150, seed: 7 },
    );
    expect(invalid).toBeGreaterThan(20);
  });

  it("sends only specs of the threshold or more to a worker, counting UTF-8 bytes", () => {
    const checks = new CheckJobs({ start: inThreadStarter, bigSpecBytes: 10 });
    expect(checks.isBig("a".repeat(9))).toBe(false);
    expect(checks.isBig("a".repeat(10))).toBe(true);
    expect(checks.isBig("é".repeat(5))).toBe(true); // 5 units, 10 bytes
    expect(checks.isBig("é".repeat(4))).toBe(false);
    expect(new CheckJobs().isBig("x".repeat(256 * 1024 - 1))).toBe(false);
    expect(new CheckJobs().isBig("x".repeat(256 * 1024))).toBe(true);
  });

  it("answers check_busy past the cap without starting a job", async () => {
    const fake = silent();
    const checks = new CheckJobs({ start: fake.start, limit: 2, deadlineMs: 60_000 });
    const running = [checks.validate("a: 1\n"), checks.validate("a: 2\n")];
    const r = await checks.validate("a: 3\n");
    expect(r.error_type).toBe("check_busy");
    expect(r.message).toMatch(/^2 checks of big specs \(262,144 bytes or more\) are running/);
    expect(fake.started).toBe(2);
    checks.shutdown();
    for (const answer of await Promise.all(running)) expect(answer.error_type).toBe("server_stopping");
  });

  it("terminates a check the client cancels, and a plan behind it is not made", async () => {
    let terminated = 0;
    const start = (): JobHandle => ({
      onMessage: () => {},
      onFailure: () => {},
      terminate: () => {
        terminated++;
      },
    });
    const checks = new CheckJobs({ start, limit: 1 });
    const cancel = new AbortController();
    const answer = checks.validate("x: 1\n", cancel.signal);
    cancel.abort();
    const expected = {
      status: "error",
      error_type: "cancelled",
      message: "the client cancelled the call: the check of the 5-byte spec was stopped.",
    };
    expect(await answer).toEqual(expected);
    expect(terminated).toBe(1);
    // The slot is free again; a refusal of a cancelled check stops stratum_plan.
    expect(planRefusal(await checks.validate("x: 1\n", AbortSignal.abort()))).toEqual(expected);
  });

  it("terminates a check at its deadline and names the deadline and the size", async () => {
    const checks = new CheckJobs({ start: silent().start, deadlineMs: 30 });
    const r = await checks.validate("é".repeat(600));
    expect(r).toEqual({
      status: "error",
      error_type: "check_deadline_exceeded",
      message:
        "the check of the 1,200-byte spec was stopped at its deadline of 0.03 s; split the spec into smaller ones.",
    });
    // A plan answers the same error (nothing reaches the engine).
    expect(planRefusal(r)).toBe(r);
  });
});
