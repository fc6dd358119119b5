// Crash safety through the engine (docs/reference/runtime.md §14.2–14.4): a child process runs the real
// engine over a FileFlowStore and drives LOOP_SPEC flows (iterations, retries, a sub-flow per
// pass, on_fail routing, gate revise/approve; see driver.ts), acknowledging the stored revision
// after every call. It is killed with SIGKILL at random moments, more than 200 times, and
// restarted on the same STRATUM_HOME. After every kill:
//   - every flow file decodes, and its revision is the last one acknowledged or the next one
//     (committed, not yet acknowledged) — never older, never partly written; no flow vanished;
//   - a NEW engine over a new FileFlowStore resumes every flow that changed (and every one still
//     in progress) with exactly the payload its stored state calls for, and drives each
//     in-progress main flow two moves further with exactly the expected responses.
// The next child continues from whatever the store holds (the driver reads only stored state).
// Nothing removes what a killed child left. Its lock (pid + start time + host) is taken
// over at once by the next writer, and its temporary files are gone as soon as a new store opens;
// every call of the test's fresh engines is timed and none may wait on the dead child's lock (such
// a wait would last the whole 2 s lock timeout and end in state_locked; the 30 s age limit is far
// beyond). The next child, too, would stop with "ended by itself" on a state_locked answer.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../../host/file-store/file-store";
import { DEFAULT_LOCK_TIMINGS, readLock } from "../../../../host/file-store/lock";
import { nodeFileSystem } from "../../../../host/node-fs";
import { nodeWorkspace } from "../../../../host/node-workspace";
import type { StratumApi } from "../../../../interpreter/api";
import { createApi } from "../../../../interpreter/engine/create-api";
import { type Child, exited, onLines, spawnChild, stderrOf } from "../../store/child-bundle";
import { buildCrashChild } from "./child-build";
import { isFinished, isMainFlow } from "./driver";
import { resumeAndDrive } from "./play";
import { readState } from "./stored-flows";

const KILLS = 210;

let bundle: string;
let bundleDir: string;
let home: string;

beforeAll(async () => {
  ({ bundle, dir: bundleDir } = await buildCrashChild());
  home = mkdtempSync(join(tmpdir(), "stratum-engine-crash-"));
});
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the kills hit, for the report. */
interface Tally {
  /** The children's acknowledgements by response status. */
  readonly acks: Map<string, number>;
  /** A lock file was left: the child died between taking a lock and releasing it. */
  insideCommit: number;
  /** A temporary file was left: the child died while writing a new flow text. */
  duringWrite: number;
  /** A flow was one revision past its last acknowledgement: committed, the ack not yet written. */
  unacknowledged: number;
  resumed: number;
  driven: number;
  /** Locks of a killed child that a later call took over (and released). */
  takenOver: number;
  /** The slowest call of a fresh engine after a kill, ms. */
  slowestMs: number;
}

/** A started child that has not been told to go yet (it warms up meanwhile). */
interface Waiting {
  readonly child: Child;
  readonly done: Promise<{ readonly code: number | null; readonly signal: string | null }>;
  readonly stderr: () => string;
}

function spawnWaiting(): Waiting {
  const child = spawnChild(bundle, ["crash", home]);
  return { child, done: exited(child), stderr: stderrOf(child) };
}

/**
 * Lets a waiting child go and kills it `delayMs` after it said "ready" (or, when `waitForReady`
 * is false, after the go); records its acknowledgements in `lastAck`.
 */
async function runAndKill(
  { child, done, stderr }: Waiting,
  delayMs: number,
  waitForReady: boolean,
  lastAck: Map<string, number>,
  tally: Tally,
) {
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const strayLines: string[] = [];
  onLines(child, (line) => {
    if (line === "ready") return ready();
    const [word, id, revision, status] = line.split(" ");
    if (word !== "ack" || id === undefined || status === undefined) return void strayLines.push(line);
    lastAck.set(id, Number(revision));
    tally.acks.set(status, (tally.acks.get(status) ?? 0) + 1);
  });
  child.stdin.write("go\n");
  if (waitForReady) await Promise.race([isReady, done]);
  await sleep(delayMs);
  child.kill("SIGKILL");
  const { signal } = await done;
  if (signal !== "SIGKILL") throw new Error(`the child ended by itself: ${stderr()}`);
  expect(strayLines).toEqual([]);
}

/** Unexpected failures the test's engines reported (always expected to stay empty). */
const engineErrors: string[] = [];

/**
 * The API with every call timed: none may answer state_locked or take as long as the lock wait
 * (which only a lock whose owner is not known to be gone can cause).
 */
function timedApi(api: StratumApi, tally: Tally): StratumApi {
  return new Proxy(api, {
    get(target, key, receiver) {
      const method = Reflect.get(target, key, receiver);
      if (typeof method !== "function") return method;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        const response = await method.apply(target, args);
        const ms = performance.now() - t0;
        tally.slowestMs = Math.max(tally.slowestMs, ms);
        expect(response?.error_type, `${String(key)} after a kill`).not.toBe("state_locked");
        expect(ms, `${String(key)} after a kill waited on a lock`).toBeLessThan(
          DEFAULT_LOCK_TIMINGS.timeoutMs,
        );
        return response;
      };
    },
  });
}

function freshEngine(): { readonly api: StratumApi; readonly store: FileFlowStore } {
  const store = new FileFlowStore(home);
  const api = createApi({
    store,
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => randomUUID() },
    cwd: home,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
    logError: (message) => engineErrors.push(message),
    verifyEdits: true,
  });
  return { api, store };
}

/** A flow file as last checked: its change token (mtime, size, inode), revision, and whether it finished. */
interface Checked {
  readonly token: string;
  readonly revision: number;
  readonly finished: boolean;
}

