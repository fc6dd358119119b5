// Crash safety of the file store (docs/reference/runtime.md §14.3; the journal): a child process commits growing
// revisions of three flows and acknowledges each; it is killed with SIGKILL at random moments, more
// than 200 times. After every kill, every flow file must decode, hold the payload of its revision,
// and its revision must be the last one acknowledged or the next one (committed, not yet
// acknowledged): never older, never partly written. Then the test commits every flow
// itself through a new store: the dead child's lock is taken over at once (no commit waits for the
// lock timeout), its temporary files are gone when the store opens, and nothing else is left.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { readJournal } from "../../../host/file-store/journal";
import { DEFAULT_LOCK_TIMINGS } from "../../../host/file-store/lock";
import { buildStoreChild, exited, onLines, spawnChild, stderrOf } from "./child-bundle";
import { crashPayload, payloadWrite, SNAPSHOT_EVERY_BYTES, storedPayload } from "./flow-text";

const KILLS = 210;
const FLOWS = ["flow-a", "flow-b", "flow-c"];

let bundle: string;
let bundleDir: string;
let home: string;

beforeAll(async () => {
  ({ bundle, dir: bundleDir } = await buildStoreChild());
  home = mkdtempSync(join(tmpdir(), "stratum-crash-"));
});
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one child until the kill; returns the revisions it acknowledged per flow. */
async function runAndKill(delayMs: number, waitForReady: boolean): Promise<Map<string, number>> {
  const child = spawnChild(bundle, ["crash", home, FLOWS.join(",")]);
  const done = exited(child);
  const stderr = stderrOf(child);
  const acked = new Map<string, number>();
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  onLines(child, (line) => {
    if (line === "ready") ready();
    else {
      const [id, revision] = line.split(" ");
      acked.set(id!, Number(revision));
    }
  });
  if (waitForReady) await Promise.race([isReady, done]);
  await sleep(delayMs);
  child.kill("SIGKILL");
  const { signal } = await done;
  if (signal !== "SIGKILL") throw new Error(`the child ended by itself: ${stderr()}`);
  return acked;
}

describe("file store under SIGKILL", () => {
  it(`keeps every flow whole and at an acknowledged revision (or the next) over ${KILLS} kills`, async () => {
    const rng = fc.sample(fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 9 })), {
      numRuns: KILLS,
      seed: 20240404,
    });
    const lastAck = new Map(FLOWS.map((id) => [id, 0]));
    const dir = join(home, "flows");
    let killedInsideCommit = 0;
    let leftTemporaryFiles = 0;
    let slowestCommitMs = 0;
    let tornTails = 0;
    for (const [delayMs, startKind] of rng) {
      // One kill in ten comes during start-up, before the child has read the flows.
      const acked = await runAndKill(delayMs, startKind !== 0);
      for (const [id, revision] of acked) lastAck.set(id, revision);

      // What the dead child left, before any store opens (opening removes dead writers' files).
      const names = existsSync(dir) ? readdirSync(dir) : [];
      if (names.some((n) => n.endsWith(".lock"))) killedInsideCommit += 1;
      leftTemporaryFiles += names.filter((n) => n.includes(".tmp-")).length > 0 ? 1 : 0;
      const reader = new FileFlowStore(home, { minSnapshotBytes: SNAPSHOT_EVERY_BYTES });
      for (const id of FLOWS) {
        const acknowledged = lastAck.get(id)!;
        const journal = readJournal(join(dir, `${id}.journal`));
        if (journal?.damage?.kind === "torn") tornTails += 1;
        expect(journal?.damage?.kind, `${id}.journal`).not.toBe("corrupt");
        const stored = await storedPayload(reader, id);
        if (stored === null) {
          expect(acknowledged).toBe(0);
          continue;
        }
        const { revision, payload } = stored;
        expect([acknowledged, acknowledged + 1]).toContain(revision);
        expect(payload).toBe(crashPayload(id, revision));
        lastAck.set(id, revision); // the next child continues from the file
      }
      // What the dead child left stays. A new store removes its temporary files when it
      // opens, and a commit on every flow takes its lock over at once: none waits on the dead
      // child's lock (that wait would last the 2 s lock timeout, then StoreLockedError).
      const store = new FileFlowStore(home, { minSnapshotBytes: SNAPSHOT_EVERY_BYTES });
      expect((existsSync(dir) ? readdirSync(dir) : []).filter((n) => n.includes(".tmp-"))).toEqual([]);
      for (const id of FLOWS) {
        const current = lastAck.get(id)!;
        const t0 = performance.now();
        await store.commit({
          writes: [payloadWrite(id, current, crashPayload(id, current + 1))],
          deletes: [],
        });
        const ms = performance.now() - t0;
        slowestCommitMs = Math.max(slowestCommitMs, ms);
        expect(ms, `commit of ${id} after a kill`).toBeLessThan(DEFAULT_LOCK_TIMINGS.timeoutMs);
        lastAck.set(id, current + 1);
      }
      expect(readdirSync(dir).filter((n) => !n.endsWith(".json") && !n.endsWith(".journal"))).toEqual([]);
    }
    // The kills did land inside commits, not only between them.
    expect(killedInsideCommit).toBeGreaterThan(0);
    expect(leftTemporaryFiles, "kills while a snapshot was being written").toBeGreaterThan(0);
    expect(FLOWS.every((id) => lastAck.get(id)! > 0)).toBe(true);
    process.stderr.write(
      `crash test: ${KILLS} kills, ${killedInsideCommit} inside a commit, ${leftTemporaryFiles} during a snapshot write, ` +
        `${tornTails} leaving a torn journal entry; ` +
        `slowest commit after a kill ${slowestCommitMs.toFixed(0)} ms; ` +
        `final revisions ${FLOWS.map((id) => lastAck.get(id)).join(", ")}\n`,
    );
  }, 300_000);
});
