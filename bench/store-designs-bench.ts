// What one committed call costs in each candidate store design, for a flow whose state is
// the size it has at step 10, 1,000 and 10,000, against the physical floor (one small-file write +
// fsync), all measured in interleaved rounds of the same run (every operation once per round, the
// order rotated), in a temporary directory on the machine's temp file system. Medians and p99.
//
//   (a) before the journal: FileFlowStore.commit of the whole flow text (a write without a delta) (lock, revision read, temp + fsync +
//       rename + directory fsync, unlock);
//   (b) a journal per flow: lock, stat of the snapshot, size check of `<id>.journal` (the O(1)
//       revision check), append of the call's delta entry (journal.ts framing) + fdatasync — and
//       the same with fsync — unlock; the journal already holds one entry per step (no snapshot);
//   (c) one journal per store: the same append to one `store.journal` under one store lock;
//   (d) the baseline: write of the delta's bytes to a small file + fsync (and, for context, with
//       fdatasync; and a bare append + fdatasync: the physical floor of (b) without lock or checks);
//   (e) an embedded database, when STRATUMC_BENCH_SQLITE_WASM names the directory of an installed
//       `node-sqlite3-wasm` (SQLite compiled to WebAssembly, no native build): one transaction per
//       call (revision read, entry insert, revision update), synchronous=FULL.
// Context rows (CPU, one round in four): encodeFlowState and cloneState of the whole state, which
// the engine did on every call before the journal store (it now encodes only for a snapshot and
// makes O(1) working copies; bench/durable-call-bench.ts measures the calls themselves).
import * as fs from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileFlowStore } from "../host/file-store/file-store";
import { appendEntry, encodeFrame } from "../host/file-store/journal";
import { acquireLock, DEFAULT_LOCK_TIMINGS, releaseLock } from "../host/file-store/lock";
import type { FlowState, StepRecord } from "../interpreter/base/flow-state";
import { cloneState } from "../interpreter/flow/clone";
import { decodeFlowState, encodeFlowState } from "../interpreter/store/codec";
import { textWrite } from "../interpreter/store/store";
import { makeDict } from "../stdlib/values/dict";
import { PyFloat, type PyValue } from "../stdlib/values/value";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const STEP_COUNTS = [10, 1000, 10_000] as const;

export interface StoreDesignsOptions {
  readonly rounds?: number;
  readonly warmup?: number;
}

/** One step's output: ~200 bytes of realistic result data. */
function stepOutput(i: number): PyValue {
  return makeDict([
    ["summary", `Step ${i}: checked the module, two findings fixed, tests green.`],
    ["score", new PyFloat(0.75 + (i % 20) / 100)],
    ["files_changed", [`src/module_${i % 97}.ts`, `test/module_${i % 97}.test.ts`]],
    ["ok", true],
  ]);
}

function stepRecord(i: number): StepRecord {
  return {
    step_id: `step_${i}`,
    function_name: `work_${i % 7}`,
    attempts: 1,
    duration_ms: 1200 + (i % 300),
    type: "step",
    round: 0,
    round_start_step_id: null,
    agent: null,
    step_mode: "function",
    child_flow_id: null,
  };
}

/** ~3 KB of spec text, stored once in the flow. */
function specText(): string {
  const lines = ['version: "0.2"', "contracts:", "  Result:", "    summary: {type: string}"];
  for (let i = 0; lines.join("\n").length < 3000; i++) {
    lines.push(`  step_${i}:`, `    function: work_${i % 7}`, `    inputs: {topic: "$.input.topic"}`);
  }
  return lines.join("\n");
}

/** The flow state after `steps` steps: one record, output and attempt per step. */
function flowAtStep(steps: number, flowId: string): FlowState {
  const empty = decodeFlowState("{}");
  if (!empty.ok) throw new Error(empty.reason);
  return {
    ...empty.state,
    flow_id: flowId,
    flow_name: "main",
    raw_spec: specText(),
    inputs: makeDict([["topic", "Durable state for agent workflows"]]),
    step_outputs: new Map(Array.from({ length: steps }, (_, i) => [`step_${i}`, stepOutput(i)])),
    records: Array.from({ length: steps }, (_, i) => stepRecord(i)),
    attempts: new Map(Array.from({ length: steps }, (_, i) => [`step_${i}`, 1])),
    current_idx: steps,
    cwd: "/home/user/project",
    revision: 1,
    status: "running",
  };
}

/** The delta entry of one `step_done` at step `i`: what the call changed, per top-level key. */
function deltaEntry(i: number, revision: number, flowId: string | null): string {
  return JSON.stringify({
    ...(flowId === null ? {} : { flow: flowId }),
    revision,
    set: { current_idx: i + 1, status: "running" },
    append: { records: [stepRecord(i)] },
    put: {
      step_outputs: {
        [`step_${i}`]: {
          summary: `Step ${i}: checked the module, two findings fixed, tests green.`,
          score: 0.75,
          files_changed: [`src/module_${i % 97}.ts`, `test/module_${i % 97}.test.ts`],
          ok: true,
        },
      },
      attempts: { [`step_${i}`]: 1 },
    },
  });
}

