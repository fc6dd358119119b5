// State deltas against real flow runs (docs/design/durable-store.md, "Entries are state deltas"): random
// request sequences (test/interpreter/properties) on random specs and on specs with sub-flows,
// iterations, accumulators, gates and retries, run through the engine's own transaction path
// (delta-engine.ts). After every committed call, for every flow it wrote: the delta of the
// committed state and the working state that was committed, encoded, decoded and applied to the
// committed state, encodes byte for byte like the stored text; the same from the two stored texts
// (nothing shared); the committed state is unchanged. And a step_done's delta does not grow with
// the number of steps already done.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";
import type { StratumApi } from "../../../interpreter/api";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import {
  applyDelta,
  applyDeltaInPlace,
  decodeDelta,
  diffFlowState,
  encodeDelta,
  type FlowDelta,
} from "../../../interpreter/store/delta";
import { encodeWire } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { fromJsonValue, parseJson } from "../../../stdlib/values/json";
import { type Request, type ResultKind, request, type StepRef, send } from "../properties/requests";
import { validSpec } from "../properties/spec-arbitrary";
import { CapturingEngine, type CommittedChange } from "./delta-engine";

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

function decoded(text: string): FlowState {
  const d = decodeFlowState(text);
  if (!d.ok) throw new Error(d.reason);
  return d.state;
}

function viaText(delta: FlowDelta): FlowDelta {
  const d = decodeDelta(encodeDelta(delta));
  if ("problem" in d) throw new Error(d.problem);
  return d;
}

interface Tally {
  deltas: number;
  appends: number;
  puts: number;
  deletes: number;
  sets: number;
}

/**
 * The property for one committed flow; returns the delta text. `replayed` holds, per flow, its
 * first stored state with every later delta text applied in place (a journal's recovery).
 */
function checkChange(c: CommittedChange, tally: Tally, replayed: Map<string, FlowState>): string | null {
  const id = c.after.flow_id;
  if (c.before === null || c.beforeText === null) {
    replayed.set(id, decoded(c.afterText)); // a created flow: its snapshot
    return null;
  }
  const beforeText = encodeFlowState(c.before);
  expect(beforeText, `${c.tool}: the committed state is what the store held`).toBe(c.beforeText);
  const delta = diffFlowState(c.before, c.after);
  const text = encodeDelta(delta);
  const d = decodeDelta(text);
  if ("problem" in d) throw new Error(`${c.tool}: ${d.problem}\n${text}`);
  expect(encodeFlowState(applyDelta(c.before, d)), `${c.tool}: ${text}`).toBe(c.afterText);
  // The transaction's own delta (from its edit log, O(change)), through its text too.
  if (c.txDelta === null) throw new Error(`${c.tool}: no delta from the transaction`);
  const txText = encodeDelta(c.txDelta);
  expect(encodeFlowState(applyDelta(c.before, viaText(c.txDelta))), `${c.tool} (tx): ${txText}`).toBe(
    c.afterText,
  );
  expect(encodeFlowState(c.before), `${c.tool}: applyDelta changed its input`).toBe(beforeText);
  // From the stored texts: no identity shared, so more is set, and it must still be exact.
  const fromDisk = decoded(c.beforeText);
  const diskDelta = viaText(diffFlowState(fromDisk, decoded(c.afterText)));
  expect(encodeFlowState(applyDelta(fromDisk, diskDelta)), `${c.tool} (from the stored texts)`).toBe(
    c.afterText,
  );
  const journal = replayed.get(id);
  if (journal !== undefined) {
    applyDeltaInPlace(journal, d);
    expect(encodeFlowState(journal), `${c.tool}: replayed journal`).toBe(c.afterText);
  }
  tally.deltas++;
  tally.appends += Object.keys(d.append).length;
  tally.puts += Object.keys(d.put).length;
  tally.deletes += Object.keys(d.delete).length;
  tally.sets += Object.keys(d.set).length;
  return text;
}

/**
 * A request of requests.ts, sent to the n-th flow of the chain root → active child → …; an
 * iteration loop on that flow's current step (start, then reports); or the report of a finished
 * child's completion to its parent.
 */
