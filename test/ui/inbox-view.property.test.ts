// The inbox (ui/inbox-rows.ts, ui/inbox-view.ts) over random stores: flows driven at random
// through the engine (drafts that pass or fail the ensure, gates approved, revised or killed), each
// with a random last change, and a random query. Whatever the store and the query: the gates
// waiting are exactly the matching flows at a gate, oldest first; the decisions are exactly the
// matching flows' gate records, newest first; the flows are exactly the matching flows; every item
// matches the query; and the windows cut those lists at their offsets, never beyond the limit.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Clock,
  createApi,
  type FlowRun,
  loadFlow,
  MemoryStore,
  restoreRun,
  SpecCache,
} from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import type { FlowListStatus, GateOutcome, StatusFilter } from "../../ui/api-types";
import { inboxRow } from "../../ui/inbox-rows";
import { type InboxQuery, inboxView } from "../../ui/inbox-view";
import { NO_WORKSPACE } from "../support/no-workspace";
import { GATE_SPEC } from "./gate-spec";

type Move = { readonly text: string } | { readonly outcome: GateOutcome; readonly note: string };

const NOTES = ["ok", "Looks fine", "needs work", "NO", ""];
const move: fc.Arbitrary<Move> = fc.oneof(
  fc.record({ text: fc.constantFrom("ab", "a long enough draft") }),
  fc.record({
    outcome: fc.constantFrom<GateOutcome>("approve", "revise", "kill"),
    note: fc.constantFrom(...NOTES),
  }),
);
const OTHER_SPEC = GATE_SPEC.replace("flows:\n  main:", "flows:\n  other:");

interface StoredFlow {
  readonly run: FlowRun;
  readonly updated: number;
}

/** Drives one flow through `moves`; the flow as stored afterwards. */
async function driveFlow(index: number, other: boolean, moves: readonly Move[]): Promise<FlowRun> {
  let now = 0;
  const clock: Clock = { wallMs: () => now, monoMs: () => (now += 3) };
  const store = new MemoryStore();
  const flowId = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const api = createApi({
    store,
    clock,
    ids: { newFlowId: () => flowId },
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
  });
  const specs = new SpecCache();
  const plan = await api.plan({
    spec: other ? OTHER_SPEC : GATE_SPEC,
    flow: other ? "other" : "main",
    inputs: fromJsonValue({ topic: "t" }),
  });
  let stepId = String(plan.step_id);
  for (const m of moves) {
    const answer =
      "text" in m
        ? await api.stepDone({ flow_id: flowId, step_id: stepId, result: fromJsonValue({ text: m.text }) })
        : await api.gateResolve({
            flow_id: flowId,
            step_id: stepId,
            outcome: m.outcome,
            rationale: m.note,
            resolved_by: "human",
          });
    if (typeof answer.step_id === "string") stepId = answer.step_id;
  }
  const loaded = await loadFlow(store, flowId, (state) =>
    restoreRun(state, (text) => specs.compile(text), clock),
  );
  if (loaded === null) throw new Error("the flow was not stored");
  return loaded.run;
}

const query: fc.Arbitrary<InboxQuery> = fc.record({
  status: fc.constantFrom<StatusFilter>("all", "in_progress", "awaiting_gate", "finished"),
  flow: fc.constantFrom(null, "main", "other", "missing"),
  q: fc.constantFrom("", "ok", "LOOKS", "approve", "0000000000", "draft", "zzz"),
  outcome: fc.constantFrom<GateOutcome | null>(null, "approve", "revise", "kill"),
  limit: fc.integer({ min: 1, max: 4 }),
  waiting_offset: fc.integer({ min: 0, max: 6 }),
  decisions_offset: fc.integer({ min: 0, max: 6 }),
  flows_offset: fc.integer({ min: 0, max: 6 }),
});

const FINISHED: readonly FlowListStatus[] = ["complete", "killed", "exhausted", "budget_exhausted"];

function admits(status: StatusFilter, s: FlowListStatus): boolean {
  if (status === "awaiting_gate") return s === "awaiting_gate";
  if (status === "in_progress") return s === "running" || s === "awaiting_gate";
  if (status === "finished") return FINISHED.includes(s);
  return true;
}

