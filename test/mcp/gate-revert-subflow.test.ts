// stratum_revert with STRATUM_GATES=human against a person's gate decision made inside a sub-flow
// (and a sub-flow's sub-flow), through the built stratum-mcp over stdio with the SDK's Client
// (docs/guides/mcp-server-gates.md): reverting the parent to a checkpoint saved before the sub-flow
// step would drop the child's decision (the child's records live in the parent's `child_audits`, or
// in the child still running), so it is refused and names the decision (and the person, when
// `stratumc gate --by` named them); a checkpoint saved after it is still allowed.
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stratumc } from "../cli/run-cli";
import { type ElicitingServer, startElicitingServer } from "./support/elicit-client";
import { tempDir, unexpectedStderr } from "./support/server";

/**
 * `publish` runs `middle` as a sub-flow, which runs `review_flow` as its own sub-flow; `direct`
 * runs `review_flow` itself. `review_flow` has a gate a person decides, then one more step.
 */
const SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    intent: "Approve it"
    timeout: 3600
flows:
  review_flow:
    input: {}
    steps:
      - id: draft
        intent: "Draft a post"
      - id: review
        function: approval
        depends_on: [draft]
        on_approve: tidy
        on_revise: draft
        on_kill: ~
      - id: tidy
        intent: "Tidy the post"
        depends_on: [review]
  middle:
    input: {}
    steps:
      - id: inner
        flow: review_flow
  direct:
    input: {}
    steps:
      - id: prepare
        intent: "Prepare"
      - id: sub
        flow: review_flow
        depends_on: [prepare]
      - id: post
        intent: "Publish the post"
        depends_on: [sub]
  publish:
    input: {}
    steps:
      - id: prepare
        intent: "Prepare"
      - id: sub
        flow: middle
        depends_on: [prepare]
      - id: post
        intent: "Publish the post"
        depends_on: [sub]
