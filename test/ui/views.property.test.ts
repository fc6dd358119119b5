// The page's view of a flow (ui/views.ts) for flows driven at random through the engine —
// results that pass or fail the ensure, retries exhausted, gates approved, revised or killed — is
// always built, and agrees with the flow: one row and one graph node per step in order, at most one
// step current or awaiting its gate (and only while the flow is unfinished), the gate shown exactly
// when the flow waits at one, every trace record in the audit, and the status `stratumc query` reports.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Clock,
  createApi,
  flowSummary,
  loadFlow,
  MemoryStore,
  restoreRun,
  SpecCache,
} from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import { flowPage } from "../../ui/views";
import { NO_WORKSPACE } from "../support/no-workspace";
import { GATE_SPEC } from "./gate-spec";

type Move = { readonly text: string } | { readonly outcome: "approve" | "revise" | "kill" };

const move: fc.Arbitrary<Move> = fc.oneof(
  fc.record({ text: fc.string({ maxLength: 8 }) }),
  fc.record({ outcome: fc.constantFrom("approve" as const, "revise" as const, "kill" as const) }),
);

describe("the flow page's view", () => {
  it("is built for every reachable state and agrees with the flow", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { maxLength: 12 }), async (moves) => {
        let now = 0;
        const clock: Clock = { wallMs: () => now, monoMs: () => (now += 3) };
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
        const restore = (state: Parameters<typeof restoreRun>[0]) =>
          restoreRun(state, (text) => specs.compile(text), clock);
        const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "t" }) });
        const flowId = String(plan.flow_id);
        let stepId = String(plan.step_id);
        for (const m of moves) {
          const answer =
            "text" in m
              ? await api.stepDone({
                  flow_id: flowId,
                  step_id: stepId,
                  result: fromJsonValue({ text: m.text }),
                })
              : await api.gateResolve({
                  flow_id: flowId,
                  step_id: stepId,
                  outcome: m.outcome,
                  rationale: "n",
                  resolved_by: "human",
                });
          if (typeof answer.step_id === "string") stepId = answer.step_id;

          const loaded = await loadFlow(store, flowId, restore);
          expect(loaded).not.toBeNull();
          const run = loaded!.run;
          const page = flowPage(run, 0);
          expect(page.steps.map((s) => s.id)).toEqual(run.flow.steps.map((s) => s.id));
          expect(page.graph?.nodes.map((n) => [n.id, n.state])).toEqual(
            page.steps.map((s) => [s.id, s.state]),
          );
          expect(page.flow.status).toBe(flowSummary(run).status);
          const active = page.steps.filter((s) => s.state === "current" || s.state === "awaiting_gate");
          const unfinished = page.flow.status === "running" || page.flow.status === "awaiting_gate";
          expect(active.length).toBe(unfinished ? 1 : 0);
          expect(page.gate !== null).toBe(page.flow.status === "awaiting_gate");
          if (page.gate !== null) expect(active[0]?.id).toBe(page.gate.step_id);
          const records = run.state.rounds.flat().length + run.state.records.length;
          expect(page.audit.length).toBe(records);
          expect(JSON.parse(JSON.stringify(page))).toEqual(page); // plain JSON, nothing lost on the wire
        }
      }),
      { numRuns: 60 },
    );
  });
});
