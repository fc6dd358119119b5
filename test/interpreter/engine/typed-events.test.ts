// The typed part of the engine's events (docs/reference/runtime.md "Events"): why a result was rejected
// (`reasons`, each violation with its kind and the exact text of the response), the members of a
// quorum that did not count, expressions outside ensure that raised, routes taken and the step
// whose output became the flow's output; and the property that every violation's text is the
// response's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  ExpressionFailed,
  FlowEvent,
  MembersJudged,
  StepFinished,
  StepRouted,
} from "../../../interpreter/engine/observer";
import { allViolations, violationTexts } from "../../../interpreter/flow/violations";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { fromJsonValue, parseJson } from "../../../stdlib/values/json";
import { makeObservedApi } from "../support/observed-api";

const SPEC = `version: "0.2"
contracts:
  Out:
    x: {type: integer}
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Produce x"
        output_contract: Out
        retries: 3
        ensure:
          - "result.x > 0"
          - "10 / result.x > 1"
        next: c
      - id: b
        intent: "Never reached"
      - id: c
        intent: "Guarded"
        skip_if: "10 / ($.steps.a.output.x - 1) > 1"
`;

function only<T extends FlowEvent["type"]>(
  events: readonly FlowEvent[],
  type: T,
): Extract<FlowEvent, { type: T }>[] {
  return events.filter((e): e is Extract<FlowEvent, { type: T }> => e.type === type);
}

describe("the reasons of a rejected result", () => {
  it("are typed: contract with its detail, then ensure failed / raised with index and error", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    h.take();
    const bad = await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": "no"}') });
    const [shape] = only(h.take(), "step_finished") as StepFinished[];
    expect(shape?.reasons).toEqual([
      expect.objectContaining({ kind: "contract", text: (bad.violations as string[])[0] }),
    ]);
    expect(shape?.reasons[0]).toMatchObject({ detail: expect.not.stringContaining("contract violation") });

    const raised = await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 0}') });
    const [finished] = only(h.take(), "step_finished");
    expect(finished).toMatchObject({ outcome: "rejected", failure: "ensure_failed" });
    expect(finished?.reasons.map((v) => v.kind)).toEqual(["ensure_failed", "ensure_raised"]);
    expect(finished?.reasons[0]).toMatchObject({ index: 0, expression: "result.x > 0" });
    expect(finished?.reasons[1]).toMatchObject({
      index: 1,
      expression: "10 / result.x > 1",
      error: { type: "ZeroDivisionError", answer: false },
    });
    // The texts are the response's, byte for byte.
    expect(violationTexts(finished?.reasons ?? [])).toEqual(raised.violations);
    expect(finished?.violations).toEqual(raised.violations);
  });

  it("an accepted result has none; its `next` is a route; a raising skip_if is an event", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    h.take();
    const spec = SPEC.replace('          - "10 / result.x > 1"\n', "");
    const again = await h.api.plan({ spec, flow: "main", inputs: parseJson("{}") });
    const id2 = String(again.flow_id);
    h.take();
    void id;
    const next = await h.api.stepDone({ flow_id: id2, step_id: "a", result: parseJson('{"x": 1}') });
    const events = h.take();
    expect(only(events, "step_finished")[0]).toMatchObject({ outcome: "accepted", reasons: [] });
    expect(only(events, "step_routed") as StepRouted[]).toEqual([
      expect.objectContaining({ from_step_id: "a", to_step_id: "c", route: "next" }),
    ]);
    const failed = only(events, "expression_failed") as ExpressionFailed[];
    expect(failed).toEqual([
      expect.objectContaining({
        step_id: "c",
        field: "skip_if",
        error: expect.objectContaining({ type: "ZeroDivisionError", answer: false }),
      }),
    ]);
    // The warning the response carries is the event's text.
    expect(next.warnings).toEqual([failed[0]?.text]);
  });

  it("the flow's completion names the step whose output is the flow's output", async () => {
    const h = makeObservedApi(new MemoryStore());
    const spec = SPEC.replace('          - "10 / result.x > 1"\n', "").replace(
      '        skip_if: "10 / ($.steps.a.output.x - 1) > 1"\n',
      "",
    );
    const id = String((await h.api.plan({ spec, flow: "main", inputs: parseJson("{}") })).flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 1}') });
    h.take();
    await h.api.stepDone({ flow_id: id, step_id: "c", result: parseJson("null") });
    const [done] = only(h.take(), "flow_finished");
    expect(done).toMatchObject({ status: "complete", output_step_id: "a" });
  });
});

