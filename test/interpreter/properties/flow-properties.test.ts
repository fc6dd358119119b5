// Properties of the flow state machine over random valid specs (spec-arbitrary.ts) and random
// request sequences (requests.ts). After every call (flow-session.ts):
// - the response is an object with a `status`, never an internal error, and nothing was logged;
// - a request to an unknown flow id answers exactly `flow_not_found`;
// - an error response other than retries_exhausted / max_rounds_exceeded leaves the stored flow
//   byte for byte unchanged, and so do `audit` and a `check_timeouts` that finds no timeout;
// - the stored flow decodes, re-encodes to the same text, and its revision never goes down;
// - 0 ≤ current_idx ≤ number of steps; round ≤ max_rounds (when set); a step's attempts stay
//   within its attempt limit unless the step was exhausted at least once (docs/reference/runtime.md §4.5: a further report
//   on an exhausted step counts again, and on_fail preserves the failing step's attempts);
// - a new API instance over the same store (a restarted server) audits the flow exactly as the
//   live one does, durations aside;
// - a successful revert gives back the audit seen just before the commit of that label.
// And a cooperative agent finishes every forward-routed flow within terminationBound (agent.ts).
import { realpathSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeTestApi, tempFileStore } from "../support/make-test-api";
import { MAX_REVISES, runAgent, terminationBound } from "./agent";
import { FlowSession } from "./flow-session";
import { request } from "./requests";
import { validSpec } from "./spec-arbitrary";

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const cwd = realpathSync(process.cwd());

describe("flow state machine properties", () => {
  it("keeps its invariants under random requests (memory store)", async () => {
    let reverts = 0;
    await fc.assert(
      fc.asyncProperty(
        validSpec({ forwardOnly: false }),
        fc.boolean(),
        fc.array(request, { minLength: 10, maxLength: 30 }),
        async (spec, flag, requests) => {
          const session = new FlowSession(makeTestApi({ cwd }), spec);
          await session.plan(flag);
          for (const r of requests) await session.apply(r);
          reverts += session.reverts;
        },
      ),
      { numRuns: RUNS },
    );
    // The revert property is only worth something if reverts happen (about one run in four has one).
    if (RUNS >= 40) expect(reverts).toBeGreaterThan(0);
  });

  it("keeps its invariants under random requests (durable file store)", async () => {
    await fc.assert(
      fc.asyncProperty(
        validSpec({ forwardOnly: false }),
        fc.boolean(),
        fc.array(request, { minLength: 5, maxLength: 15 }),
        async (spec, flag, requests) => {
          const home = tempFileStore();
          try {
            const session = new FlowSession(makeTestApi({ cwd, store: home.store }), spec);
            await session.plan(flag);
            for (const r of requests) await session.apply(r);
          } finally {
            home.dispose();
          }
        },
      ),
      { numRuns: Math.max(1, Math.round(RUNS / 4)) },
    );
  });

  it("finishes a forward-routed flow within the bound when the agent cooperates", async () => {
    await fc.assert(
      fc.asyncProperty(
        validSpec({ forwardOnly: true }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }),
        async (spec, flag, choices) => {
          const bound = terminationBound(spec);
          const outcome = await runAgent(makeTestApi({ cwd }).api, spec, flag, choices, bound + 1);
          const summary = `${outcome.calls} calls, bound ${bound}\n${outcome.transcript.join("\n")}\n${spec.text}`;
          expect(outcome.finalStatus, summary).toBe("complete");
          expect(outcome.calls, summary).toBeLessThanOrEqual(bound);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("derives the bound from the steps", () => {
    const steps = [
      { kind: "function", retries: 3 },
      { kind: "gate", retries: 1 },
      { kind: "inline", retries: 1 },
    ] as const;
    const spec = { steps } as unknown as Parameters<typeof terminationBound>[0];
    expect(terminationBound(spec)).toBe((MAX_REVISES + 1) * 5 + MAX_REVISES);
  });
});