`;

type Answer = Record<string, unknown>;

async function call(server: ElicitingServer, name: string, args: Answer): Promise<Answer> {
  const result = await server.client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Answer;
}

const approves = (): Promise<ElicitResult> =>
  Promise.resolve({ action: "accept", content: { outcome: "approve", note: "the person approves" } });

interface Started {
  readonly parent: string;
  /** The flow whose gate the person decides (the child, or the grandchild under `publish`). */
  readonly reviewed: string;
}

/**
 * A new `flow` with checkpoint `start` saved at its first step, `prepare` done, and the sub-flows
 * entered down to `review_flow`, whose draft is done and whose gate the person approved (`decide`,
 * in the client by default): the reviewed flow is at `tidy`, still running.
 */
async function approvedInside(
  server: ElicitingServer,
  flow: "direct" | "publish",
  decide: (flowId: string) => Promise<void> = askInClient(server),
): Promise<Started> {
  const planned = await call(server, "stratum_plan", { spec: SPEC, flow, inputs: {} });
  const parent = String(planned.flow_id);
  await call(server, "stratum_commit", { flow_id: parent, label: "start" });
  let payload = await call(server, "stratum_step_done", { flow_id: parent, step_id: "prepare", result: {} });
  while (payload.status === "execute_flow") {
    expect(payload.child_step).not.toBeNull();
    const childId = String(payload.child_flow_id);
    payload = payload.child_step as Answer;
    if (payload.status === "execute_step") {
      expect(payload).toMatchObject({ flow_id: childId, step_id: "draft" });
      payload = await call(server, "stratum_step_done", {
        flow_id: childId,
        step_id: "draft",
        result: { t: 1 },
      });
    }
  }
  expect(payload).toMatchObject({ status: "await_gate", step_id: "review" });
  const reviewed = String(payload.flow_id);
  await decide(reviewed);
  expect(await call(server, "stratum_resume", { flow_id: reviewed })).toMatchObject({
    status: "execute_step",
    step_id: "tidy",
  });
  return { parent, reviewed };
}

/** The person approves in the client (stratum_gate_ask with form elicitation). */
const askInClient =
  (server: ElicitingServer) =>
  async (flowId: string): Promise<void> => {
    server.answer = approves;
    expect(await call(server, "stratum_gate_ask", { flow_id: flowId, step_id: "review" })).toMatchObject({
      status: "execute_step",
      step_id: "tidy",
    });
  };

/** Finishes a running flow's current step and reports each finished child to its parent, up to `top`. */
async function finishUpTo(
  server: ElicitingServer,
  flowId: string,
  stepId: string,
  top: string,
): Promise<Answer> {
  let done = await call(server, "stratum_step_done", { flow_id: flowId, step_id: stepId, result: { t: 2 } });
  let current = flowId;
  while (current !== top) {
    expect(done.status).toBe("complete");
    const state = await call(server, "stratum_audit", { flow_id: current });
    expect(state.status).toBe("complete");
    const parentOf = await findParent(server, current, top);
    done = await call(server, "stratum_step_done", {
      flow_id: parentOf.flowId,
      step_id: parentOf.stepId,
      result: done,
    });
    current = parentOf.flowId;
  }
  return done;
}

/** The flow (under `top`) that currently runs `child`, and its sub-flow step (from the resume payload). */
async function findParent(
  server: ElicitingServer,
  child: string,
  top: string,
): Promise<{ flowId: string; stepId: string }> {
  let at = top;
  for (;;) {
    const resumed = await call(server, "stratum_resume", { flow_id: at });
    expect(resumed.status).toBe("execute_flow");
    if (resumed.child_flow_id === child) return { flowId: at, stepId: String(resumed.parent_step_id) };
    at = String(resumed.child_flow_id);
  }
}

describe("stratum_revert with STRATUM_GATES=human and a person's decision inside a sub-flow", () => {
  const home = tempDir("stratum-gate-revert-sub-");
  let server: ElicitingServer;

  beforeAll(async () => {
    server = await startElicitingServer({ cwd: home.path, home: home.path, env: { STRATUM_GATES: "human" } });
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
    home.dispose();
  });

  it("refuses a parent revert to before the sub-flow step once the child finished and was reported", async () => {
    const { parent, reviewed } = await approvedInside(server, "direct");
    expect(await finishUpTo(server, reviewed, "tidy", parent)).toMatchObject({
      status: "execute_step",
      step_id: "post",
    });
    await call(server, "stratum_commit", { flow_id: parent, label: "after_sub" });
    const refused = await call(server, "stratum_revert", { flow_id: parent, label: "start" });
    expect(refused).toMatchObject({
      status: "error",
      error_type: "human_gate_revert_refused",
      gates: [
        {
          step_id: "review",
          outcome: "approve",
          round: 0,
          flow_id: reviewed,
          flow_name: "review_flow",
          via: ["sub"],
        },
      ],
      allowed: ["after_sub"],
    });
    expect(refused.message).toMatch(/gate 'review' \(approve\) in sub-flow 'review_flow' of step 'sub'/);
    expect(refused.message).toMatch(/'after_sub'/);
    // Nothing changed: the parent is still past the sub-flow step, the child's decision in its audit.
    expect(await call(server, "stratum_resume", { flow_id: parent })).toMatchObject({ step_id: "post" });
    // The checkpoint saved after the sub-flow step keeps the decision: the agent may go back there.
    await call(server, "stratum_step_done", { flow_id: parent, step_id: "post", result: { url: "u" } });
    expect(await call(server, "stratum_revert", { flow_id: parent, label: "after_sub" })).toMatchObject({
      status: "execute_step",
      step_id: "post",
      reverted_to: "after_sub",
    });
  });

  it("refuses a parent revert while the child the person decided in is still running", async () => {
    const { parent, reviewed } = await approvedInside(server, "direct");
    expect(await call(server, "stratum_revert", { flow_id: parent, label: "start" })).toMatchObject({
      error_type: "human_gate_revert_refused",
      gates: [{ step_id: "review", outcome: "approve", flow_id: reviewed, via: ["sub"] }],
      allowed: [],
    });
    expect(await call(server, "stratum_resume", { flow_id: reviewed })).toMatchObject({ step_id: "tidy" });
  });

  it("refuses a revert that would drop a decision made in a sub-flow's sub-flow", async () => {
    const { parent, reviewed } = await approvedInside(server, "publish");
    expect(await finishUpTo(server, reviewed, "tidy", parent)).toMatchObject({ step_id: "post" });
    const refused = await call(server, "stratum_revert", { flow_id: parent, label: "start" });
    expect(refused).toMatchObject({
      error_type: "human_gate_revert_refused",
      gates: [
        {
          step_id: "review",
          outcome: "approve",
          flow_id: reviewed,
          flow_name: "review_flow",
          via: ["sub", "inner"],
        },
      ],
    });
    expect(refused.message).toMatch(/in sub-flow 'review_flow' of step 'sub' > 'inner'/);
  });

  it("names the person who decided in the sub-flow with `stratumc gate --by`", async () => {
    const byAna = (flowId: string): Promise<void> => {
      const r = stratumc(["gate", "approve", flowId, "review", "--by", "ana", "--note", "fine"], {
        cwd: home.path,
        env: { STRATUM_HOME: home.path },
      });
      expect(r.status, r.stderr).toBe(0);
      return Promise.resolve();
    };
    const { parent, reviewed } = await approvedInside(server, "direct", byAna);
    const refused = await call(server, "stratum_revert", { flow_id: parent, label: "start" });
    expect(refused).toMatchObject({
      error_type: "human_gate_revert_refused",
      gates: [
        { step_id: "review", outcome: "approve", resolved_by_name: "ana", flow_id: reviewed, via: ["sub"] },
      ],
    });
    expect(refused.message).toMatch(
      /gate 'review' \(approve, by ana\) in sub-flow 'review_flow' of step 'sub'/,
    );
  });
});
