// The review log (interpreter/flow/review-log.ts), as stored: each rejected attempt with its
// violations and result, bounded per step, a large result left out, a revise's cleared output and
// a gate's resolution time kept, and nothing of it in a checkpoint.
import { describe, expect, it } from "vitest";
import { type Clock, createApi, MemoryStore, wireToPlain } from "../../../interpreter/index";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import { fromJsonValue } from "../../../stdlib/index";
import { NO_WORKSPACE } from "../../support/no-workspace";

const SPEC = `version: "0.2"
contracts:
  Draft:
    text: {type: string}
functions:
  write:
    mode: infer
    intent: "Write"
    input: {}
    output: Draft
    ensure:
      - "result.text == 'ok'"
    retries: 7
  review:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: draft
        function: write
        inputs: {}
      - id: approve
        function: review
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;

async function flowWith(spec = SPEC) {
  let now = 1_000_000;
  const clock: Clock = { wallMs: () => now, monoMs: () => now };
  const store = new MemoryStore();
  const api = createApi({
    store,
    clock,
    ids: { newFlowId: () => "00000000-0000-4000-8000-000000000002" },
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
  });
  const plan = await api.plan({ spec, flow: "main", inputs: fromJsonValue({}) });
  const flowId = String(plan.flow_id);
  expect(plan.status).toBe("execute_step");
  const log = async (): Promise<Record<string, Record<string, unknown>[]>> => {
    const stored = await store.read(flowId);
    if (stored === null) throw new Error("no flow");
    const decoded = decodeStoredFlow(stored);
    if (!decoded.ok) throw new Error(decoded.reason);
    return Object.fromEntries(
      [...decoded.state.review_log].map(([k, v]) => [
        k,
        v.map((e) => wireToPlain(e) as Record<string, unknown>),
      ]),
    );
  };
  const done = (text: string, stepId = "draft") => {
    now += 1_000;
    return api.stepDone({ flow_id: flowId, step_id: stepId, result: fromJsonValue({ text }) });
  };
  const resolve = (outcome: "revise" | "approve") => {
    now += 1_000;
    return api.gateResolve({
      flow_id: flowId,
      step_id: "approve",
      outcome,
      rationale: "",
      resolved_by: "human",
    });
  };
  return { log, done, resolve };
}

describe("the review log", () => {
  it("keeps the latest four rejected attempts of a step, their violations and results", async () => {
    const flow = await flowWith();
    for (let i = 1; i <= 6; i++) expect((await flow.done(`no ${i}`)).status).toBe("ensure_failed");
    const entries = (await flow.log()).draft ?? [];
    expect(entries.map((e) => e.attempt)).toEqual([3, 4, 5, 6]);
    expect(entries[3]).toEqual({
      kind: "rejected",
      round: 0,
      attempt: 6,
      at_ms: 1_006_000,
      violations: ["ensure 'result.text == 'ok'' failed"],
      result: { text: "no 6" },
      result_omitted: false,
    });
  });

  it("leaves out a large result, keeps a revise's cleared output and the gate's time", async () => {
    const flow = await flowWith();
    await flow.done("x".repeat(20_000));
    await flow.done("ok");
    await flow.resolve("revise");
    const log = await flow.log();
    expect(log.draft?.map((e) => [e.kind, e.result_omitted, e.result])).toEqual([
      ["rejected", true, null],
      ["revised", false, { text: "ok" }],
    ]);
    expect(log.approve).toEqual([
      {
        kind: "gate",
        round: 0,
        attempt: 0,
        at_ms: 1_003_000,
        violations: [],
        result: null,
        result_omitted: false,
      },
    ]);
    // The revised entry is of the round it ended.
    expect(log.draft?.[1]?.round).toBe(0);
  });

  it("keeps at most 100 steps, dropping the one written longest ago", async () => {
    const ids = Array.from({ length: 102 }, (_, i) => `s${i + 1}`);
    const steps = ids
      .map((id) => `      - id: ${id}\n        function: write\n        inputs: {}`)
      .join("\n");
    const spec = SPEC.replace(/ {6}- id: draft[\s\S]*$/, `${steps}\n`);
    const flow = await flowWith(spec);
    for (const id of ids) {
      expect((await flow.done("no", id)).status).toBe("ensure_failed");
      await flow.done("ok", id);
    }
    expect(Object.keys(await flow.log())).toEqual(ids.slice(2));
  });
});
