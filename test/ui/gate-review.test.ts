// What the page shows at a gate (ui/gate-review.ts), for a flow driven through the engine and read
// back from its store as `stratumc ui` reads it: the rejected attempt's violations, the diff with
// the attempt before and with the round before, earlier decisions with their time, the gate's lines.
import { describe, expect, it } from "vitest";
import { type Clock, createApi, loadFlow, MemoryStore, restoreRun, SpecCache } from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import { pathText, valueText } from "../../ui/gate-review";
import { flowPage } from "../../ui/views";
import { NO_WORKSPACE } from "../support/no-workspace";
import { GATE_SPEC } from "./gate-spec";

const T0 = Date.UTC(2026, 11, 6, 9, 0, 0);

async function driven() {
  let now = T0;
  const clock: Clock = { wallMs: () => now, monoMs: () => now };
  const store = new MemoryStore();
  const api = createApi({
    store,
    clock,
    ids: { newFlowId: () => "00000000-0000-4000-8000-000000000001" },
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
  });
  const specs = new SpecCache();
  const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "t" }) });
  const flowId = String(plan.flow_id);
  const page = async () => {
    const loaded = await loadFlow(store, flowId, (state) =>
      restoreRun(state, (text) => specs.compile(text), clock),
    );
    if (loaded === null) throw new Error("flow not found");
    return flowPage(loaded.run, 0);
  };
  const draft = async (text: string) => {
    now += 60_000;
    return api.stepDone({ flow_id: flowId, step_id: "draft", result: fromJsonValue({ text }) });
  };
  const resolve = async (outcome: "approve" | "revise", rationale: string) => {
    now += 60_000;
    return api.gateResolve({ flow_id: flowId, step_id: "approve", outcome, rationale, resolved_by: "human" });
  };
  return { page, draft, resolve };
}

describe("the gate review", () => {
  it("shows a rejected attempt's violations and the diff with it, then the diff with the round before", async () => {
    const flow = await driven();
    expect((await flow.page()).review).toBeNull();
    const rejected = await flow.draft("ab");
    expect(rejected.status).toBe("ensure_failed");
    await flow.draft("first draft");

    const first = (await flow.page()).review;
    expect(first?.gate_step_id).toBe("approve");
    expect(first?.decisions).toEqual([]);
    expect(first?.steps).toHaveLength(1);
    const step = first?.steps[0];
    expect(step?.step_id).toBe("draft");
    expect(step?.rejected).toEqual([
      {
        round: 0,
        attempt: 1,
        exhausted: false,
        at_ms: T0 + 60_000,
        violations: rejected.violations,
        more_violations: 0,
      },
    ]);
    expect(step?.rejected[0]?.violations.join(" ")).toContain("len(result.text) > 3");
    expect(step?.comparisons).toEqual([
      {
        against: "attempt",
        round: 0,
        attempt: 1,
        omitted: false,
        more: false,
        changes: [{ op: "changed", path: "$.text", old: '"ab"', new: '"first draft"' }],
      },
    ]);
    const excerpt = first?.spec_excerpt;
    const gateText = excerpt?.lines[(excerpt?.gate_line ?? 0) - (excerpt?.first_line ?? 0)];
    expect(gateText).toBe("      - id: approve");
    expect(excerpt?.lines).toContain("        on_revise: draft");

    await flow.resolve("revise", "needs more detail");
    await flow.draft("second draft");
    const second = (await flow.page()).review;
    expect(second?.decisions).toEqual([
      {
        step_id: "approve",
        round: 0,
        outcome: "revise",
        resolved_by: "human",
        note: "needs more detail",
        at_ms: T0 + 180_000,
      },
    ]);
    // The round-0 rejection stays listed; this round has no earlier attempt, so the diff is with the round before.
    expect(second?.steps[0]?.rejected.map((r) => [r.round, r.attempt])).toEqual([[0, 1]]);
    expect(second?.steps[0]?.comparisons).toEqual([
      {
        against: "round",
        round: 0,
        attempt: 2,
        omitted: false,
        more: false,
        changes: [{ op: "changed", path: "$.text", old: '"first draft"', new: '"second draft"' }],
      },
    ]);
  });

  it("names paths and cuts long values", () => {
    expect(pathText(["a", 0, "odd key", "_x1"])).toBe('$.a[0]["odd key"]._x1');
    expect(valueText("x".repeat(1_000))).toHaveLength(401);
    expect(valueText({ a: [1, null] })).toBe('{"a":[1,null]}');
  });
});
