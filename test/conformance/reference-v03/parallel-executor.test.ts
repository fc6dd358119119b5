// Port of the sixteen MCP-level tests of the reference's
// stratum-mcp/tests/integration/test_parallel_executor.py (smartmemory/stratum, commit ecc1aa5),
// the tests that need no stub of the reference. Same specs (./specs.ts, verbatim), same tool calls, same
// assertions, but through the built `stratum-mcp` over stdio with the MCP SDK client instead of
// the reference's in-process async functions. Adaptations, where the reference reads its internals:
// - test_parallel_dispatch_isolation_none_passes_through reads the payload through internals
//   (`_flows`, `get_current_step_info`); here it is step_done's answer and stratum_resume's.
// - test_parallel_done_cert_task_result_has_cert_violations_metadata asserts that the caller's own
//   list was mutated, which MCP cannot show (arguments are copies); here the same report is made
//   on the `require: any` spec, so the step completes, and the aggregate stored as the step's
//   output (the completion payload's `output`, the flow having no `output`) is asserted instead.
// The reference's `try/finally: _flows.pop` clean-up has no counterpart: every flow stays in the
// server's fresh STRATUM_HOME, removed with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Plain, ReferenceSession, violationsOf } from "./reference-session";
import {
  BAD_CERT,
  V03_DECOMPOSE_PARALLEL,
  V03_ISOLATION_NONE,
  V03_PAR_CERT,
  V03_PAR_CERT_ANY,
  V03_PAR_CERT_CODEX,
  V03_REQUIRE_ANY,
  V03_REQUIRE_N,
  VALID_CERT,
} from "./specs";

let session: ReferenceSession;

beforeAll(async () => {
  session = await ReferenceSession.start();
});

afterAll(async () => {
  expect(await session.close()).toEqual([]);
});

const plan = (spec: string, inputs: Plain = {}) =>
  session.call("stratum_plan", { spec, flow: "main", inputs });
const stepDone = (flow_id: string, step_id: string, result: unknown) =>
  session.call("stratum_step_done", { flow_id, step_id, result });
const parallelDone = (flow_id: string, task_results: unknown[], merge_status: string) =>
  session.call("stratum_parallel_done", { flow_id, step_id: "execute", task_results, merge_status });

function flowIdOf(response: Plain): string {
  const id = response.flow_id;
  if (typeof id !== "string") throw new Error(`stratum_plan gave no flow_id: ${JSON.stringify(response)}`);
  return id;
}

const task = (id: string, desc: string | undefined, file: string) => ({
  id,
  ...(desc === undefined ? {} : { desc }),
  files_owned: [file],
  depends_on: [],
});

const ok = (task_id: string) => ({ task_id, result: { ok: true }, status: "complete" });
const boom = (task_id: string) => ({ task_id, result: { error: "boom" }, status: "failed" });
const cert = (task_id: string, key: "artifact" | "reasoning", text: string) => ({
  task_id,
  result: { [key]: text },
  status: "complete",
});

/** `_dispatch_to_execute`: report analyze's task graph t1..tn (desc `task i`, file `fi.py`). */
async function dispatchToExecute(flowId: string, numTasks = 2): Promise<Plain> {
  const tasks = Array.from({ length: numTasks }, (_, k) =>
    task(`t${k + 1}`, `task ${k + 1}`, `f${k + 1}.py`),
  );
  return stepDone(flowId, "analyze", { tasks });
}

/** The first three steps of the `_V03_DECOMPOSE_PARALLEL` tests, up to the parallel step. */
async function decomposeParallelToExecute(withDesc: boolean): Promise<string> {
  const flowId = flowIdOf(await plan(V03_DECOMPOSE_PARALLEL, { plan: "build it" }));
  await stepDone(flowId, "prepare", { outcome: "ready" });
  await stepDone(flowId, "analyze", {
    tasks: [
      task("t1", withDesc ? "task 1" : undefined, "a.py"),
      task("t2", withDesc ? "task 2" : undefined, "b.py"),
    ],
  });
  return flowId;
}

const FAILURE_STATUSES = ["ensure_failed", "error"];