/** The part of node-sqlite3-wasm's API used here. */
interface WasmDatabase {
  exec(sql: string): void;
  run(sql: string, values?: readonly (string | number)[]): unknown;
  get(sql: string, values?: readonly (string | number)[]): Record<string, unknown> | null;
  close(): void;
}
type WasmDatabaseClass = new (path: string) => WasmDatabase;

function loadSqliteWasm(): WasmDatabaseClass | null {
  const dir = process.env.STRATUMC_BENCH_SQLITE_WASM;
  if (dir === undefined || dir === "") return null;
  const mod: unknown = createRequire(join(dir, "package.json"))(dir);
  if (typeof mod !== "object" || mod === null || !("Database" in mod)) return null;
  return mod.Database as WasmDatabaseClass;
}

interface Op {
  readonly name: string;
  readonly steps: number | null;
  readonly run: (round: number) => Promise<void> | void;
  readonly samples: number[];
  /** Runs in one round out of `every` (the costly CPU context rows). */
  readonly every: number;
}

function p99(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)]!;
}

function writeAndSync(path: string, bytes: Buffer, sync: "data" | "full"): void {
  const fd = fs.openSync(path, "w");
  try {
    fs.writeSync(fd, bytes);
    if (sync === "full") fs.fsyncSync(fd);
    else fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export async function benchStoreDesigns(
  options: StoreDesignsOptions = {},
): Promise<{ rows: Row[]; journalEntryBytes: number; flowBytes: Record<number, number> }> {
  const rounds = options.rounds ?? 60;
  const warmup = options.warmup ?? 5;
  const dir = fs.mkdtempSync(join(tmpdir(), "stratumc-store-designs-"));
  const Sqlite = loadSqliteWasm();
  const dbs: WasmDatabase[] = [];
  try {
    const ops: Op[] = [];
    const add = (
      name: string,
      steps: number | null,
      run: (round: number) => Promise<void> | void,
      every = 1,
    ) => ops.push({ name, steps, run, samples: [], every });
    const store = new FileFlowStore(join(dir, "home"));
    const timings = DEFAULT_LOCK_TIMINGS;
    const journals = join(dir, "journals");
    fs.mkdirSync(journals);
    const entryBytes = Buffer.from(deltaEntry(10_000, 10_001, null), "utf8");
    const flowBytes: Record<number, number> = {};

    for (const steps of STEP_COUNTS) {
      const flowId = `flow-${steps}`;
      const state = flowAtStep(steps, flowId);
      const text = encodeFlowState(state);
      flowBytes[steps] = Buffer.byteLength(text, "utf8");
      const marker = '"revision": 1,\n  "status"';
      if (!text.includes(marker)) throw new Error("revision marker not found in the flow text");
      const textAt = (revision: number) => text.replace(marker, `"revision": ${revision},\n  "status"`);
      await store.commit({ writes: [textWrite(flowId, textAt(1), 0)], deletes: [] });
      let revision = 1;
      add("(a) full commit (before the journal)", steps, async () => {
        await store.commit({
          writes: [textWrite(flowId, textAt(revision + 1), revision)],
          deletes: [],
        });
        revision += 1;
      });

      // (b) per-flow journal with one entry per step so far; (c) one store journal of the same length.
      for (const [design, sync] of [
        ["(b) per-flow journal, fdatasync", "data"],
        ["(b) per-flow journal, fsync", "full"],
        ["(c) one journal per store, fdatasync", "data"],
      ] as const) {
        const perStore = design.startsWith("(c)");
        const name = perStore ? `store-${steps}.journal` : `${flowId}-${sync}.journal`;
        const path = join(journals, name);
        const snapshot = join(journals, `${flowId}.json`);
        fs.writeFileSync(snapshot, "{}");
        const prefill: Buffer[] = [];
        for (let i = 0; i < steps; i++) {
          prefill.push(encodeFrame(deltaEntry(i, i + 2, perStore ? `flow-${i % 8}` : null)));
        }
        fs.writeFileSync(path, Buffer.concat(prefill));
        let size = fs.statSync(path).size;
        let at = steps;
        const lockPath = perStore ? join(journals, `store-${steps}.lock`) : `${path}.lock`;
        add(design, steps, async () => {
          const lock = await acquireLock(lockPath, timings);
          if (lock === null) throw new Error("lock not taken");
          try {
            fs.statSync(snapshot, { bigint: true }); // the snapshot's token: unchanged
            const payload = deltaEntry(at, at + 2, perStore ? flowId : null);
            size = appendEntry(path, payload, { expectedSize: size, sync }).end;
            at += 1;
          } finally {
            releaseLock(lock);
          }
        });
      }

      if (Sqlite !== null) {
        const db = new Sqlite(join(dir, `flows-${steps}.db`));
        dbs.push(db);
        db.exec("PRAGMA synchronous=FULL");
        db.exec(
          "CREATE TABLE flows (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, snapshot TEXT NOT NULL);" +
            "CREATE TABLE entries (flow TEXT NOT NULL, revision INTEGER NOT NULL, delta TEXT NOT NULL, PRIMARY KEY (flow, revision));",
        );
        db.exec("BEGIN");
        db.run("INSERT INTO flows VALUES (?, ?, ?)", [flowId, steps + 1, "{}"]);
        for (let i = 0; i < steps; i++)
          db.run("INSERT INTO entries VALUES (?, ?, ?)", [flowId, i + 2, deltaEntry(i, i + 2, null)]);
        db.exec("COMMIT");
        let at = steps;
        add("(e) SQLite (wasm), one transaction", steps, () => {
          db.exec("BEGIN IMMEDIATE");
          try {
            const row = db.get("SELECT revision FROM flows WHERE id = ?", [flowId]);
            const revision = Number(row?.revision);
            db.run("INSERT INTO entries VALUES (?, ?, ?)", [
              flowId,
              revision + 1,
              deltaEntry(at, revision + 1, null),
            ]);
            db.run("UPDATE flows SET revision = ? WHERE id = ?", [revision + 1, flowId]);
            db.exec("COMMIT");
          } catch (e) {
            db.exec("ROLLBACK");
            throw e;
          }
          at += 1;
        });
      }

      add("context: encodeFlowState of the whole state (CPU)", steps, () => void encodeFlowState(state), 4);
      add("context: cloneState, the old working copy (CPU)", steps, () => void cloneState(state), 4);
    }
    const small = join(dir, "small.bin");
    add("(d) baseline: small-file write + fsync", null, () => writeAndSync(small, entryBytes, "full"));
    add("(d') small-file write + fdatasync", null, () => writeAndSync(small, entryBytes, "data"));
    const bare = join(dir, "bare.journal");
    add("(d'') bare append + fdatasync (no lock, no check)", null, () => {
      const fd = fs.openSync(bare, "a");
      try {
        fs.writeSync(fd, entryBytes);
        fs.fdatasyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    });

    for (let round = -warmup; round < rounds; round++) {
      const shift = ((round % ops.length) + ops.length) % ops.length;
      for (let k = 0; k < ops.length; k++) {
        const op = ops[(k + shift) % ops.length]!;
        if (round % op.every !== 0) continue;
        const start = process.hrtime.bigint();
        await op.run(round);
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        if (round >= 0) op.samples.push(ms);
      }
    }
    return {
      rows: rowsOf(ops, entryBytes.length, flowBytes),
      journalEntryBytes: entryBytes.length,
      flowBytes,
    };
  } finally {
    for (const db of dbs) {
      try {
        db.close();
      } catch {
        // the directory goes anyway
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function rowsOf(ops: readonly Op[], entryBytes: number, flowBytes: Record<number, number>): Row[] {
  const baseline = ops.find((o) => o.name.startsWith("(d)"))!;
  const base50 = median(baseline.samples);
  const base99 = p99(baseline.samples);
  const rows: Row[] = [];
  const kb = (n: number) => `${(n / 1024).toFixed(n < 10_240 ? 1 : 0)} KB`;
  rows.push({
    metric: `store designs: ${baseline.name} of ${entryBytes} B, ms`,
    median: base50,
    baseline: null,
    ratio: null,
    target: null,
  });
  rows.push({
    metric: `store designs: ${baseline.name}, p99 ms`,
    median: base99,
    baseline: null,
    ratio: null,
    target: null,
  });
  const names = [...new Set(ops.filter((o) => o !== baseline).map((o) => o.name))];
  for (const name of names) {
    const group = ops.filter((o) => o.name === name);
    const context = name.startsWith("context");
    for (const op of group) {
      const where =
        op.steps === null
          ? ""
          : ` at step ${op.steps.toLocaleString("en-US")} (flow ${kb(flowBytes[op.steps]!)})`;
      const m = median(op.samples);
      const q = p99(op.samples);
      rows.push({
        metric: `store designs: ${name}${where}, ms`,
        median: m,
        baseline: context ? null : base50,
        ratio: context ? null : m / base50,
        target: null,
      });
      if (!context) {
        rows.push({
          metric: `store designs: ${name}${where}, p99 ms`,
          median: q,
          baseline: base99,
          ratio: q / base99,
          target: null,
        });
      }
    }
    const first = group.find((o) => o.steps === STEP_COUNTS[0]);
    const last = group.find((o) => o.steps === STEP_COUNTS[STEP_COUNTS.length - 1]);
    if (first !== undefined && last !== undefined) {
      const m10 = median(first.samples);
      const m10k = median(last.samples);
      rows.push({
        metric: `store designs: ${name}, step 10,000 ÷ step 10`,
        median: m10k,
        baseline: m10,
        ratio: m10k / m10,
        target: null,
        ...(name.startsWith("(b) per-flow journal, fdatasync") ? { targetRatio: 1.2 } : {}),
      });
    }
  }
  return rows;
}