type Move =
  | { readonly r: Request; readonly flow: number }
  | { readonly r: "iterate"; readonly flow: number; readonly results: readonly ResultKind[] }
  | { readonly r: "report_child" };

const resultKind = fc.constantFrom<ResultKind>("pass", "pass", "fail", "extra", "null");

const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ r: request, flow: fc.nat({ max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      r: fc.constant("iterate" as const),
      flow: fc.nat({ max: 3 }),
      results: fc.array(resultKind, { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ r: "report_child" as const }) },
);

type Plain = Record<string, unknown>;

async function storedState(engine: CapturingEngine, id: string): Promise<FlowState | null> {
  const s = await engine.store.read(id);
  return s === null ? null : decoded(s.text);
}

async function drive(spec: CheckedSpec, text: string, flag: boolean, moves: readonly Move[]): Promise<Tally> {
  const tally: Tally = { deltas: 0, appends: 0, puts: 0, deletes: 0, sets: 0 };
  const replayed = new Map<string, FlowState>();
  const engine = new CapturingEngine((c) => {
    checkChange(c, tally, replayed);
  });
  const api: StratumApi = engine.api();
  const planned = await api.plan({ spec: text, flow: "main", inputs: fromJsonValue({ flag }) });
  const root = String(planned.flow_id ?? planned.parent_flow_id);
  /** Parent flow id → the completion payload of its finished child. */
  const completions = new Map<string, Response>();
  for (const m of moves) {
    const chain: FlowState[] = [];
    for (let id: string | null = root; id !== null && chain.length < 8; ) {
      const state = await storedState(engine, id);
      if (state === null) break;
      chain.push(state);
      id = state.active_child_flow_id;
    }
    if (m.r === "report_child") {
      const parent = chain.find((s) => completions.has(s.flow_id));
      const done = parent && completions.get(parent.flow_id);
      if (parent === undefined || done === undefined) continue;
      const stepId = spec.flows.get(parent.flow_name)?.steps[parent.current_idx]?.id ?? "none";
      await api.stepDone({ flow_id: parent.flow_id, step_id: stepId, result: parseJson(encodeWire(done)) });
      continue;
    }
    if (m.r !== "iterate" && m.r.op === "restart") {
      engine.restart();
      continue;
    }
    if (m.r !== "iterate" && m.r.op === "advance") {
      engine.clock.advance(m.r.seconds * 1000);
      continue;
    }
    const target = chain[m.flow % Math.max(1, chain.length)];
    if (target === undefined) continue;
    const steps = spec.flows.get(target.flow_name)?.steps ?? [];
    const stepId = (ref: StepRef): string => {
      if (ref === "unknown") return "no_such_step";
      const at = ref === "current" ? target.current_idx : ref;
      return steps[at % Math.max(1, steps.length)]?.id ?? "none";
    };
    const atGate = steps[target.current_idx]?.kind === "gate";
    if (m.r === "iterate") {
      await send(api, target.flow_id, { op: "iteration_start", step: "current" }, stepId, atGate);
      for (const result of m.results) {
        const r: Request = { op: "iteration_report", step: "current", result };
        await send(api, target.flow_id, r, stepId, atGate);
      }
      continue;
    }
    const response = await send(api, target.flow_id, m.r, stepId, atGate);
    const plain = response as Plain;
    if (plain.status === "complete" && target.parent_flow_id !== null) {
      completions.set(target.parent_flow_id, response);
    }
  }
  return tally;
}

const SUBFLOW_SPEC = `version: "0.2"
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
      - id: c0
        intent: "Child work"
        max_iterations: 3
        exit_criterion: "result.ok == True"
      - id: c1
        intent: "Child report"
        ensure: ["result.ok == True"]
        retries: 2
  main:
    input: {flag: {type: boolean}}
    max_rounds: 3
    steps:
      - id: s0
        intent: "Start"
        output_contract: Out
        ensure: ["result.ok == True"]
        retries: 2
      - id: sub
        flow: child
        inputs: {flag: "$.input.flag"}
      - id: g
        function: gate_g
        on_approve: null
        on_revise: s0
        on_kill: null
      - id: s3
        intent: "Finish"
        max_iterations: 2
        exit_criterion: "result.ok == True"
`;