function has(needle: string, ...fields: (string | null)[]): boolean {
  const n = needle.toLowerCase();
  return n === "" || fields.some((f) => f?.toLowerCase().includes(n) === true);
}

describe("the inbox over random stores", () => {
  it("lists exactly what matches, in order, cut at the windows", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            other: fc.boolean(),
            updated: fc.integer({ min: 0, max: 5 }).map((n) => 1_000_000 + n * 1000),
            moves: fc.array(move, { maxLength: 7 }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        query,
        async (flows, q) => {
          const stored: StoredFlow[] = [];
          for (const [i, f] of flows.entries())
            stored.push({ run: await driveFlow(i, f.other, f.moves), updated: f.updated });
          const rows = stored.map((s) => inboxRow(s.run, s.updated));
          const everything = inboxView(
            rows,
            { ...q, limit: 10_000, waiting_offset: 0, decisions_offset: 0, flows_offset: 0 },
            "/home",
          );
          const view = inboxView(rows, q, "/home");

          // The flows that pass the status and name filters, by id.
          const kept = new Map(
            rows
              .map((row, i) => ({ ...row, run: stored[i]!.run }))
              .filter(
                (r) => admits(q.status, r.item.status) && (q.flow === null || r.item.flow_name === q.flow),
              )
              .map((r) => [r.item.flow_id, r]),
          );

          // Waiting: the kept flows at a gate whose id, name, gate or reviewed steps match; oldest first.
          const waiting = everything.waiting.items;
          for (const g of waiting) {
            expect(kept.get(g.flow_id)?.item.status).toBe("awaiting_gate");
            expect(
              has(
                q.q,
                g.flow_id,
                g.flow_name,
                g.step_id,
                g.function,
                g.intent,
                ...g.reviews.map((r) => r.step_id),
              ) || g.reviews.some((r) => has(q.q, r.intent)),
            ).toBe(true);
          }
          const atGate = [...kept.values()].filter((r) => r.item.status === "awaiting_gate");
          expect(waiting.length).toBe(
            atGate.filter((r) =>
              has(q.q, r.item.flow_id, r.item.flow_name, "approve", "review", "draft", "Write the draft"),
            ).length,
          );
          for (let i = 1; i < waiting.length; i++)
            expect(waiting[i - 1]!.since_ms).toBeLessThanOrEqual(waiting[i]!.since_ms);

          // Decisions: the kept flows' gate records that match; newest flow first, then latest first.
          const decisions = everything.decisions.items;
          let expected = 0;
          for (const r of kept.values()) {
            const records = [...r.run.state.rounds.flat(), ...r.run.state.records];
            expected += records.filter(
              (g) =>
                g.type === "gate" &&
                (q.outcome === null || g.outcome === q.outcome) &&
                has(q.q, r.item.flow_id, r.item.flow_name, g.step_id, g.rationale, g.resolved_by),
            ).length;
          }
          expect(decisions.length).toBe(expected);
          for (const d of decisions) {
            expect(kept.has(d.flow_id)).toBe(true);
            if (q.outcome !== null) expect(d.outcome).toBe(q.outcome);
          }
          for (let i = 1; i < decisions.length; i++) {
            const [a, b] = [decisions[i - 1]!, decisions[i]!];
            expect(a.flow_updated_ms).toBeGreaterThanOrEqual(b.flow_updated_ms);
            if (a.flow_id === b.flow_id) expect(a.index).toBeGreaterThan(b.index);
          }

          // Flows: the kept flows whose id, name or current step match.
          expect(everything.flows.items.map((f) => f.flow_id).sort()).toEqual(
            [...kept.values()]
              .filter((r) => has(q.q, r.item.flow_id, r.item.flow_name, r.item.current_step_id))
              .map((r) => r.item.flow_id)
              .sort(),
          );

          // The windows.
          for (const part of ["waiting", "decisions", "flows"] as const) {
            const offset = q[`${part}_offset`];
            expect(view[part].total).toBe(everything[part].items.length);
            expect(view[part].offset).toBe(offset);
            expect(view[part].items).toEqual(everything[part].items.slice(offset, offset + q.limit));
          }
          expect([view.flow_count, view.waiting_count]).toEqual([
            rows.length,
            rows.filter((r) => r.item.status === "awaiting_gate").length,
          ]);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
