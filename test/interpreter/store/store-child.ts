// The child process of the crash and two-process tests, bundled with esbuild by the tests (see
// child-bundle.ts). It drives a FileFlowStore directly and acknowledges on stdout, with a
// synchronous write, every commit as soon as it returned.
//   crash <home> <id,id,…>   commits growing revisions of each flow, round robin, until killed;
//                            prints "ready", then "<id> <revision>" per commit
//   increment <home> <id> <n> waits for a line on stdin, then does n read-modify-write increments of
//                            the counter stored in the flow, retrying on stale_state / state_locked;
//                            prints "+1" per increment, then "retries <k>"
import { writeSync } from "node:fs";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { StaleStateError, StoreLockedError } from "../../../interpreter/store/store";
import { crashPayload, flowText, payloadOf } from "./flow-text";

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
        writes: [{ flowId: id, text: flowText(id, next, crashPayload(id, next)), expectedRevision: current }],
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
    const stored = await store.read(flowId);
    const revision = stored?.revision ?? 0;
    const counter = stored === null ? 0 : Number(payloadOf(stored.text).payload);
    try {
      await store.commit({
        writes: [{ flowId, text: flowText(flowId, revision + 1, counter + 1), expectedRevision: revision }],
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
  const store = new FileFlowStore(home);
  if (mode === "crash") await crash(store, ids.split(","));
  else if (mode === "increment") await increment(store, ids, Number(count));
  else throw new Error(`unknown mode ${mode}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