const ACCUMULATE_SPEC = `version: "0.2"
functions:
  gate_g:
    mode: gate
flows:
  main:
    input: {flag: {type: boolean}}
    steps:
      - id: hunt
        intent: "Hunt"
        max_iterations: 4
        accumulate: "result.tags"
        retries: 2
      - id: g
        function: gate_g
        on_approve: null
        on_revise: hunt
        on_kill: null
      - id: last
        intent: "Last"
        ensure: ["result.ok == True"]
        retries: 3
`;

function checked(text: string): { spec: CheckedSpec; text: string } {
  const r = checkSpec(text);
  if (!r.valid || !r.ir) throw new Error(`fixture spec is invalid: ${JSON.stringify(r.errors)}`);
  return { spec: r.ir, text };
}

const fixedSpecs = fc.constantFrom(checked(SUBFLOW_SPEC), checked(ACCUMULATE_SPEC));
const randomSpecs = validSpec({ forwardOnly: false }).map((s) => ({ spec: s.ir, text: s.text }));

describe("state deltas of real flow runs", () => {
  it("applying each committed call's delta to the committed state gives the stored text", async () => {
    const total: Tally = { deltas: 0, appends: 0, puts: 0, deletes: 0, sets: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fixedSpecs, randomSpecs),
        fc.boolean(),
        fc.array(move, { minLength: 10, maxLength: 40 }),
        async ({ spec, text }, flag, moves) => {
          const t = await drive(spec, text, flag, moves);
          for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
        },
      ),
      { numRuns: RUNS * 2 },
    );
    // The property is only worth something if every kind of change happens.
    if (RUNS >= 40) {
      expect(total.deltas).toBeGreaterThan(100);
      for (const k of ["appends", "puts", "deletes", "sets"] as const) expect(total[k], k).toBeGreaterThan(0);
    }
  });
});

/** `n + 2` inline steps; each output is about 200 bytes, as in the store measurements. */
function longSpec(n: number): string {
  const steps = Array.from({ length: n + 2 }, (_, i) => `      - {id: s${i}, intent: "Do step ${i}"}`);
  return ['version: "0.2"', "flows:", "  main:", "    input: {}", "    steps:", ...steps, ""].join("\n");
}

/** The delta text of the step_done after `n` completed steps (the flow keeps running). */
async function stepDoneDelta(n: number): Promise<string> {
  let last = "";
  const tally: Tally = { deltas: 0, appends: 0, puts: 0, deletes: 0, sets: 0 };
  const replayed = new Map<string, FlowState>();
  const engine = new CapturingEngine((c) => {
    last = checkChange(c, tally, replayed) ?? last;
  });
  const api = engine.api();
  const planned = await api.plan({ spec: longSpec(n), flow: "main", inputs: fromJsonValue({}) });
  const flowId = String(planned.flow_id);
  for (let i = 0; i <= n; i++) {
    engine.clock.advance(1500);
    const result = fromJsonValue({ summary: `step ${i} ${"x".repeat(170)}`, ok: true, score: 1 });
    const r = await api.stepDone({ flow_id: flowId, step_id: `s${i}`, result });
    expect(r.status).toBe("execute_step");
  }
  return last;
}

describe("the size of a delta", () => {
  it("a step_done's delta does not grow with the steps already done", async () => {
    const at10 = await stepDoneDelta(10);
    const at200 = await stepDoneDelta(200);
    // Only numbers differ, by one digit each: the step id (3 places), the step number in the
    // output, current_idx and revision. 562 and 568 characters today.
    expect(at200.replace(/\d+/g, "N")).toBe(at10.replace(/\d+/g, "N"));
    expect(at200.length - at10.length).toBeLessThanOrEqual(6);
    expect(at10.length).toBeLessThan(700);
    expect(at10).toMatch(
      /^\{"revision": 12, "status": "running", "set": \{"current_idx": 11\}, "append": \{"records": \[/,
    );
  }, 60_000);
});