/**
 * Checks the store after a kill (see the header), then sets `lastAck` to what the store holds, as
 * the next child starts from it. A file whose change token is the one recorded in `checked` is
 * the file already decoded then: only its revision is compared again; a finished one is not
 * resumed again.
 */
async function verifyAfterKill(
  lastAck: Map<string, number>,
  checked: Map<string, Checked>,
  tally: Tally,
  deadPid: number,
) {
  // What the killed child left, seen before a new store opens (which removes its temporary files).
  const flowsDir = join(home, "flows");
  const before = existsSync(flowsDir) ? readdirSync(flowsDir).filter((n) => !n.endsWith(".json")) : [];
  const deadLocks = before.filter(
    (n) => n.endsWith(".lock") && (readLock(join(flowsDir, n)) ?? "").startsWith(`${deadPid} `),
  );
  if (deadLocks.length > 0) tally.insideCommit += 1;
  if (before.some((n) => n.includes(`.tmp-${deadPid}-`))) tally.duringWrite += 1;
  const fresh = freshEngine();
  const store = fresh.store;
  const api = timedApi(fresh.api, tally);
  expect(
    (existsSync(flowsDir) ? readdirSync(flowsDir) : []).filter((n) => n.includes(".tmp-")),
    "temporary files after a new store opened",
  ).toEqual([]);
  const flows = (await store.list()).map((f) => f.flowId);
  const present = new Set(flows);
  for (const id of lastAck.keys()) expect(present.has(id), `acknowledged flow ${id} vanished`).toBe(true);

  const toResume: string[] = [];
  for (const id of flows) {
    const token = (await store.token(id)) ?? "";
    let seen = checked.get(id);
    if (seen?.token !== token) {
      const state = await readState(store, id); // throws when the file does not decode
      expect(state, id).not.toBeNull();
      seen = { token, revision: state!.revision, finished: isFinished(state!) };
    }
    const acknowledged = lastAck.get(id) ?? 0;
    expect([acknowledged, acknowledged + 1], `revision of ${id}`).toContain(seen.revision);
    if (seen.revision === acknowledged + 1) tally.unacknowledged += 1;
    if (checked.get(id)?.token !== token || !seen.finished) toResume.push(id);
  }

  try {
    await resumeAndDrive(api, store, toResume, tally);
  } catch (error) {
    // The engine's own log of an internal error says where it came from; the response does not.
    if (error instanceof Error && engineErrors.length > 0)
      error.message += `\nengine log:\n${engineErrors.join("\n")}`;
    throw error;
  }

  expect(engineErrors).toEqual([]);
  for (const name of deadLocks) {
    const content = existsSync(join(flowsDir, name)) ? readFileSync(join(flowsDir, name), "utf8") : null;
    if (content === null || !content.startsWith(`${deadPid} `)) tally.takenOver += 1;
  }
  for (const id of (await store.list()).map((f) => f.flowId)) {
    const state = await readState(store, id);
    if (state === null) continue;
    lastAck.set(id, state.revision);
    checked.set(id, {
      token: (await store.token(id)) ?? "",
      revision: state.revision,
      finished: isFinished(state),
    });
  }
}

describe("the engine under SIGKILL", () => {
  it(`keeps every flow whole, at an acknowledged revision (or the next) and resumable over ${KILLS} kills`, async () => {
    const started = performance.now();
    const plan = fc.sample(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 9 })), {
      numRuns: KILLS,
      seed: 20240405,
    });
    const lastAck = new Map<string, number>();
    const checked = new Map<string, Checked>();
    const tally: Tally = {
      acks: new Map(),
      insideCommit: 0,
      duringWrite: 0,
      unacknowledged: 0,
      resumed: 0,
      driven: 0,
      takenOver: 0,
      slowestMs: 0,
    };
    // The next child is started while the current one runs, so its Node start-up (100–300 ms)
    // overlaps; it touches nothing before it is told to go.
    let next = spawnWaiting();
    try {
      for (const [delayMs, startKind] of plan) {
        const current = next;
        next = spawnWaiting();
        // One kill in ten comes during start-up: up to 50 ms after the go, not after "ready".
        await runAndKill(current, delayMs, startKind !== 0, lastAck, tally);
        await verifyAfterKill(lastAck, checked, tally, current.child.pid!);
      }
    } finally {
      next.child.kill("SIGKILL");
      await next.done;
    }

    const { store } = freshEngine();
    const states = await Promise.all((await store.list()).map((f) => readState(store, f.flowId)));
    const mains = states.filter((s) => s !== null && isMainFlow(s));
    const completed = mains.filter((s) => s!.status === "complete").length;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `engine crash test: ${KILLS} kills in ${seconds} s; acknowledged calls: ${[...tally.acks].map(([k, v]) => `${v} ${k}`).join(", ")}; ` +
        `${tally.insideCommit} kills inside a commit (${tally.duringWrite} during a write), ` +
        `${tally.unacknowledged} commits not yet acknowledged; ${tally.resumed} resumes and ` +
        `${tally.driven} moves by fresh engines; ${tally.takenOver} dead locks taken over, slowest call ` +
        `${tally.slowestMs.toFixed(0)} ms; ${mains.length} main flows (${completed} complete), ` +
        `${states.length} flow files\n`,
    );
    // The kills landed inside commits and between a commit and its acknowledgement, and flows
    // still made progress across them.
    expect(tally.insideCommit).toBeGreaterThan(0);
    expect(tally.takenOver).toBeGreaterThan(0);
    expect(tally.unacknowledged).toBeGreaterThan(0);
    expect(completed).toBeGreaterThan(0);
  }, 240_000);
});
