// A property broken because the fuzzer cut the run — where it stopped a loop, or at its call
// limit — gets a minimized witness that names what looped (the first lasso: the calls that
// brought the run back to a state it was in), and the witness replays to the same breach, on the
// in-process engine and through a real MCP server.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fuzzSpec,
  fuzzTransport,
  type Plain,
  replayCounterexample,
  type Transport,
} from "../../fuzzer/index";
import { type LoopState, LoopWatch } from "../../fuzzer/run/cut-loop";
import type { Exchange, WireCall } from "../../fuzzer/run/session";
import type { FlowEvent } from "../../interpreter/index";
import { type RunningServer, startServer, tempDir } from "../mcp/support/server";
import { RETRY_LOOP } from "./support/cut-loop-specs";

/** The built stratum-mcp over stdio, asked for each call's typed events (as `replay --server`). */
function mcpTransport(client: Client): Transport {
  return async (tool, args) => {
    const result = await client.callTool({ name: tool, arguments: args, _meta: { "stratumc/events": true } });
    const content = result.content as { type: string; text: string }[];
    const events = result._meta?.["stratumc/events"];
    return {
      response: JSON.parse(content[0]?.text ?? "{}") as Plain,
      events: Array.isArray(events) ? (events as FlowEvent[]) : null,
    };
  };
}

/** A review that can be revised for ever (no max_rounds). */
const REVISE_LOOP = `version: "0.2"
contracts:
  Patch:
    diff: { type: string }
functions:
  patch:
    mode: infer
    intent: "Write the patch for the issue"
    input: { issue: { type: string } }
    output: Patch
  review:
    mode: gate
flows:
  fix:
    input:
      issue: { type: string }
    steps:
      - id: patch
        function: patch
        inputs: { issue: "$.input.issue" }
      - id: review
        function: review
        on_approve: ~
        on_revise: patch
        on_kill: ~
properties:
  finishes:
    flow: fix
    eventually: "$.flow.status in ['complete', 'killed']"
`;

function word(c: WireCall): string {
  if (c.tool === "stratum_plan") return "plan";
  const step = String(c.arguments.step_id);
  return typeof c.arguments.outcome === "string" ? `${step} ${c.arguments.outcome}` : step;
}

async function cutFinding(spec: string, options: { seed: number; maxCalls?: number; runs?: number }) {
  const { report } = await fuzzSpec(spec, { runs: 60, ...options });
  const finding = report?.findings.find((f) => f.code === "FUZZ-PROPERTY-VIOLATED");
  expect(finding, "a property breach").toBeDefined();
  return { report, finding: finding! };
}

describe("cut-run witnesses", () => {
  const home = tempDir("stratum-cut-witness-");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
  }, 60_000);
  afterAll(async () => {
    await server?.closeInput();
    home.dispose();
  });

  it.each([1, 7, 42])(
    "a loop the fuzzer stopped: the lasso is named, and the witness replays (seed %i)",
    async (seed) => {
      const { report, finding } = await cutFinding(RETRY_LOOP, { seed });
      expect(report?.properties.ships?.verdict).toBe("violated");
      expect(finding.message).toContain("the run was cut where the fuzzer stopped a loop");
      // deploy is refused twice, rollback runs, and the flow is back where the plan left it.
      expect(finding.message).toContain(
        "what looped: calls 2–4 (deploy → deploy → rollback) brought the run back to the state it was in after call 1 ('deploy' running, attempt 1)",
      );
      const calls = finding.counterexample?.calls ?? [];
      // The fuzzer stops the loop at deploy's seventh dispatch: three laps and the plan.
      expect(calls.map(word)).toEqual([
        "plan",
        ...["deploy", "deploy", "rollback"],
        ...["deploy", "deploy", "rollback"],
        ...["deploy", "deploy", "rollback"],
      ]);
      const expectation = { code: finding.code, flow: "ship", step: null };
      const local = await replayCounterexample(RETRY_LOOP, calls, fuzzTransport(RETRY_LOOP), expectation);
      expect(local.reproduced).toBe(true);
      const remote = await replayCounterexample(RETRY_LOOP, calls, mcpTransport(server.client), expectation);
      expect(remote.reproduced).toBe(true);
      expect(remote.observations.find((o) => o.code === finding.code)?.message).toBe(
        local.observations.find((o) => o.code === finding.code)?.message,
      );
    },
    60_000,
  );

  it.each([1, 7, 42])(
    "the call limit: the witness is the limit long, names the turn, and replays (seed %i)",
    async (seed) => {
      const { report, finding } = await cutFinding(REVISE_LOOP, { seed, maxCalls: 7, runs: 200 });
      expect(report?.properties.finishes?.verdict).toBe("violated");
      expect(finding.message).toContain("the run was cut at the fuzzer's call limit (7 calls)");
      const calls = finding.counterexample?.calls ?? [];
      expect(calls).toHaveLength(7);
      // A revise sends the run back to patch: after the second one it is where the first left it.
      expect(finding.message).toMatch(
        /what looped: calls \d–\d \(patch → review revise\) brought the run back to the state it was in after call \d \('patch' running, attempt 1, gate 'review' revise, round \d, its round aside\)/,
      );
      const r = await replayCounterexample(REVISE_LOOP, calls, fuzzTransport(REVISE_LOOP), {
        code: finding.code,
        flow: "fix",
        step: null,
      });
      expect(r.reproduced).toBe(true);
    },
    60_000,
  );

  it("a replay cuts a call-limit witness where it ends, and says at how many calls", async () => {
    const { finding } = await cutFinding(REVISE_LOOP, { seed: 1, maxCalls: 7, runs: 200 });
    const prefix = (finding.counterexample?.calls ?? []).slice(0, 4);
    const r = await replayCounterexample(REVISE_LOOP, prefix, fuzzTransport(REVISE_LOOP), {
      code: finding.code,
      flow: "fix",
      step: null,
    });
    // Four calls are what `--max-steps 4` would cut the run at, not the fuzzer's limit of 7.
    const message = r.observations.find((o) => o.code === finding.code)?.message ?? "";
    expect(message).toContain("the run was cut at the fuzzer's call limit (4 calls)");
    expect(message).not.toContain("(7 calls)");
  }, 60_000);
});

