// Test support: a flow recorded on a spec by the real interpreter over a store, and the spec's
// edited versions (text replacements that must each apply exactly once).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApi } from "../../../interpreter/engine/create-api";
import type { FlowState, FlowStore, StratumApi } from "../../../interpreter/index";
import { MemoryStore } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";
import { NO_WORKSPACE } from "../../support/no-workspace";
import { storedState } from "../../support/stored-flow";

export const V1 = readFileSync(join(import.meta.dirname, "release-v1.stratum.yaml"), "utf8");

/** V1 with `from` replaced by `to` (exactly one occurrence). */
export function edited(from: string, to: string, text: string = V1): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`'${from}' must occur once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`'${needle}' not found`);
  return text.slice(0, at).split("\n").length;
}

export function engineOver(store: FlowStore): StratumApi {
  let n = 0;
  return createApi({
    store,
    clock: { wallMs: () => 1_700_000_000_000, monoMs: () => 1_000 },
    ids: { newFlowId: () => `10000000-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}` },
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
  });
}

const ok = (r: unknown): Record<string, unknown> => r as Record<string, unknown>;

/**
 * The release flow of V1 driven to the end: a build rejected once then accepted, notes, a revise
 * at sign_off, build and notes again, approve, deploy. Returns the flow id.
 */
export async function recordRelease(api: StratumApi, spec: string = V1, finish = true): Promise<string> {
  const plan = ok(await api.plan({ spec, flow: "release", inputs: fromJsonValue({ version: "1.2.0" }) }));
  const flow_id = String(plan.flow_id);
  const done = async (step_id: string, result: unknown) =>
    ok(await api.stepDone({ flow_id, step_id, result: fromJsonValue(result) }));
  const gate = async (outcome: string) =>
    ok(
      await api.gateResolve({
        flow_id,
        step_id: "sign_off",
        outcome,
        rationale: outcome,
        resolved_by: "human",
      }),
    );
  expect((await done("build", { artifact: "a.tgz", size: 0 })).status, "ensure_failed");
  expect((await done("build", { artifact: "a.tgz", size: 5 })).status, "execute_step");
  expect((await done("notes", { text: "first notes" })).status, "await_gate");
  expect((await gate("revise")).status, "execute_step");
  expect((await done("build", { artifact: "b.tgz", size: 7 })).status, "execute_step");
  expect((await done("notes", { text: "second notes" })).status, "await_gate");
  if (!finish) return flow_id;
  expect((await gate("approve")).status, "execute_step");
  expect((await done("deploy", { url: "https://x" })).status, "complete");
  return flow_id;
}

function expect(actual: unknown, wanted: string): void {
  if (actual !== wanted) throw new Error(`recording: expected ${wanted}, got ${String(actual)}`);
}

/** A recorded release flow, as its store decodes it. */
export async function recordedState(finish = true): Promise<FlowState> {
  const store = new MemoryStore();
  const id = await recordRelease(engineOver(store), V1, finish);
  const state = await storedState(store, id);
  if (state === null) throw new Error("the recorded flow is not stored");
  return state;
}
