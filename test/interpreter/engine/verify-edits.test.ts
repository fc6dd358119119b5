// Working copies that change the committed state in place, checked through the engine
// API with EngineOptions.verifyEdits on (engine/verify-edits.ts): random tool calls on random specs
// and on specs with loops, sub-flows, gates, iterations and accumulators, including calls that do
// not commit (errors), calls whose tool throws after changing the flow (inputs that cannot be
// resolved) and calls whose store commit fails. Every call's delta must be exact and every
// rollback complete (else the call rejects); after a call that did not commit, the store is
// unchanged and the flow in memory is the stored one. And the verifier itself catches an
// in-place change that bypassed the edit log.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";
import type { StratumApi } from "../../../interpreter/api";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { commits } from "../../../interpreter/base/tool-errors";
import { EngineTx } from "../../../interpreter/engine/transaction";
import { EditVerificationError, EditVerifier } from "../../../interpreter/engine/verify-edits";
import { decodeFlowState } from "../../../interpreter/store/codec";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { type StoreBatch, StoreUnwritableError } from "../../../interpreter/store/store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { fromJsonValue } from "../../../stdlib/values/json";
import { runOf } from "../flow/fixtures";
import { type Request, request, type StepRef, send } from "../properties/requests";
import { validSpec } from "../properties/spec-arbitrary";
import { makeTestApi } from "../support/make-test-api";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** A MemoryStore whose next commit can be made to fail (a full disk). */
class FailingStore extends MemoryStore {
  failNext = false;

  override async commit(batch: StoreBatch) {
    if (this.failNext) {
      this.failNext = false;
      throw new StoreUnwritableError("/memory", "ENOSPC", "no space left on device");
    }
    return super.commit(batch);
  }
}

/** Loops (next and on_fail back), an input that cannot be resolved, a sub-flow, a gate with revise. */
const LOOP_SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
    ok: {type: boolean}
functions:
  gate_g:
    mode: gate
flows:
  child:
    input: {flag: {type: boolean}}
    steps:
      - {id: c0, intent: "Child", max_iterations: 3, exit_criterion: "result.ok == True"}
      - {id: c1, intent: "Child report", ensure: ["result.ok == True"], retries: 2}
  main:
    input: {flag: {type: boolean}}
    max_rounds: 3
    steps:
      - {id: s0, intent: "Start", retries: 2}
      - id: s1
        intent: "Uses s0"
        inputs: {x: "$.steps.s0.output.v"}
        ensure: ["result.ok == True"]
        retries: 2
        on_fail: s0
      - {id: sub, flow: child, inputs: {flag: "$.input.flag"}}
      - {id: g, function: gate_g, on_approve: s4, on_revise: s0, on_kill: null}
      - {id: s4, intent: "Again", next: s1}
`;

const ACCUMULATE_SPEC = `version: "0.2"
functions:
  gate_g:
    mode: gate
flows:
  main:
    input: {flag: {type: boolean}}
    steps:
      - {id: hunt, intent: "Hunt", max_iterations: 4, accumulate: "result.tags", retries: 2}
      - {id: g, function: gate_g, on_approve: null, on_revise: hunt, on_kill: null}
      - {id: last, intent: "Last", ensure: ["result.ok == True"], retries: 3, next: hunt}
