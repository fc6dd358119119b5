// Quorum steps (stratumc's extension, docs/reference/runtime.md §23.13) through the in-process engine,
// consumer path: the payload, agreement, ties, a fractional threshold, runs that fail their
// contract or ensure, retries that re-run all runs, exhaustion and on_fail, the votes kept in
// judge_outcome, the refused reports, server-side start refused, and a restart in the middle.
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { harness, plain, planOk, result, stored } from "./api-fixtures";
import { text } from "./fixtures";

interface SpecOptions {
  readonly runs?: number;
  readonly threshold?: string;
  readonly extra?: string;
  readonly after?: string;
}

function spec(o: SpecOptions = {}): string {
  return `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
    note: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        agent: claude
        intent: "Classify the ticket"
        runs: ${o.runs ?? 5}
        agree_on: "result.severity"
${o.threshold === undefined ? "" : `        threshold: ${o.threshold}\n`}        output_contract: Classification
        ensure: ["result.severity != 'unknown'"]
${o.extra ?? ""}      - id: report
        intent: "Report"
        depends_on: [classify]
${o.after ?? ""}`;
}

const run = (id: string, severity: string, note = id) =>
  `{"task_id": "${id}", "status": "complete", "result": {"severity": "${severity}", "note": "${note}"}}`;

function report(api: StratumApi, flowId: string, runs: string[]): Promise<Response> {
  return api.parallelDone({
    flow_id: flowId,
    step_id: "classify",
    task_results: result(`[${runs.join(", ")}]`),
    merge_status: "clean",
  });
}

function votes(severities: string[]): string[] {
  return severities.map((s, i) => run(`r${i + 1}`, s));
}

describe("quorum payload", () => {
  it("is a parallel_dispatch payload with step_mode quorum, one task per run and the quorum keys", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec({ runs: 3 }));
    expect(text(plan)).toBe(
      `{"status": "parallel_dispatch", "flow_id": "${plan.flow_id}", "step_number": 1, "total_steps": 2, "step_id": "classify", "step_mode": "quorum", "tasks": [{"id": "r1", "intent": "Classify the ticket"}, {"id": "r2", "intent": "Classify the ticket"}, {"id": "r3", "intent": "Classify the ticket"}], "agent": "claude", "max_concurrent": 3, "isolation": "none", "intent_template": "Classify the ticket", "intent": "Classify the ticket", "inputs": {}, "output_contract": "Classification", "output_fields": {"severity": "string", "note": "string"}, "ensure": ["result.severity != 'unknown'"], "runs": 3, "agree_on": "result.severity", "threshold": 2, "required_votes": 2, "retries_remaining": 1}`,
    );
  });

  it("echoes a fractional threshold as written and the votes it requires", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec({ runs: 5, threshold: "0.6" }));
    expect(plain(plan)).toMatchObject({ threshold: 0.6, required_votes: 3 });
  });
});

