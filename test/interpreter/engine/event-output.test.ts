// `step_finished`'s `output` (docs/reference/runtime.md §24.1): the value the flow stored for the
// step with that attempt, which `$.steps.<id>.output` reads from then on — the accepted result, a
// sub-flow's output, an accumulating loop's result with its fields merged, the result an exhausted
// step's on_fail routes on with — and none for a rejected attempt or one that stored nothing; and
// the JSON form the MCP server sends, which reads back as the same value (property).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventFromJson, eventToJson } from "../../../interpreter/engine/event-json";
import type { FlowEvent, StepFinished } from "../../../interpreter/engine/observer";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { encodeWire, wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue, parseJson } from "../../../stdlib/values/json";
import { makeObservedApi } from "../support/observed-api";

const SPEC = `version: "0.2"
contracts:
  Out:
    x: {type: integer}
  Page:
    links: {type: array}
    done: {type: boolean}
flows:
  child:
    input: {}
    output: Out
    steps:
      - id: inner
        intent: "Produce x"
        output_contract: Out
  main:
    input: {}
    steps:
      - id: a
        intent: "Produce x"
        output_contract: Out
        retries: 2
        ensure: ["result.x > 0"]
      - id: sub
        flow: child
        inputs: {}
        output_contract: Out
      - id: crawl
        intent: "Crawl"
        output_contract: Page
        max_iterations: 3
        accumulate: "result.links"
        exit_criterion: "result.done == True"
        retries: 1
        ensure: ["len(result.links) < 9"]
        on_fail: a
`;

function finished(events: readonly FlowEvent[], stepId: string): StepFinished[] {
  return events.filter((e): e is StepFinished => e.type === "step_finished" && e.step_id === stepId);
}

const plain = (v: StepFinished | undefined) => (v?.output === undefined ? undefined : wireToPlain(v.output));

describe("the output a step_finished event carries", () => {
  it("is the stored output of each accepted or on_fail-routed attempt, and absent otherwise", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    h.take();

    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 0}') });
    const [rejected] = finished(h.take(), "a");
    expect(rejected?.outcome).toBe("rejected");
    expect(rejected).not.toHaveProperty("output", expect.anything());
    expect(rejected?.output).toBeUndefined();

    const child = await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 3}') });
    const [accepted] = finished(h.take(), "a");
    expect(accepted?.outcome).toBe("accepted");
    expect(plain(accepted)).toEqual({ x: 3 });

    // The sub-flow: the child's last step, then the child's output reported to the parent step.
    const childId = String(child.child_flow_id);
    const done = await h.api.stepDone({ flow_id: childId, step_id: "inner", result: parseJson('{"x": 7}') });
    h.take();
    await h.api.stepDone({ flow_id: id, step_id: "sub", result: fromJsonValue(wireToPlain(done)) });
    const [sub] = finished(h.take(), "sub");
    expect(sub?.outcome).toBe("accepted");
    expect(plain(sub)).toEqual({ x: 7 });

    // Two iterations accumulate three links; the step's output has them merged in.
    await h.api.iterationStart({ flow_id: id, step_id: "crawl" });
    for (const links of ['["l1"]', '["l2", "l3"]']) {
      await h.api.iterationReport({
        flow_id: id,
        step_id: "crawl",
        result: parseJson(`{"links": ${links}, "done": false}`),
      });
    }
    h.take();
    await h.api.stepDone({ flow_id: id, step_id: "crawl", result: parseJson('{"links": [], "done": true}') });
    const [crawled] = finished(h.take(), "crawl");
    expect(plain(crawled)).toEqual({
      links: [],
      done: true,
      accumulated: ["l1", "l2", "l3"],
      accumulated_count: 3,
    });
  });

  it("is the failing result an on_fail route goes on with, and absent when the retries run out", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    const child = await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 1}') });
    const done = await h.api.stepDone({
      flow_id: String(child.child_flow_id),
      step_id: "inner",
      result: parseJson('{"x": 1}'),
    });
    await h.api.stepDone({ flow_id: id, step_id: "sub", result: fromJsonValue(wireToPlain(done)) });
    h.take();
    const tooMany = '{"links": [1, 2, 3, 4, 5, 6, 7, 8, 9], "done": true}';
    await h.api.stepDone({ flow_id: id, step_id: "crawl", result: parseJson(tooMany) });
    const [exhausted] = finished(h.take(), "crawl");
    expect(exhausted?.outcome).toBe("exhausted");
    expect(plain(exhausted)).toEqual({ links: [1, 2, 3, 4, 5, 6, 7, 8, 9], done: true });

    // Back at `a` (on_fail): its retries run out with nowhere to go, and nothing is stored.
    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 0}') });
    await h.api.stepDone({ flow_id: id, step_id: "a", result: parseJson('{"x": 0}') });
    const last = finished(h.take(), "a").at(-1);
    expect(last?.outcome).toBe("exhausted");
    expect(last?.output).toBeUndefined();
  });
});

describe("an event's JSON form", () => {
  it("reads back as the same output for any JSON value (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const output = fromJsonValue(json);
        const event = { type: "step_finished", step_id: "a", output } as unknown as FlowEvent;
        const sent = JSON.parse(JSON.stringify(eventToJson(event))) as Record<string, unknown>;
        const back = eventFromJson(sent) as StepFinished;
        expect(encodeWire(back.output ?? null)).toBe(encodeWire(output));
      }),
      { numRuns: 300, seed: 34 },
    );
  });

  it("leaves an event without an output as it is", () => {
    const event = { type: "step_finished", step_id: "a", outcome: "rejected" } as unknown as FlowEvent;
    expect(eventToJson(event)).toBe(event);
    expect(eventFromJson({ type: "gate_awaited", step_id: "g" })).toEqual({
      type: "gate_awaited",
      step_id: "g",
    });
  });
});