`;

function checked(text: string): { readonly spec: CheckedSpec; readonly text: string } {
  const r = checkSpec(text);
  if (!r.valid || !r.ir) throw new Error(`fixture spec is invalid: ${JSON.stringify(r.errors)}`);
  return { spec: r.ir, text };
}

type Move =
  | { readonly r: Request; readonly flow: number; readonly failCommit: boolean }
  | {
      readonly r: "iterate";
      readonly flow: number;
      readonly results: readonly ("pass" | "fail" | "extra")[];
    };

const move: fc.Arbitrary<Move> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      r: request,
      flow: fc.nat({ max: 2 }),
      failCommit: fc.oneof(
        { weight: 5, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      r: fc.constant("iterate" as const),
      flow: fc.nat({ max: 2 }),
      results: fc.array(fc.constantFrom("pass" as const, "fail" as const, "extra" as const), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
  },
);

function decoded(text: string): FlowState {
  const d = decodeFlowState(text);
  if (!d.ok) throw new Error(d.reason);
  return d.state;
}

async function storedTexts(store: MemoryStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const { flowId } of await store.list()) out.set(flowId, (await store.read(flowId))?.text ?? "");
  return out;
}

/** The audit without the one process-local number (the start time is reset on a reload). */
async function auditOf(api: StratumApi, flowId: string): Promise<unknown> {
  const plain = wireToPlain(await api.audit({ flow_id: flowId })) as Record<string, unknown>;
  delete plain.total_duration_ms;
  return plain;
}

interface Tally {
  rolledBack: number;
  failedCommits: number;
  committed: number;
}

async function drive(spec: CheckedSpec, text: string, flag: boolean, moves: readonly Move[], tally: Tally) {
  const store = new FailingStore();
  const harness = makeTestApi({ cwd: "/nowhere", store });
  const { api } = harness;
  const planned = await api.plan({ spec: text, flow: "main", inputs: fromJsonValue({ flag }) });
  const root = String(planned.flow_id ?? planned.parent_flow_id);
  for (const m of moves) {
    const chain: FlowState[] = [];
    for (let id: string | null = root; id !== null && chain.length < 4; ) {
      const s = await store.read(id);
      if (s === null) break;
      const state = decoded(s.text);
      chain.push(state);
      id = state.active_child_flow_id;
    }
    const target = chain[m.flow % Math.max(1, chain.length)];
    if (target === undefined) return;
    const steps = spec.flows.get(target.flow_name)?.steps ?? [];
    const stepId = (ref: StepRef): string => {
      if (ref === "unknown") return "no_such_step";
      const at = ref === "current" ? target.current_idx : ref;
      return steps[at % Math.max(1, steps.length)]?.id ?? "none";
    };
    const atGate = steps[target.current_idx]?.kind === "gate";
    if (m.r === "iterate") {
      await send(api, target.flow_id, { op: "iteration_start", step: "current" }, stepId, atGate);
      for (const result of m.results)
        await send(api, target.flow_id, { op: "iteration_report", step: "current", result }, stepId, atGate);
      continue;
    }
    if (m.r.op === "restart" || m.r.op === "advance") {
      if (m.r.op === "advance") harness.clock.advance(m.r.seconds * 1000);
      continue; // a restart would hide what memory holds
    }
    const before = await storedTexts(store);
    store.failNext = m.failCommit;
    const response: Response = await send(api, target.flow_id, m.r, stepId, atGate);
    const failed = store.failNext === false && m.failCommit && response.error_type === "store_unwritable";
    store.failNext = false;
    if (failed) tally.failedCommits++;
    if (!commits(response) || failed) {
      tally.rolledBack++;
      expect(await storedTexts(store), `${m.r.op}: the store changed`).toEqual(before);
    } else tally.committed++;
    // What memory holds is what the store holds: the live audit equals a fresh engine's.
    for (const state of chain) {
      const live = await auditOf(api, state.flow_id);
      const fresh = await auditOf(harness.fresh(), state.flow_id);
      if (!isDeepStrictEqual(live, fresh))
        expect(live, `${m.r.op}: memory differs from the store`).toEqual(fresh);
    }
    expect(harness.loggedErrors).toEqual([]);
  }
}

const fixedSpecs = fc.constantFrom(checked(LOOP_SPEC), checked(ACCUMULATE_SPEC));
const randomSpecs = validSpec({ forwardOnly: false }).map((s) => ({ spec: s.ir, text: s.text }));

describe("in-place edits through the engine (verifyEdits)", () => {
  it("every delta is exact and every call that does not commit leaves the flows as they were", async () => {
    const tally: Tally = { rolledBack: 0, failedCommits: 0, committed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fixedSpecs, randomSpecs),
        fc.boolean(),
        fc.array(move, { minLength: 10, maxLength: 40 }),
        async ({ spec, text }, flag, moves) => {
          await drive(spec, text, flag, moves, tally);
        },
      ),
      { numRuns: RUNS },
    );
    if (RUNS >= 40) {
      expect(tally.committed).toBeGreaterThan(100);
      expect(tally.rolledBack).toBeGreaterThan(50);
      expect(tally.failedCommits).toBeGreaterThan(5);
    }
  }, 120_000);
});

describe("the verifier", () => {
  const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - {id: a, intent: "A"}
      - {id: b, intent: "B"}
`;

  function txOver() {
    const run = runOf(SPEC, "main");
    run.state.attempts.set("a", 1);
    const loaded = new Map([[run.state.flow_id, run]]);
    const tx = new EngineTx(
      {
        clock: new ManualClock(),
        ids: new SequentialIds(),
        serverCwd: "/nowhere",
        files: () => null,
        check: () => ({ errors: [], ir: null }),
      },
      loaded,
    );
    return { run, tx, verifier: new EditVerifier(loaded) };
  }

  it("catches a change of a shared container that bypassed the log, at rollback and at commit", () => {
    const a = txOver();
    a.tx.edit(a.run.state.flow_id)?.state.attempts.set("b", 1); // not through edits.ts
    a.tx.rollback();
    expect(() => a.verifier.rolledBack(a.tx)).toThrow(EditVerificationError);

    const b = txOver();
    b.tx.edit(b.run.state.flow_id)?.state.attempts.set("a", 5);
    expect(() => b.verifier.committed(b.tx)).toThrow(
      /flow flow-1: the delta applied .* differs at character/,
    );
  });

  it("accepts logged changes", () => {
    const { run, tx, verifier } = txOver();
    const work = tx.edit(run.state.flow_id);
    if (work === null) throw new Error("no working copy");
    work.state.current_idx = 1;
    verifier.committed(tx);
    tx.rollback();
    verifier.rolledBack(tx);
  });
});