describe("quorum agreement", () => {
  it("the largest group at the threshold wins; the result is its first member's; the votes are kept", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ threshold: "3" }))).flow_id);
    const next = await report(h.api, id, votes(["low", "high", "high", "low", "high"]));
    expect(plain(next)).toMatchObject({ status: "execute_step", step_id: "report" });
    // The answer names the winner and the runs that voted for nothing (none here).
    expect(plain(next)).toMatchObject({ quorum: { winner: "r2", rejected: [] } });
    const state = await stored(h.store, id);
    expect(wireToPlain(state.step_outputs.get("classify") ?? null)).toEqual({ severity: "high", note: "r2" });
    expect(wireToPlain(state.judge_outcome.get("classify") ?? null)).toEqual({
      agree_on: "result.severity",
      runs: 5,
      required_votes: 3,
      votes: [
        { key: "low", runs: ["r1", "r4"] },
        { key: "high", runs: ["r2", "r3", "r5"] },
      ],
      winner: "r2",
      failed: {},
    });
    expect(state.records).toMatchObject([{ step_id: "classify", step_mode: "quorum", attempts: 1 }]);
  });

  it("a group below the threshold is no agreement: ensure_failed with the no-quorum violation", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ threshold: "3", extra: "        retries: 2\n" }))).flow_id);
    const next = await report(h.api, id, votes(["high", "high", "low", "medium", "none"]));
    expect(plain(next)).toMatchObject({
      status: "ensure_failed",
      step_id: "classify",
      step_mode: "quorum",
      retries_remaining: 1,
      violations: ["no quorum on 'result.severity': best 'high' 2 of 5, threshold 3"],
    });
  });

  it("a tie between the largest groups is no agreement, even at the threshold", async () => {
    const h = harness();
    const id = String(
      (await planOk(h.api, spec({ runs: 4, threshold: "2", extra: "        retries: 2\n" }))).flow_id,
    );
    const next = await report(h.api, id, votes(["high", "low", "low", "high"]));
    expect(plain(next)).toMatchObject({
      status: "ensure_failed",
      violations: ["no quorum on 'result.severity': tie between 'high', 'low' at 2 of 4, threshold 2"],
    });
  });

  it("a fraction is rounded up: 0.6 of 5 runs needs 3, 0.5 of 4 needs 2", async () => {
    const h = harness();
    const five = String(
      (await planOk(h.api, spec({ threshold: "0.6", extra: "        retries: 2\n" }))).flow_id,
    );
    expect(plain(await report(h.api, five, votes(["a", "a", "b", "c", "d"])))).toMatchObject({
      status: "ensure_failed",
      violations: ["no quorum on 'result.severity': best 'a' 2 of 5, threshold 3"],
    });
    const four = String((await planOk(h.api, spec({ runs: 4, threshold: "0.5" }))).flow_id);
    expect((await report(h.api, four, votes(["a", "a", "b", "c"]))).status).toBe("execute_step");
  });

  it("no threshold means a majority of runs", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ runs: 4, extra: "        retries: 2\n" }))).flow_id);
    expect(plain(await report(h.api, id, votes(["a", "a", "b", "c"])))).toMatchObject({
      status: "ensure_failed",
      violations: ["no quorum on 'result.severity': best 'a' 2 of 4, threshold 3"],
    });
    expect((await report(h.api, id, votes(["a", "a", "a", "c"]))).status).toBe("execute_step");
  });

  it("runs that fail their contract or ensure, fail, or are not reported vote for nothing", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ threshold: "2", extra: "        retries: 2\n" }))).flow_id);
    const runs = [
      run("r1", "high"),
      `{"task_id": "r2", "status": "complete", "result": {"severity": "high"}}`,
      run("r3", "unknown"),
      `{"task_id": "r4", "status": "failed", "error": "timed out"}`,
    ];
    const next = await report(h.api, id, runs);
    expect(plain(next)).toMatchObject({
      status: "ensure_failed",
      violations: [
        "no quorum on 'result.severity': best 'high' 1 of 5, threshold 2",
        expect.stringMatching(/^run 'r2': schema_failed: .*note/),
        "run 'r3': ensure_failed: ensure 'result.severity != 'unknown'' failed",
        "run 'r4': failed: timed out",
        "run 'r5': not reported",
      ],
    });
    const state = await stored(h.store, id);
    expect(wireToPlain(state.judge_outcome.get("classify") ?? null)).toMatchObject({
      votes: [{ key: "high", runs: ["r1"] }],
      winner: null,
      failed: { r4: "failed: timed out", r5: "not reported" },
    });
  });

  it("an agreement's answer lists the runs that voted for nothing, with why", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ runs: 3, threshold: "2" }))).flow_id);
    const next = await report(h.api, id, [run("r1", "unknown"), run("r2", "low"), run("r3", "low")]);
    expect(plain(next)).toMatchObject({
      status: "execute_step",
      quorum: {
        winner: "r2",
        rejected: [{ id: "r1", violations: ["ensure_failed: ensure 'result.severity != 'unknown'' failed"] }],
      },
    });
  });

  it("keys are grouped by Python equality: 1 and 1.0 are one key", async () => {
    const h = harness();
    const s = spec({ runs: 3, threshold: "3" })
      .replace('agree_on: "result.severity"', 'agree_on: "result.score"')
      .replace("note: {type: string}", "note: {type: string}\n    score: {type: number}");
    const id = String((await planOk(h.api, s)).flow_id);
    const scored = (rid: string, score: string) =>
      `{"task_id": "${rid}", "status": "complete", "result": {"severity": "x", "note": "n", "score": ${score}}}`;
    const next = await report(h.api, id, [scored("r1", "1"), scored("r2", "1.0"), scored("r3", "1")]);
    expect(next.status).toBe("execute_step");
  });
});

