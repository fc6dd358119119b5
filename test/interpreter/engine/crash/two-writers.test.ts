// No lost update through the engine (docs/reference/runtime.md §14.3): two child processes, each with
// its own engine over a FileFlowStore on the same STRATUM_HOME, report TICK_SPEC's self-looping
// step on the SAME flow at the same time. A report refused with stale_state or state_locked
// changes nothing and is simply repeated (the engine reloads the flow from the store first). At
// the end the trace holds exactly one StepRecord per accepted report of either child — none lost,
// none applied twice — and the revision counts the plan plus every accepted report.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../../host/file-store/file-store";
import { nodeFileSystem } from "../../../../host/node-fs";
import { nodeWorkspace } from "../../../../host/node-workspace";
import type { StratumApi } from "../../../../interpreter/api";
import { createApi } from "../../../../interpreter/engine/create-api";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../../stdlib/values/json";
import { type Child, exited, onLines, spawnChild, stderrOf } from "../../store/child-bundle";
import { ManualClock } from "../../support/manual-clock";
import { SequentialIds } from "../../support/sequential-ids";
import { buildCrashChild } from "./child-build";
import { mismatch } from "./expected";
import { TICK_FLOW, TICK_SPEC } from "./loop-spec";
import { readState } from "./stored-flows";
import { tickPayload } from "./tick";

const PER_CHILD = 150;

let bundle: string;
let bundleDir: string;
let home: string;

beforeAll(async () => {
  ({ bundle, dir: bundleDir } = await buildCrashChild());
  home = mkdtempSync(join(tmpdir(), "stratum-engine-two-writers-"));
});
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function engine(store: FileFlowStore): StratumApi {
  return createApi({
    store,
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: home,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
    verifyEdits: true,
  });
}

interface Writer {
  readonly child: Child;
  readonly result: Promise<{
    readonly accepted: number;
    readonly stale: number;
    readonly locked: number;
    readonly code: number | null;
    readonly stderr: string;
  }>;
}

function writer(flowId: string): Writer {
  const child = spawnChild(bundle, ["tick", home, flowId, String(PER_CHILD)]);
  const stderr = stderrOf(child);
  let accepted = 0;
  let stale = -1;
  let locked = -1;
  onLines(child, (line) => {
    if (line === "+1") accepted += 1;
    else if (line.startsWith("retries "))
      [stale, locked] = line.slice("retries ".length).split(" ").map(Number) as [number, number];
  });
  const result = exited(child).then(({ code }) => ({ accepted, stale, locked, code, stderr: stderr() }));
  return { child, result };
}

describe("the engine with two writer processes on one flow", () => {
  it("loses no step_done and applies none twice", async () => {
    const store = new FileFlowStore(home);
    const planned = await engine(store).plan({ spec: TICK_SPEC, flow: TICK_FLOW, inputs: fromJsonValue({}) });
    const flowId = String(planned.flow_id);
    expect(mismatch(planned, tickPayload(flowId))).toBeNull();

    const writers = [writer(flowId), writer(flowId)];
    // Both wait for a line on stdin, so their calls start together and interleave.
    for (const w of writers) w.child.stdin.end("go\n");
    const results = await Promise.all(writers.map((w) => w.result));
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "", accepted: PER_CHILD });
    const accepted = results.reduce((sum, r) => sum + r.accepted, 0);
    const retries = results.map((r) => r.stale + r.locked);

    // A new engine (a third process) reads the outcome.
    const audit = wireToPlain(await engine(new FileFlowStore(home)).audit({ flow_id: flowId })) as {
      trace: { type: string; step_id: string }[];
    };
    expect(audit.trace).toHaveLength(accepted);
    expect(audit.trace.every((r) => r.type === "step" && r.step_id === "tick")).toBe(true);
    const state = await readState(store, flowId);
    expect(state?.revision).toBe(1 + accepted);
    expect(state?.attempts.size).toBe(0); // `next: tick` cleared the step after the last report
    // No lock or temporary file left: the flow's snapshot and its journal only.
    expect(readdirSync(store.flowsDir).sort()).toEqual([`${flowId}.journal`, `${flowId}.json`]);
    // The writers did collide: some reports were refused and repeated.
    expect(retries.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    process.stderr.write(
      `engine two-writer test: ${accepted} accepted step_done calls, ` +
        `${results.map((r) => `${r.stale} stale_state + ${r.locked} state_locked`).join(" / ")} retried\n`,
    );
  }, 120_000);
});
