// stratum_commit / stratum_revert (docs/reference/runtime.md §10) and stratum_audit (docs/reference/runtime.md §11.2).
import { describe, expect, it } from "vitest";
import { audit, auditOf } from "../../../interpreter/flow/audit";
import { commitCheckpoint, revertCheckpoint } from "../../../interpreter/flow/checkpoints";
import { gateResolve } from "../../../interpreter/flow/gates";
import { iterationReport, iterationStart } from "../../../interpreter/flow/iterations";
import { stepDone } from "../../../interpreter/flow/step-done";
import { PyFloat } from "../../../stdlib/values/value";
import { data, FLOW_ID, keysOf, plain, type TestTx, world } from "./support";

const ABC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: b
        intent: "B"
      - id: c
        intent: "C"
`;

function done(tx: TestTx, stepId: string, result: unknown) {
  return stepDone(tx, { flow_id: FLOW_ID, step_id: stepId, result: data(result) });
}
const commit = (tx: TestTx, label: string) => commitCheckpoint(tx, { flow_id: FLOW_ID, label });
const revert = (tx: TestTx, label: string) => revertCheckpoint(tx, { flow_id: FLOW_ID, label });

describe("commit and revert", () => {
  it("replays checkpoints_commit_revert", () => {
    const { tx, run } = world(ABC);
    const first = commit(tx, "start");
    expect(keysOf(first)).toEqual([
      "status",
      "flow_id",
      "label",
      "step_number",
      "current_step_id",
      "checkpoints",
    ]);
    expect(plain(first)).toEqual({
      status: "committed",
      flow_id: FLOW_ID,
      label: "start",
      step_number: 1,
      current_step_id: "a",
      checkpoints: ["start"],
    });
    done(tx, "a", { v: 1 });
    expect(plain(commit(tx, "  after_a  "))).toMatchObject({
      label: "after_a",
      step_number: 2,
      current_step_id: "b",
      checkpoints: ["start", "after_a"],
    });
    done(tx, "b", { v: 2 });
    tx.edited.clear();
    expect(plain(commit(tx, "   "))).toEqual({
      status: "error",
      error_type: "invalid_label",
      message: "label must be a non-empty string",
    });
    const missing = revert(tx, "nope");
    expect(keysOf(missing)).toEqual(["status", "error_type", "message", "available"]);
    expect(plain(missing)).toEqual({
      status: "error",
      error_type: "checkpoint_not_found",
      message: `No checkpoint 'nope' on flow '${FLOW_ID}'`,
      available: ["start", "after_a"],
    });
    expect(tx.edited.size).toBe(0);
    run.timing.stepDispatchedAt.clear(); // the recorded scenario restarts here
    const reverted = revert(tx, " after_a");
    expect(keysOf(reverted).slice(-2)).toEqual(["model", "reverted_to"]);
    expect(plain(reverted)).toMatchObject({
      status: "execute_step",
      step_id: "b",
      step_number: 2,
      reverted_to: "after_a",
    });
    expect(run.state.step_outputs.has("b")).toBe(false);
    done(tx, "b", { v: 22 });
    // Replacing a checkpoint keeps its original position.
    expect(plain(commit(tx, "start"))).toMatchObject({
      current_step_id: "c",
      checkpoints: ["start", "after_a"],
    });
    expect(plain(done(tx, "c", { v: 3 }))).toMatchObject({ status: "complete", output: { v: 3 } });
    expect(run.state.records.map((r) => r.step_id)).toEqual(["a", "b", "c"]);
  });

  it("a snapshot is unaffected by later changes and by reverting to it twice", () => {
    const { tx, run } = world(ABC);
    done(tx, "a", { v: 1 });
    commit(tx, "one");
    done(tx, "b", { v: 2 });
    revert(tx, "one");
    done(tx, "b", { v: 3 });
    revert(tx, "one");
    expect(run.state.records.map((r) => r.step_id)).toEqual(["a"]);
    expect([...run.state.step_outputs.keys()]).toEqual(["a"]);
    expect(run.state.checkpoints.get("one")?.records).toHaveLength(1);
  });

  it("keeps later checkpoints and the inputs when reverting", () => {
    const { tx, run } = world(ABC);
    commit(tx, "early");
    done(tx, "a", { v: 1 });
    commit(tx, "late");
    const inputs = run.state.inputs;
    revert(tx, "early");
    expect([...run.state.checkpoints.keys()]).toEqual(["early", "late"]);
    expect(run.state.inputs).toBe(inputs);
    expect(plain(revert(tx, "late"))).toMatchObject({ step_id: "b", reverted_to: "late" });
  });

  it("reverting to a finished snapshot answers complete with the LAST step's output, possibly null", () => {
    const { tx } = world(ABC);
    done(tx, "a", { v: 1 });
    done(tx, "b", { v: 2 });
    done(tx, "c", { v: 3 });
    commit(tx, "end");
    const response = revert(tx, "end");
    expect(keysOf(response)).toEqual(["status", "flow_id", "output", "trace", "total_duration_ms"]);
    expect(plain(response)).toMatchObject({ status: "complete", output: { v: 3 } });

    const other = world(ABC);
    done(other.tx, "a", { v: 1 });
    done(other.tx, "b", { v: 2 });
    other.run.state.step_outputs.set("c", null);
    other.run.state.current_idx = 3;
    commit(other.tx, "end");
    expect(plain(revert(other.tx, "end"))).toMatchObject({ status: "complete", output: null });
  });

  it("says complete even for a killed flow, and does not run the policy loop", () => {
    const spec = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "A"
      - id: g
        function: g
        policy: skip
        on_approve: ~
        on_revise: a
        on_kill: ~
`;
    const { tx, run } = world(spec);
    done(tx, "a", { v: 1 });
    expect(run.state.records.map((r) => r.type)).toEqual(["step", "policy"]);
    run.state.current_idx = 1;
    commit(tx, "at_gate");
    expect(plain(revert(tx, "at_gate"))).toMatchObject({
      status: "await_gate",
      step_id: "g",
      reverted_to: "at_gate",
    });
    run.state.terminal_status = "killed";
    run.state.current_idx = 2;
    commit(tx, "killed");
    expect(plain(revert(tx, "killed"))).toMatchObject({ status: "complete" });
  });

  it("answers flow_not_found before looking at the label", () => {
    const { tx } = world(ABC);
    expect(plain(commitCheckpoint(tx, { flow_id: "zz", label: "" }))).toMatchObject({
      error_type: "flow_not_found",
    });
    expect(plain(revertCheckpoint(tx, { flow_id: "zz", label: "x" }))).toMatchObject({
      error_type: "flow_not_found",
    });
  });
});

