// The journaled file store (docs/design/durable-store.md): `<id>.json` snapshot plus
// `<id>.journal` deltas; when it snapshots; what it does with a torn tail, a corrupt entry, a
// snapshot written by a program that does not know the journal, a failed append in a batch; and
// that a store written by the previous version (snapshots only) is read and continued as it is.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { encodeFrame, readJournal } from "../../host/file-store/journal";
import { FlowCorruptError, StaleStateError, textWrite } from "../../interpreter/store/store";
import { decodeStoredFlow } from "../../interpreter/store/stored-state";
import { flowText, payloadWrite, storedPayload } from "../interpreter/store/flow-text";

let home: string;
let flows: string;
beforeEach(() => {
  home = join(mkdtempSync(join(tmpdir(), "stratum-journal-store-")), "home");
  flows = join(home, "flows");
});
afterEach(() => rmSync(resolve(home, ".."), { recursive: true, force: true }));

const snapshotOf = (id: string) => join(flows, `${id}.json`);
const journalOf = (id: string) => join(flows, `${id}.journal`);

/** Commits revisions 1..n of a synthetic flow (payload = the revision), journaled from 2 on. */
async function commitUpTo(store: FileFlowStore, id: string, n: number, from = 0): Promise<void> {
  for (let r = from; r < n; r++) await store.commit({ writes: [payloadWrite(id, r, r + 1)], deletes: [] });
}