describe("quorum failure handling", () => {
  it("retries re-dispatch all runs; exhaustion without on_fail is retries_exhausted with a record", async () => {
    const h = harness();
    const id = String(
      (await planOk(h.api, spec({ runs: 3, threshold: "3", extra: "        retries: 2\n" }))).flow_id,
    );
    const first = await report(h.api, id, votes(["a", "b", "a"]));
    expect(plain(first)).toMatchObject({
      status: "ensure_failed",
      step_mode: "quorum",
      tasks: [{ id: "r1" }, { id: "r2" }, { id: "r3" }],
      retries_remaining: 1,
    });
    const second = await report(h.api, id, votes(["a", "b", "b"]));
    expect(plain(second)).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      step_mode: "quorum",
      violations: ["no quorum on 'result.severity': best 'b' 2 of 3, threshold 3"],
    });
    const state = await stored(h.store, id);
    expect(state.records).toMatchObject([{ step_id: "classify", step_mode: "quorum", attempts: 2 }]);
  });

  it("exhaustion with on_fail routes there; the step's output is null", async () => {
    const h = harness();
    const s = spec({ runs: 3, threshold: "3", extra: "        on_fail: fallback\n" }).replace(
      "        depends_on: [classify]\n",
      '        depends_on: [classify]\n      - id: fallback\n        intent: "Classify by hand"\n',
    );
    const id = String((await planOk(h.api, s)).flow_id);
    const next = await report(h.api, id, votes(["a", "b", "c"]));
    expect(plain(next)).toMatchObject({
      status: "execute_step",
      step_id: "fallback",
      routed_from: "classify",
      violations: ["no quorum on 'result.severity': best 'a' 1 of 3, threshold 3"],
    });
    expect((await stored(h.store, id)).step_outputs.get("classify")).toBeNull();
  });

  it("refuses reports of unknown or repeated runs, committing nothing", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ runs: 2 }))).flow_id);
    expect(plain(await report(h.api, id, [run("r3", "a")]))).toMatchObject({
      status: "error",
      error_type: "invalid_arguments",
      message: "task_results[0].task_id: 'r3' is not a run of quorum step 'classify' (r1 … r2)",
    });
    expect(plain(await report(h.api, id, [run("r1", "a"), run("r1", "a")]))).toMatchObject({
      error_type: "invalid_arguments",
      message: "task_results[1].task_id: run 'r1' is reported twice",
    });
    const state = await stored(h.store, id);
    expect(state.attempts.size).toBe(0);
    expect(state.judge_outcome.size).toBe(0);
  });

  it("stratum_parallel_start on a quorum step without an agent runner answers server_dispatch_unavailable", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec())).flow_id);
    expect(plain(await h.api.parallelStart({ flow_id: id, step_id: "classify" }))).toMatchObject({
      status: "error",
      error_type: "server_dispatch_unavailable",
    });
  });

  it("a restart in the middle: a new engine takes the report and finishes the step", async () => {
    const h = harness();
    const id = String((await planOk(h.api, spec({ runs: 3 }))).flow_id);
    const api = h.restart();
    const next = await report(api, id, votes(["a", "a", "b"]));
    expect(plain(next)).toMatchObject({ status: "execute_step", step_id: "report" });
  });
});