/** A state that is its key. */
function state(key: string, round = 0): LoopState {
  return {
    key: (withRound) => (withRound ? `${key}@${round}` : key),
    currentRound: round,
    describe: () => key,
  };
}

function exchange(step: string): Exchange {
  return { call: { tool: "stratum_step_done", arguments: { step_id: step } }, response: {}, events: [] };
}

describe("LoopWatch", () => {
  it("reads no state's key or words until it is asked what looped", () => {
    let reads = 0;
    const counted: LoopState = {
      key: () => {
        reads++;
        return "same";
      },
      currentRound: 0,
      describe: () => {
        reads++;
        return "same";
      },
    };
    const watch = new LoopWatch();
    watch.noteCall(exchange("a"), 0, counted);
    watch.noteCall(exchange("b"), 1, counted);
    expect(reads).toBe(0);
    expect(watch.describe(true)).toContain("what looped: call 2 (b");
    expect(reads).toBeGreaterThan(0);
  });

  it("finds the first call after which the run is back in an earlier state (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 12 }), (keys) => {
        const watch = new LoopWatch();
        keys.forEach((k, i) => {
          watch.noteCall(exchange(`s${i}`), i, state(k));
        });
        const lasso = watch.lasso(true);
        const firstRepeat = keys.findIndex((k, i) => keys.indexOf(k) < i);
        if (firstRepeat < 0) {
          expect(lasso).toBeNull();
          return;
        }
        expect(lasso).not.toBeNull();
        expect(lasso?.to).toBe(firstRepeat);
        // The turn starts after the call that first left the run in that state.
        expect(keys[lasso!.from - 1]).toBe(keys[firstRepeat]);
        expect(lasso?.calls).toEqual(
          keys.slice(lasso!.from, firstRepeat + 1).map((_, j) => `s${lasso!.from + j}`),
        );
      }),
    );
  });

  it("counts the round only for a property that reads it", () => {
    const watch = new LoopWatch();
    watch.noteCall(exchange("patch"), 0, state("x", 0));
    watch.noteCall(exchange("review"), 1, state("y", 0));
    watch.noteCall(exchange("patch"), 2, state("x", 1));
    expect(watch.lasso(true)).toBeNull();
    expect(watch.lasso(false)).toMatchObject({ from: 1, to: 2, roundAside: true });
    expect(watch.describe(true)).toBe("");
  });

  it("names the most dispatched step when no state repeats", () => {
    const watch = new LoopWatch();
    watch.noteDispatch("poll");
    watch.noteDispatch("poll");
    watch.noteDispatch("fix");
    expect(watch.describe(true)).toBe("; what looped: step 'poll' was dispatched 2 times");
  });
});
