// What spreading flows over several databases (host/pg-store/partitioned-store.ts) costs a store
// operation, in process against a real temporary PostgreSQL with fsync on (test/support/postgres.ts):
// the same operations on one database (PgFlowStore) and on three databases of the same server
// (PartitionedFlowStore): a new flow, a read, a change-token read, the list of all flows, and a
// commit of two new flows — in one database, and (three databases only) in two. 20 warm-up
// operations, then 300 (50 for the list); p50 and mean wall time, and the bench process's CPU per
// operation. One server holds all three databases, so this weighs the routing and the commit
// across databases, not the gain of more database machines.
import { performance } from "node:perf_hooks";
import { PartitionedFlowStore } from "../host/pg-store/partitioned-store";
import { PgFlowStore } from "../host/pg-store/pg-store";
import type { FlowStore } from "../interpreter/store/store";
import { textWrite } from "../interpreter/store/store";
import { flowText } from "../test/interpreter/store/flow-text";
import { startPostgres } from "../test/support/postgres";
import { median } from "./lib/stats";

const OPERATIONS = 300;
const LIST_OPERATIONS = 50;
const WARMUP = 20;

async function time(label: string, n: number, body: (k: number) => Promise<unknown>): Promise<string> {
  for (let k = 0; k < WARMUP; k++) await body(-1 - k);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const each: number[] = [];
  for (let k = 0; k < n; k++) {
    const start = performance.now();
    await body(k);
    each.push(performance.now() - start);
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / n;
  return `${label.padEnd(48)} p50 ${median(each).toFixed(2).padStart(7)} ms  mean ${(wall / n).toFixed(2).padStart(7)} ms  cpu ${cpuMs.toFixed(2)} ms/op\n`;
}

/** Ids whose databases are apart (or together) in `store`. */
function pairs(store: PartitionedFlowStore, apart: boolean, prefix: string): [string, string][] {
  const out: [string, string][] = [];
  for (let k = 0; out.length < OPERATIONS + WARMUP; k++) {
    const a = `${prefix}a${k}`;
    const b = `${prefix}b${k}`;
    if ((store.partitionOf(a) !== store.partitionOf(b)) === apart) out.push([a, b]);
  }
  return out;
}

async function measure(
  name: string,
  store: FlowStore,
  partitioned: PartitionedFlowStore | null,
): Promise<string> {
  const revisions = new Map<string, number>();
  const commit = async (ids: readonly string[]) => {
    const writes = ids.map((id) => {
      const r = revisions.get(id) ?? 0;
      return textWrite(id, flowText(id, r + 1, `p${r}`), r);
    });
    await store.commit({ writes, deletes: [] });
    for (const id of ids) revisions.set(id, (revisions.get(id) ?? 0) + 1);
  };
  const id = (k: number) => `n${Math.abs(k) % OPERATIONS}`;
  let out = "";
  out += await time(`${name}: new flow`, OPERATIONS, (k) => commit([`n${k}`]));
  out += await time(`${name}: read`, OPERATIONS, (k) => store.read(id(k)));
  out += await time(`${name}: change token`, OPERATIONS, (k) => store.token(id(k)));
  out += await time(`${name}: list of ${OPERATIONS + WARMUP} flows`, LIST_OPERATIONS, () => store.list());
  if (partitioned === null) {
    let i = 0;
    out += await time(`${name}: two new flows`, OPERATIONS, () => commit([`qa${i}`, `qb${i++}`]));
  } else {
    const together = pairs(partitioned, false, "s");
    const apart = pairs(partitioned, true, "x");
    let i = 0;
    out += await time(`${name}: two new flows, one database`, OPERATIONS, () => commit(together[i++]!));
    i = 0;
    out += await time(`${name}: two new flows, two databases`, OPERATIONS, () => commit(apart[i++]!));
  }
  return out;
}

export async function benchPgPartition(): Promise<string> {
  const server = await startPostgres({ durable: true });
  try {
    const one = new PgFlowStore(server.createDatabase("bench_one"));
    const three = new PartitionedFlowStore(
      [1, 2, 3].map(() => server.createDatabase("bench_part")).join(" "),
    );
    try {
      await one.open();
      await three.open();
      return (await measure("one database", one, null)) + (await measure("three databases", three, three));
    } finally {
      await one.close();
      await three.close();
    }
  } finally {
    server.destroy();
  }
}
