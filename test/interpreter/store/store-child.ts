// The child process of the crash and two-process tests, bundled with esbuild by the tests (see
// child-bundle.ts). It drives a FileFlowStore directly and acknowledges on stdout, with a
// synchronous write, every commit as soon as it returned.
//   crash <home> <id,id,…>   commits growing revisions of each flow (journal entries, and a
//                            snapshot whenever a journal reaches SNAPSHOT_EVERY_BYTES), round robin, until killed;
//                            prints "ready", then "<id> <revision>" per commit
//   increment <home> <id> <n> waits for a line on stdin, then does n read-modify-write increments of
//                            the counter stored in the flow, retrying on stale_state / state_locked;
//                            prints "+1" per increment, then "retries <k>"
import { writeSync } from "node:fs";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { StaleStateError, StoreLockedError } from "../../../interpreter/store/store";
import { crashPayload, payloadWrite, SNAPSHOT_EVERY_BYTES, storedPayload } from "./flow-text";

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

async function crash(store: FileFlowStore, flowIds: readonly string[]): Promise<never> {
  const revisions = new Map<string, number>();
  for (const id of flowIds) revisions.set(id, (await store.read(id))?.revision ?? 0);
  say("ready");
  for (;;) {
    for (const id of flowIds) {
      const current = revisions.get(id) ?? 0;
      const next = current + 1;
      await store.commit({
        writes: [payloadWrite(id, current, crashPayload(id, next))],
        deletes: [],
      });
      revisions.set(id, next);
      say(`${id} ${next}`);
    }
  }
}

async function increment(store: FileFlowStore, flowId: string, n: number): Promise<void> {
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  process.stdin.pause();
  let retries = 0;
  for (let done = 0; done < n; ) {
    const stored = await storedPayload(store, flowId);
    const revision = stored?.revision ?? 0;
    const counter = stored === null ? 0 : Number(stored.payload);
    try {
      await store.commit({
        writes: [payloadWrite(flowId, revision, counter + 1)],
        deletes: [],
      });
    } catch (e) {
      if (e instanceof StaleStateError || e instanceof StoreLockedError) {
        retries += 1;
        continue;
      }
      throw e;
    }
    done += 1;
    say("+1");
  }
  say(`retries ${retries}`);
}

async function main(): Promise<void> {
  const [mode, home, ids, count] = process.argv.slice(2);
  if (home === undefined || ids === undefined) throw new Error("usage: store-child <mode> <home> <ids> [n]");
  // Small snapshots thresholds, so that kills land in appends and in snapshots alike.
  const store = new FileFlowStore(home, { minSnapshotBytes: SNAPSHOT_EVERY_BYTES });
  if (mode === "crash") await crash(store, ids.split(","));
  else if (mode === "increment") await increment(store, ids, Number(count));
  else throw new Error(`unknown mode ${mode}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