describe("audit", () => {
  const REVIEWED = `version: "0.2"
functions:
  g: {mode: gate}
flows:
  main:
    input: {}
    budget: {ms: 5000, usd: 1.5}
    steps:
      - id: refine
        intent: "Refine"
        max_iterations: 3
      - id: review
        function: g
        on_approve: ~
        on_revise: refine
        on_kill: ~
`;

  it("reports the trace, rounds with their index, iterations without results, budget and child audits, in order", () => {
    const { tx, run, clock } = world(REVIEWED);
    iterationStart(tx, { flow_id: FLOW_ID, step_id: "refine" });
    iterationReport(tx, { flow_id: FLOW_ID, step_id: "refine", result: data({ q: 1 }) });
    done(tx, "refine", { q: 1 });
    gateResolve(tx, {
      flow_id: FLOW_ID,
      step_id: "review",
      outcome: "revise",
      rationale: "again",
      resolved_by: "human",
    });
    run.state.child_audits.set("x", [{ flow_id: "child" }]);
    clock.advance(42);
    tx.edited.clear();
    const response = audit(tx, { flow_id: FLOW_ID });
    expect(tx.edited.size).toBe(0);
    expect(keysOf(response)).toEqual([
      "flow_id",
      "flow_name",
      "status",
      "budget_state",
      "steps_completed",
      "total_steps",
      "trace",
      "cache_hits",
      "total_duration_ms",
      "round",
      "rounds",
      "iterations",
      "archived_iterations",
      "child_audits",
    ]);
    expect(plain(response)).toEqual({
      flow_id: FLOW_ID,
      flow_name: "main",
      status: "in_progress",
      budget_state: {
        caps: { ms: 5000, usd: 1.5, max_agent_dispatches: null, max_tokens: null },
        consumed: { wall_s: 0, dispatches: 0, tokens: 0, dollars: 0 },
      },
      steps_completed: 0,
      total_steps: 2,
      trace: [],
      cache_hits: 0,
      total_duration_ms: 42,
      round: 1,
      rounds: [
        {
          round: 0,
          steps: [
            expect.objectContaining({ step_id: "refine", type: "step", attempts: 1 }),
            expect.objectContaining({ step_id: "review", type: "gate", outcome: "revise" }),
          ],
        },
      ],
      iterations: {},
      archived_iterations: [
        {
          refine: [
            {
              iteration: 1,
              round: 0,
              result_fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
              exit_criterion_met: false,
              outcome: "continue",
              timestamp: 1,
            },
          ],
        },
      ],
      child_audits: { x: [{ flow_id: "child" }] },
    });
    const budget = response.budget_state as { consumed: { wall_s: unknown } };
    expect(budget.consumed.wall_s).toEqual(new PyFloat(0));
    // The stored history keeps its results.
    expect(run.state.archived_iterations[0]?.get("refine")?.[0]?.result).toBeDefined();
  });

  it("status: terminal status, else complete when finished, else in_progress; steps_completed counts every record", () => {
    const { tx, run } = world(REVIEWED);
    expect(plain(auditOf(run, tx.clock))).toMatchObject({
      status: "in_progress",
      budget_state: expect.any(Object),
    });
    done(tx, "refine", { q: 1 });
    gateResolve(tx, {
      flow_id: FLOW_ID,
      step_id: "review",
      outcome: "approve",
      rationale: "",
      resolved_by: "human",
    });
    expect(plain(auditOf(run, tx.clock))).toMatchObject({
      status: "complete",
      steps_completed: 2,
      round: 0,
      rounds: [],
    });
    run.state.terminal_status = "killed";
    expect(plain(auditOf(run, tx.clock))).toMatchObject({ status: "killed" });
  });

  it("budget_state is null without a flow budget with ms; unknown flows are flow_not_found", () => {
    const { tx, run } = world(ABC);
    expect(auditOf(run, tx.clock).budget_state).toBeNull();
    expect(plain(audit(tx, { flow_id: "nope" }))).toEqual({
      status: "error",
      error_type: "flow_not_found",
      message: "No active flow with id 'nope'",
    });
  });
});