describe("the journaled file store", () => {
  it("writes a new flow as a snapshot, then appends one journal entry per commit", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    expect(readFileSync(snapshotOf("f1"), "utf8")).toBe(flowText("f1", 1, 1)); // untouched since
    expect(readJournal(journalOf("f1"))?.entries).toHaveLength(2);
    const stored = await store.read("f1");
    expect(stored).toMatchObject({ revision: 3, deltaSource: journalOf("f1") });
    expect(stored?.deltas).toHaveLength(2);
    expect(await storedPayload(store, "f1")).toEqual({ revision: 3, payload: 3 });
    expect(await store.token("f1")).toBe(stored?.token);
  });

  it("replaces the journal by a snapshot when it is as large as the snapshot (and the minimum)", async () => {
    const store = new FileFlowStore(home, { minSnapshotBytes: 1024 });
    const big = (r: number) => `${r}:${"x".repeat(300)}`;
    for (let r = 0; r < 12; r++)
      await store.commit({ writes: [payloadWrite("f1", r, big(r + 1))], deletes: [] });
    const snapshotRevision = (JSON.parse(readFileSync(snapshotOf("f1"), "utf8")) as { revision: number })
      .revision;
    expect(snapshotRevision).toBeGreaterThan(1);
    const journalBytes = existsSync(journalOf("f1")) ? statSync(journalOf("f1")).size : 0;
    expect(journalBytes).toBeLessThan(Math.max(1024, statSync(snapshotOf("f1")).size));
    expect(await storedPayload(store, "f1")).toEqual({ revision: 12, payload: big(12) });
  });

  it("snapshots a finished flow and removes its journal", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    await store.commit({ writes: [payloadWrite("f1", 3, "done", true)], deletes: [] });
    expect(existsSync(journalOf("f1"))).toBe(false);
    expect(readFileSync(snapshotOf("f1"), "utf8")).toBe(flowText("f1", 4, "done"));
  });

  it("reads a flow written by the previous version (a snapshot only) and continues it with a journal", async () => {
    mkdirSync(flows, { recursive: true });
    writeFileSync(snapshotOf("old"), flowText("old", 7, "before the upgrade"));
    const store = new FileFlowStore(home);
    expect(await storedPayload(store, "old")).toEqual({ revision: 7, payload: "before the upgrade" });
    await store.commit({ writes: [payloadWrite("old", 7, "after")], deletes: [] });
    expect(readFileSync(snapshotOf("old"), "utf8")).toBe(flowText("old", 7, "before the upgrade"));
    expect(await storedPayload(new FileFlowStore(home), "old")).toEqual({ revision: 8, payload: "after" });
  });

  it("drops a torn last entry when reading, and cuts it off before the next append", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 2);
    const frame = encodeFrame('{"revision": 3, "status": "running"}');
    appendFileSync(journalOf("f1"), frame.subarray(0, frame.length - 5)); // an append cut short
    expect(await storedPayload(new FileFlowStore(home), "f1")).toEqual({ revision: 2, payload: 2 });
    await new FileFlowStore(home).commit({ writes: [payloadWrite("f1", 2, 3)], deletes: [] });
    const scan = readJournal(journalOf("f1"));
    expect(scan?.damage).toBeNull();
    expect(scan?.entries).toHaveLength(2);
    expect(await storedPayload(store, "f1")).toEqual({ revision: 3, payload: 3 });
  });

  it("cuts a torn tail off before appending when the same store read the flow first", async () => {
    // What a writer killed inside an append leaves for the next process, which reads the flow
    // (a load) before it commits: the store remembers the read, and the commit must still find
    // the torn tail under the lock instead of expecting the journal to end where its intact
    // entries end.
    await commitUpTo(new FileFlowStore(home), "f1", 2);
    const frame = encodeFrame('{"revision": 3, "status": "running"}');
    appendFileSync(journalOf("f1"), frame.subarray(0, frame.length - 5));
    const next = new FileFlowStore(home);
    expect(await storedPayload(next, "f1")).toEqual({ revision: 2, payload: 2 });
    await next.commit({ writes: [payloadWrite("f1", 2, 3)], deletes: [] });
    await next.commit({ writes: [payloadWrite("f1", 3, 4)], deletes: [] });
    const scan = readJournal(journalOf("f1"));
    expect(scan?.damage).toBeNull();
    expect(scan?.entries).toHaveLength(3);
    expect(await storedPayload(new FileFlowStore(home), "f1")).toEqual({ revision: 4, payload: 4 });
  });

  it("reports a damaged entry with data after it as corrupt, naming the journal, and never truncates it", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    const bytes = readFileSync(journalOf("f1"));
    bytes[14] = bytes[14]! ^ 0xff; // inside the first entry's payload
    writeFileSync(journalOf("f1"), bytes);
    const stored = await new FileFlowStore(home).read("f1");
    expect(stored?.deltaProblem).toMatch(
      /^damaged at byte 0 \(payload checksum mismatch\) with entries after it$/,
    );
    const decoded = stored === null ? null : decodeStoredFlow(stored);
    expect(decoded).toMatchObject({ ok: false, part: "journal" });
    const commit = new FileFlowStore(home).commit({ writes: [payloadWrite("f1", 3, 4)], deletes: [] });
    await expect(commit).rejects.toBeInstanceOf(FlowCorruptError);
    await expect(commit).rejects.toMatchObject({ file: journalOf("f1") });
    expect(readFileSync(journalOf("f1"))).toEqual(bytes);
  });

  it("refuses a snapshot rewritten by a program that does not know the journal, instead of merging", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    writeFileSync(snapshotOf("f1"), flowText("f1", 2, "older stratumc")); // revision 2 is also entry 1
    const stored = await new FileFlowStore(home).read("f1");
    expect(stored?.deltaProblem).toMatch(/has revision 2, which the snapshot already has.*older stratumc/);
  });

  it("says which entry breaks the sequence, in the journal and when applying the deltas", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    const entries = readJournal(journalOf("f1"))?.entries ?? [];
    const skipped = entries[1]!.payload.replace('{"revision": 3,', '{"revision": 5,');
    appendFileSync(journalOf("f1"), encodeFrame(skipped));
    const stored = await new FileFlowStore(home).read("f1");
    expect(stored?.deltaProblem).toBe(`the entry at byte ${entries[1]!.end} has revision 5, 4 expected`);
    // A reader given deltas out of order (entry 2 without entry 1) names the delta by its place.
    const decoded = decodeStoredFlow({ ...stored!, deltas: [stored!.deltas[1]!], deltaProblem: undefined });
    expect(decoded).toEqual({ ok: false, part: "journal", reason: "entry 1 has revision 3, 2 expected" });
  });

  it("skips journal entries older than the snapshot (a crash between the snapshot and removing the journal)", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 3);
    const leftover = readFileSync(journalOf("f1"));
    await store.commit({ writes: [payloadWrite("f1", 3, "snap", true)], deletes: [] });
    writeFileSync(journalOf("f1"), leftover); // entries 2 and 3, older than the snapshot at 4
    expect(await storedPayload(new FileFlowStore(home), "f1")).toEqual({ revision: 4, payload: "snap" });
  });

  it("tells a writer whose view is old that another process appended (stale_state), and changes nothing", async () => {
    const a = new FileFlowStore(home);
    const b = new FileFlowStore(home);
    await commitUpTo(a, "f1", 2);
    expect((await b.read("f1"))?.revision).toBe(2);
    await a.commit({ writes: [payloadWrite("f1", 2, 3)], deletes: [] });
    const before = readFileSync(journalOf("f1"));
    await expect(b.commit({ writes: [payloadWrite("f1", 2, "lost")], deletes: [] })).rejects.toBeInstanceOf(
      StaleStateError,
    );
    expect(readFileSync(journalOf("f1"))).toEqual(before);
    await b.commit({ writes: [payloadWrite("f1", 3, 4)], deletes: [] });
    expect(await storedPayload(a, "f1")).toEqual({ revision: 4, payload: 4 });
  });

  it("cuts earlier appends of a batch back when a later one fails", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "a", 2);
    await commitUpTo(store, "b", 1);
    const before = readFileSync(journalOf("a"));
    mkdirSync(journalOf("b")); // b's journal cannot be opened for appending
    const batch = { writes: [payloadWrite("a", 2, "x"), payloadWrite("b", 1, "y")], deletes: [] };
    await expect(store.commit(batch)).rejects.toThrow();
    expect(readFileSync(journalOf("a"))).toEqual(before);
    expect(await storedPayload(store, "a")).toEqual({ revision: 2, payload: 2 });
  });

  it("removes both files of a flow; lists it by the later of their modification times", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 2);
    const old = new Date(Date.now() - 86_400_000);
    utimesSync(snapshotOf("f1"), old, old);
    const [info] = await store.list();
    expect(info?.modifiedMs).toBe(statSync(journalOf("f1")).mtimeMs);
    expect(await store.remove("f1")).toBe(true);
    expect(existsSync(snapshotOf("f1")) || existsSync(journalOf("f1"))).toBe(false);
  });

  it("removes a journal without a snapshot as a leftover once it is old", async () => {
    mkdirSync(flows, { recursive: true });
    writeFileSync(journalOf("gone"), encodeFrame('{"revision": 2, "status": "running"}'));
    const store = new FileFlowStore(home);
    expect(await store.read("gone")).toBeNull();
    expect(await store.list()).toEqual([]);
    expect(await store.removeLeftovers()).toBe(0); // young: it may belong to a commit in progress
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(journalOf("gone"), old, old);
    expect(await store.removeLeftovers()).toBe(1);
    expect(existsSync(journalOf("gone"))).toBe(false);
  });

  it("refuses a delta write to a flow pruned meanwhile instead of writing it again", async () => {
    const store = new FileFlowStore(home);
    await commitUpTo(store, "f1", 2);
    rmSync(snapshotOf("f1"));
    rmSync(journalOf("f1"));
    await expect(store.commit({ writes: [payloadWrite("f1", 2, 3)], deletes: [] })).rejects.toThrow(
      "Flow 'f1' was removed by another process; the call was not applied",
    );
    expect(existsSync(snapshotOf("f1"))).toBe(false);
    expect(existsSync(journalOf("f1"))).toBe(false);
  });

  it("writes full-text writes (no delta) as snapshots", async () => {
    const store = new FileFlowStore(home);
    await store.commit({ writes: [textWrite("f1", flowText("f1", 1), 0)], deletes: [] });
    await store.commit({ writes: [textWrite("f1", flowText("f1", 2, "b"), 1)], deletes: [] });
    expect(readFileSync(snapshotOf("f1"), "utf8")).toBe(flowText("f1", 2, "b"));
    expect(existsSync(journalOf("f1"))).toBe(false);
  });
});