const DECOMPOSE = `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  main:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
`;

describe("an error a builtin raises as its answer", () => {
  it("no_file_conflicts' conflict is an ensure_raised marked answer: true", async () => {
    const h = makeObservedApi(new MemoryStore());
    const id = String((await h.api.plan({ spec: DECOMPOSE, flow: "main", inputs: parseJson("{}") })).flow_id);
    h.take();
    const clash = `{"tasks": [{"id": "t1", "files_owned": ["a.py"]}, {"id": "t2", "files_owned": ["a.py"]}]}`;
    await h.api.stepDone({ flow_id: id, step_id: "analyze", result: parseJson(clash) });
    const [finished] = only(h.take(), "step_finished");
    expect(finished?.reasons).toEqual([
      expect.objectContaining({
        kind: "ensure_raised",
        error: expect.objectContaining({ type: "ValueError", answer: true }),
      }),
    ]);
  });
});

const QUORUM = `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        agent: claude
        intent: "Classify"
        runs: 3
        agree_on: "result.severity"
        threshold: 3
        output_contract: Classification
        ensure: ["result.severity.upper() != 'UNKNOWN'"]
      - id: report
        intent: "Report"
`;

describe("the members of a quorum", () => {
  it("that did not count are a members_judged event, their own reasons typed and nested", async () => {
    const h = makeObservedApi(new MemoryStore());
    const id = String((await h.api.plan({ spec: QUORUM, flow: "main", inputs: parseJson("{}") })).flow_id);
    h.take();
    const runs = [
      { task_id: "r1", status: "complete", result: { severity: "high" } },
      { task_id: "r2", status: "complete", result: { severity: 3 } },
      { task_id: "r3", status: "failed", error: "timed out" },
    ];
    const answer = await h.api.parallelDone({
      flow_id: id,
      step_id: "classify",
      task_results: fromJsonValue(runs),
      merge_status: "clean",
    });
    const events = h.take();
    const [judged] = only(events, "members_judged") as MembersJudged[];
    expect(judged?.members.map((m) => [m.member, m.verdict.status])).toEqual([
      ["r2", "schema_failed"],
      ["r3", "failed"],
    ]);
    const [finished] = only(events, "step_finished");
    expect(finished?.reasons.map((v) => v.kind)).toEqual(["agreement", "member", "member"]);
    expect(violationTexts(finished?.reasons ?? [])).toEqual(answer.violations);
    // Nested: the member's own contract violation.
    expect([...allViolations(finished?.reasons ?? [])].map((v) => v.kind)).toContain("contract");
  });
});

describe("every violation's text is the response's (property)", () => {
  it("for any result, the rejected attempt's reasons give exactly the response's violations", async () => {
    const value = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
      fc.boolean(),
    );
    const result = fc.oneof(
      fc.record({ x: value }, { requiredKeys: [] }),
      fc.record({ x: value, y: value }, { requiredKeys: [] }),
      value,
    );
    await fc.assert(
      fc.asyncProperty(result, async (r) => {
        const h = makeObservedApi(new MemoryStore());
        const id = String((await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") })).flow_id);
        h.take();
        const answer = await h.api.stepDone({ flow_id: id, step_id: "a", result: fromJsonValue(r) });
        const finished = only(h.take(), "step_finished")[0];
        const violations = Array.isArray(answer.violations) ? answer.violations : [];
        expect(violationTexts(finished?.reasons ?? [])).toEqual(violations);
        for (const v of finished?.reasons ?? []) {
          const head = {
            contract: "contract violation: ",
            output_schema: "output_schema violation: ",
            ensure_failed: "ensure '",
            ensure_raised: "Ensure expression ",
          } as Record<string, string>;
          expect(v.text.startsWith(head[v.kind] ?? "")).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
