// The child process of the engine-level crash and two-writer tests, bundled with esbuild by the
// tests (child-build.ts). It runs the real engine (createApi) over a FileFlowStore, the system
// clock and random UUIDs, and acknowledges on stdout, with a synchronous write, after each call.
//   crash <home>             warms up, waits for a line on stdin (so the test can start the next
//                            child while the current one runs), then drives LOOP_SPEC `main`
//                            flows (driver.ts) until killed: continues the in-progress ones found
//                            in the store, keeps two running (plans new ones as flows complete),
//                            one move per flow, round robin. Prints "ready" once it read the
//                            store, then after every call, for every flow the call may have
//                            written, "ack <flow id> <stored revision> <status>". Any unexpected
//                            response ends it with exit code 1 (stderr says why).
//   tick <home> <id> <n>     waits for a line on stdin, then reports the TICK_SPEC flow's step n
//                            times, retrying on stale_state / state_locked; prints "+1" per
//                            accepted report, then "retries <stale> <locked>".
import { randomUUID } from "node:crypto";
import { writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { checkSpec } from "../../../../checker/check-spec";
import { FileFlowStore } from "../../../../host/file-store/file-store";
import { nodeFileSystem } from "../../../../host/node-fs";
import { nodeWorkspace } from "../../../../host/node-workspace";
import type { StratumApi } from "../../../../interpreter/api";
import { createApi } from "../../../../interpreter/engine/create-api";
import type { Response } from "../../../../interpreter/wire/wire";
import { fromJsonValue } from "../../../../stdlib/values/json";
import { isFinished, isMainFlow, PLAN_MOVE, touchedFlows } from "./driver";
import { mismatch } from "./expected";
import { LOOP_SPEC } from "./loop-spec";
import { planMain, playNext } from "./play";
import { readState, storedRevision } from "./stored-flows";
import { tickPayload } from "./tick";

/** How many `main` flows the crash child keeps in progress. */
const ACTIVE_FLOWS = 2;

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

function engine(store: FileFlowStore, home: string): StratumApi {
  return createApi({
    store,
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => randomUUID() },
    cwd: home,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
    logError: (message) => process.stderr.write(`engine: ${message}\n`),
    verifyEdits: true,
  });
}

async function ack(store: FileFlowStore, ids: readonly string[], response: Response): Promise<void> {
  for (const id of ids) say(`ack ${id} ${await storedRevision(store, id)} ${String(response.status)}`);
}

async function crash(home: string): Promise<never> {
  // Warm the parser and checker up (the engine compiles the spec again on its first call, then
  // quickly), so that start-up costs little once the test says go.
  checkSpec(LOOP_SPEC);
  await goSignal();
  const store = new FileFlowStore(home);
  const api = engine(store, home);
  const active: string[] = [];
  for (const { flowId } of await store.list()) {
    const state = await readState(store, flowId);
    if (state !== null && isMainFlow(state) && !isFinished(state)) active.push(flowId);
  }
  say("ready");
  for (;;) {
    while (active.length < ACTIVE_FLOWS) {
      const response = await planMain(api);
      await ack(store, touchedFlows(PLAN_MOVE, null, response), response);
      active.push(String(response.flow_id));
    }
    for (const id of [...active]) {
      const played = await playNext(api, store, id);
      if (played === null) {
        active.splice(active.indexOf(id), 1); // finished by the test's own moves
        continue;
      }
      await ack(store, touchedFlows(played.move, played.view, played.response), played.response);
      // Approving the last round completes the flow (a child's completion does not).
      if (played.move.call.tool === "gateResolve" && played.response.status === "complete") {
        active.splice(active.indexOf(id), 1);
      }
    }
  }
}

async function tick(home: string, flowId: string, n: number): Promise<void> {
  const store = new FileFlowStore(home);
  const api = engine(store, home);
  await goSignal();
  let stale = 0;
  let locked = 0;
  for (let done = 0; done < n; ) {
    const response = await api.stepDone({
      flow_id: flowId,
      step_id: "tick",
      result: fromJsonValue({ pid: process.pid, i: done }),
    });
    if (response.status === "error" && response.error_type === "stale_state") stale += 1;
    else if (response.status === "error" && response.error_type === "state_locked") locked += 1;
    else {
      const problem = mismatch(response, tickPayload(flowId));
      if (problem !== null) throw new Error(`step_done: ${problem}`);
      done += 1;
      say("+1");
    }
  }
  say(`retries ${stale} ${locked}`);
}

/** Resolves at the first line (any data) on stdin. */
async function goSignal(): Promise<void> {
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  process.stdin.pause();
}

async function main(): Promise<void> {
  const [mode, home, flowId, count] = process.argv.slice(2);
  if (home === undefined) throw new Error("usage: crash-child crash|tick <home> [flow id] [n]");
  if (mode === "crash") await crash(home);
  else if (mode === "tick" && flowId !== undefined) await tick(home, flowId, Number(count));
  else throw new Error(`unknown mode ${mode}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
