// OTLP traces in process (host/tracing/): the engine's events of a flow with a retry, a sub-flow
// and a gate become one trace with the expected span tree, in both encodings; a collector that
// is down costs one warning line.
import { afterEach, describe, expect, it } from "vitest";
import { createTracer, type Tracer } from "../../../host/tracing/tracer";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { makeObservedApi } from "../../interpreter/support/observed-api";
import { TRACED_SPEC, TRACED_TREE } from "./fixtures";
import { closedPort, type Receiver, startReceiver } from "./otlp-receiver";
import { spanTree } from "./span-tree";

let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

/** Runs the traced flow to completion through an engine observed by `tracer`. */
async function runTracedFlow(tracer: Tracer): Promise<string> {
  const h = makeObservedApi(new MemoryStore(), { observer: tracer.observer });
  const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
  const id = String(plan.flow_id);
  h.clock.advance(30);
  await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": false}') });
  h.clock.advance(20);
  const sub = await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": true}') });
  const child = String(sub.child_flow_id);
  h.clock.advance(10);
  await h.api.stepDone({ flow_id: child, step_id: "work", result: parseJson('{"v": 1}') });
  await h.api.stepDone({
    flow_id: id,
    step_id: "sub",
    result: parseJson('{"status": "complete", "output": {"v": 1}}'),
  });
  h.clock.advance(5);
  await h.api.gateResolve({
    flow_id: id,
    step_id: "review",
    outcome: "approve",
    rationale: "ok",
    resolved_by: "human",
  });
  return id;
}

describe.each(["http/json", "http/protobuf"])("OTLP over %s", (protocol) => {
  it("one trace per flow run with the expected span tree and attributes", async () => {
    receiver = await startReceiver();
    const warnings: string[] = [];
    const tracer = createTracer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: "x-team=flows%20and%20gates",
      },
      version: "9.9.9",
      warn: (line) => warnings.push(line),
    });
    if (tracer === null) throw new Error("tracing is off");
    const id = await runTracedFlow(tracer);
    await tracer.shutdown(2000);
    const spans = await receiver.waitForSpans(7);
    expect(spanTree(spans)).toEqual(TRACED_TREE);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([id.replaceAll("-", "")]));
    const request = receiver.requests[0];
    expect(request?.path).toBe("/v1/traces");
    expect(request?.headers["x-team"]).toBe("flows and gates");
    expect(request?.resource["service.name"]).toBe("stratum-mcp");
    expect(request?.scope).toEqual({ name: "stratumc", version: "9.9.9" });
    const rejected = spans.find((s) => s.name === "step draft" && s.attributes["stratum.step.attempt"] === 1);
    expect(rejected?.attributes).toMatchObject({
      "stratum.flow.id": id,
      "stratum.flow.name": "main",
      "stratum.step.id": "draft",
      "stratum.step.status": "rejected",
      "stratum.step.failure": "ensure_failed",
      "stratum.violations": ["ensure 'result.ok == True' failed"],
      "stratum.round": 0,
    });
    expect(rejected?.status).toEqual({ code: 2, message: "ensure 'result.ok == True' failed" });
    expect(Number((rejected?.endNs ?? 0n) - (rejected?.startNs ?? 0n)) / 1e6).toBe(30);
    const gate = spans.find((s) => s.name === "gate review");
    expect(gate?.attributes).toMatchObject({
      "stratum.gate.outcome": "approve",
      "stratum.gate.resolved_by": "human",
      "stratum.gate.rationale": "ok",
    });
    expect(spans.every((s) => s.kind === 1)).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe("a collector that is down", () => {
  it("costs one warning line, however many exports fail, and no call fails", async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const tracer = createTracer({
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
        OTEL_BSP_SCHEDULE_DELAY: "0",
      },
      version: "0",
      warn: (line) => warnings.push(line),
    });
    if (tracer === null) throw new Error("tracing is off");
    await runTracedFlow(tracer);
    await new Promise((r) => setTimeout(r, 200)); // several exports have failed by now
    await runTracedFlow(tracer);
    await tracer.shutdown(2000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^traces: cannot export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(ECONNREFUSED\)/,
    );
  });
});
