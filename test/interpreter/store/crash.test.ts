// Crash safety of the file store (issue 4, runtime.md §14.3): a child process commits growing
// revisions of three flows and acknowledges each; it is killed with SIGKILL at random moments, more
// than 200 times. After every kill, every flow file must decode, hold the payload of its revision,
// and its revision must be the last one acknowledged or the next one (committed, not yet
// acknowledged): never older, never partly written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildStoreChild, exited, onLines, spawnChild, stderrOf } from "./child-bundle";
import { crashPayload, payloadOf } from "./flow-text";

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
    for (const [delayMs, startKind] of rng) {
      // One kill in ten comes during start-up, before the child has read the flows.
      const acked = await runAndKill(delayMs, startKind !== 0);
      for (const [id, revision] of acked) lastAck.set(id, revision);

      for (const id of FLOWS) {
        const path = join(dir, `${id}.json`);
        const acknowledged = lastAck.get(id)!;
        if (!existsSync(path)) {
          expect(acknowledged).toBe(0);
          continue;
        }
        const { revision, payload } = payloadOf(readFileSync(path, "utf8"));
        expect([acknowledged, acknowledged + 1]).toContain(revision);
        expect(payload).toBe(crashPayload(id, revision));
        lastAck.set(id, revision); // the next child continues from the file
      }
      // The dead child's lock would expire after 30 s; remove it now, as that expiry would.
      const names = existsSync(dir) ? readdirSync(dir) : [];
      if (names.some((n) => n.endsWith(".lock"))) killedInsideCommit += 1;
      for (const name of names) {
        if (name.includes(".tmp-")) leftTemporaryFiles += 1;
        if (!name.endsWith(".json")) rmSync(join(dir, name));
      }
    }
    // The kills did land inside commits, not only between them.
    expect(killedInsideCommit).toBeGreaterThan(0);
    expect(FLOWS.every((id) => lastAck.get(id)! > 0)).toBe(true);
    process.stderr.write(
      `crash test: ${KILLS} kills, ${killedInsideCommit} inside a commit, ${leftTemporaryFiles} during a write; ` +
        `final revisions ${FLOWS.map((id) => lastAck.get(id)).join(", ")}\n`,
    );
  }, 300_000);
});