describe("reference test_parallel_executor.py (ecc1aa5) over MCP", () => {
  it("test_parallel_done_advances_flow_on_success", async () => {
    const flowId = flowIdOf(await plan(V03_DECOMPOSE_PARALLEL, { plan: "build it" }));
    let result = await stepDone(flowId, "prepare", { outcome: "ready" });
    expect(result.step_id).toBe("analyze");
    result = await stepDone(flowId, "analyze", {
      tasks: [task("t1", "task 1", "a.py"), task("t2", "task 2", "b.py")],
    });
    expect(result.step_id).toBe("execute");
    expect(result.status).toBe("parallel_dispatch");
    result = await parallelDone(flowId, [ok("t1"), ok("t2")], "clean");
    expect(result.status).toBe("complete");
  });

  it("test_parallel_done_fails_on_merge_conflict", async () => {
    const flowId = await decomposeParallelToExecute(false);
    const result = await parallelDone(flowId, [ok("t1"), ok("t2")], "conflict");
    expect(FAILURE_STATUSES).toContain(result.status);
    expect(violationsOf(result).some((v) => v.toLowerCase().includes("conflict"))).toBe(true);
  });

  it("test_parallel_done_require_all_fails_on_incomplete", async () => {
    const flowId = await decomposeParallelToExecute(false);
    const result = await parallelDone(flowId, [ok("t1"), boom("t2")], "clean");
    expect(FAILURE_STATUSES).toContain(result.status);
    expect(
      violationsOf(result).some(
        (v) => v.toLowerCase().includes("require") || v.toLowerCase().includes("satisfied"),
      ),
    ).toBe(true);
  });

  it("test_parallel_done_require_any_succeeds_with_one", async () => {
    const flowId = flowIdOf(await plan(V03_REQUIRE_ANY));
    await stepDone(flowId, "analyze", {
      tasks: [task("t1", "task 1", "a.py"), task("t2", "task 2", "b.py")],
    });
    const result = await parallelDone(flowId, [ok("t1"), boom("t2")], "clean");
    expect(result.status).toBe("complete");
  });

  const threeTasks = {
    tasks: [task("t1", "t1", "a.py"), task("t2", "t2", "b.py"), task("t3", "t3", "c.py")],
  };

  it("test_parallel_done_require_n_passes_when_met", async () => {
    const flowId = flowIdOf(await plan(V03_REQUIRE_N));
    await stepDone(flowId, "analyze", threeTasks);
    const result = await parallelDone(flowId, [ok("t1"), ok("t2"), boom("t3")], "clean");
    expect(result.status).toBe("complete");
  });

  it("test_parallel_dispatch_isolation_none_passes_through", async () => {
    const flowId = flowIdOf(await plan(V03_ISOLATION_NONE));
    const dispatched = await stepDone(flowId, "analyze", {
      tasks: [task("t1", "task 1", "a.py"), task("t2", "task 2", "b.py")],
    });
    // The reference reads get_current_step_info(state); over MCP: the dispatch and a resume.
    for (const info of [dispatched, await session.call("stratum_resume", { flow_id: flowId })]) {
      expect(info.status).toBe("parallel_dispatch");
      expect(info.isolation).toBe("none");
    }
  });

  it("test_parallel_done_require_n_fails_when_not_met", async () => {
    const flowId = flowIdOf(await plan(V03_REQUIRE_N));
    await stepDone(flowId, "analyze", threeTasks);
    const result = await parallelDone(flowId, [ok("t1"), boom("t2"), boom("t3")], "clean");
    expect(FAILURE_STATUSES).toContain(result.status);
  });

  it("test_parallel_done_cert_pass_advances_flow", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", VALID_CERT)],
      "clean",
    );
    expect(result.status).toBe("complete");
  });

  it("test_parallel_done_cert_fail_marks_task_failed_and_require_all_fails", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", BAD_CERT)],
      "clean",
    );
    expect(FAILURE_STATUSES).toContain(result.status);
    const violations = violationsOf(result);
    expect(violations.some((v) => v.toLowerCase().includes("cert"))).toBe(true);
    expect(violations.some((v) => v.includes("t2"))).toBe(true);
  });

  it("test_parallel_done_cert_fail_passes_with_require_any", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT_ANY));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", BAD_CERT)],
      "clean",
    );
    expect(result.status).toBe("complete");
  });

  it("test_parallel_done_cert_skipped_for_codex_agent", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT_CODEX));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", BAD_CERT), cert("t2", "artifact", BAD_CERT)],
      "clean",
    );
    expect(result.status).toBe("complete");
  });

  it("test_parallel_done_cert_reads_reasoning_field_fallback", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "reasoning", VALID_CERT), cert("t2", "reasoning", VALID_CERT)],
      "clean",
    );
    expect(result.status).toBe("complete");
  });

  it("test_parallel_done_cert_violations_surface_in_fail_reasons", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", BAD_CERT)],
      "clean",
    );
    expect(violationsOf(result).some((v) => v.includes("task 't2' cert"))).toBe(true);
  });

  it("test_parallel_done_cert_violations_surface_on_retries_exhausted", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const bad = () => [cert("t1", "artifact", BAD_CERT), cert("t2", "artifact", BAD_CERT)];
    let result = await parallelDone(flowId, bad(), "clean");
    expect(FAILURE_STATUSES).toContain(result.status);
    result = await parallelDone(flowId, bad(), "clean");
    expect(violationsOf(result).some((v) => v.toLowerCase().includes("cert"))).toBe(true);
  });

  it("test_parallel_done_cert_violations_surface_on_merge_conflict", async () => {
    const flowId = flowIdOf(await plan(V03_PAR_CERT));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", BAD_CERT)],
      "conflict",
    );
    const violations = violationsOf(result);
    expect(violations.some((v) => v.toLowerCase().includes("conflict"))).toBe(true);
    expect(violations.some((v) => v.toLowerCase().includes("cert"))).toBe(true);
  });

  it("test_parallel_done_cert_task_result_has_cert_violations_metadata", async () => {
    // Adapted (file header): the stored aggregate instead of the caller's mutated list.
    const flowId = flowIdOf(await plan(V03_PAR_CERT_ANY));
    await dispatchToExecute(flowId);
    const result = await parallelDone(
      flowId,
      [cert("t1", "artifact", VALID_CERT), cert("t2", "artifact", BAD_CERT)],
      "clean",
    );
    expect(result.status).toBe("complete");
    const output = result.output as { tasks?: Plain[] } | null;
    const t2 = output?.tasks?.find((t) => t.task_id === "t2");
    expect(t2?.status).toBe("failed");
    expect(Array.isArray(t2?.cert_violations)).toBe(true);
    const certViolations = (t2?.cert_violations ?? []) as unknown[];
    expect(
      certViolations.some((v) => typeof v === "string" && v.toLowerCase().includes("missing section")),
    ).toBe(true);
  });
});
