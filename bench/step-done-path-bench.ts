// What the MCP layer adds to `stratum_step_done`, the hottest call: the request line through the
// server's own LineTransport and createMcpServer (in process, over in-memory streams, so no pipe
// or process switch is measured) to the answer line, against `api.stepDone` on the same kind of
// engine, in the same rounds. Both engines use a journaled store in memory (deltas kept as the
// file store appends them, no disk), so neither the durable write (which dominates over stdio,
// see bench/mcp-bench.ts) nor re-encoding the whole flow hides the layer's parsing, argument
// checks and serialisation. Two result sizes: a typical ~60-byte result and a ~12 KB one (100
// items), where per-byte work shows. One round = plan of a ten-step flow, then its ten step_done
// calls, each timed on its own; rounds alternate which side goes first. Medians over all calls.

import { EventEmitter } from "node:events";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeHost } from "../host/compose";
import type { StratumApi } from "../interpreter/api";
import { batchFlowIds, checkRevisions } from "../interpreter/store/batch";
import type { ChangeToken, FlowStore, StoreBatch, StoredFlow } from "../interpreter/store/store";
import { wireToPlain } from "../interpreter/wire/encode";
import { LineTransport } from "../mcp/line-transport";
import { createMcpServer, screenRequest } from "../mcp/server";
import { fromJsonValue } from "../stdlib/values/json";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const ROUNDS = 150;
const WARMUP = 15;
const STEPS = 10;

const SPEC = `version: "0.2"
contracts:
  Progress:
    done: {type: boolean}
    note: {type: string}
    score: {type: number}
functions:
  work:
    mode: infer
    intent: "Carry out one unit of the work and say how it went"
    input:
      topic: {type: string}
    output: Progress
    ensure:
      - "result.done"
      - "len(result.note) > 0 and 0 <= result.score <= 1"
flows:
  main:
    input:
      topic: {type: string}
    steps:
${Array.from(
  { length: STEPS },
  (_, i) =>
    `      - id: s${i}\n        function: work\n        inputs:\n          topic: $.input.topic` +
    (i === 0 ? "" : `\n        depends_on: [s${i - 1}]`),
).join("\n")}
`;

const INPUTS = { topic: "durable agent workflows" };
const SMALL = { done: true, note: "unit finished, tests pass", score: 0.75 };
const LARGE = {
  ...SMALL,
  items: Array.from({ length: 100 }, (_, i) => ({
    file: `src/module-${i}/index.ts`,
    lines: [i, i + 40],
    weight: 1.0,
    ok: i % 7 !== 0,
    note: "checked against the contract",
  })),
};

type Result = Record<string, unknown>;

/**
 * A journaled store in memory: a new or finished flow's text, else the commit's delta appended,
 * as the file store does below its snapshot threshold (without files, locks or fsync).
 */
export class JournalInMemory implements FlowStore {
  private readonly flows = new Map<string, { text: string; deltas: string[]; revision: number }>();

  async read(flowId: string): Promise<StoredFlow | null> {
    const f = this.flows.get(flowId);
    return f === undefined ? null : { ...f, deltas: [...f.deltas], token: this.tokenOf(flowId) };
  }

  async token(flowId: string): Promise<ChangeToken | null> {
    return this.flows.has(flowId) ? this.tokenOf(flowId) : null;
  }

  async commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    batchFlowIds(batch);
    checkRevisions(batch, (id) => this.flows.get(id)?.revision ?? null);
    const tokens = new Map<string, ChangeToken>();
    for (const w of batch.writes) {
      const known = this.flows.get(w.flowId);
      const revision = w.expectedRevision + 1;
      if (known !== undefined && w.delta !== null && !w.finished) {
        known.deltas.push(w.delta);
        known.revision = revision;
      } else {
        this.flows.set(w.flowId, { text: w.text(), deltas: [], revision });
      }
      tokens.set(w.flowId, this.tokenOf(w.flowId));
    }
    for (const d of batch.deletes) this.flows.delete(d.flowId);
    return tokens;
  }

  async list(): Promise<readonly { flowId: string; modifiedMs: number }[]> {
    return [...this.flows.keys()].map((flowId) => ({ flowId, modifiedMs: 0 }));
  }

  async remove(flowId: string): Promise<boolean> {
    return this.flows.delete(flowId);
  }

  private tokenOf(flowId: string): ChangeToken {
    return `${flowId}:${this.flows.get(flowId)?.revision ?? 0}`;
  }
}

/** One side: plan, then step_done of one step, answers as plain data. */
interface Side {
  plan(): Promise<Result>;
  stepDone(flowId: string, stepId: string, result: Result): Promise<Result>;
}

function apiSide(api: StratumApi): Side {
  const plain = (r: unknown) => wireToPlain(r as never) as Result;
  return {
    plan: async () => plain(await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue(INPUTS) })),
    stepDone: async (flow_id, step_id, result) =>
      plain(await api.stepDone({ flow_id, step_id, result: fromJsonValue(result) })),
  };
}

/** The server's transport and server over in-memory streams: one request line in, one answer line out. */
async function serverSide(api: StratumApi): Promise<{ side: Side; close(): Promise<void> }> {
  const input = new EventEmitter();
  const waiting = new Map<number, (line: string) => void>();
  const output = {
    write(chunk: string): boolean {
      for (const line of chunk.split("\n")) {
        if (line === "") continue;
        const id = (JSON.parse(line) as { id: number }).id;
        waiting.get(id)?.(line);
        waiting.delete(id);
      }
      return true;
    },
    once(): unknown {
      return undefined;
    },
  };
  const transport = new LineTransport(
    input as unknown as ConstructorParameters<typeof LineTransport>[0],
    output,
    screenRequest,
  );
  const server = createMcpServer({ api, version: "0.0.0", toolArguments: (r) => transport.toolArguments(r) });
  await server.connect(transport);
  let nextId = 0;
  const call = (name: string, args: Result): Promise<Result> => {
    const id = ++nextId;
    const answered = new Promise<string>((resolve) => waiting.set(id, resolve));
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    // As a client's pipe delivers it: bytes, ended by a line break.
    input.emit("data", Buffer.from(`${line}\n`));
    return answered.then((text) => {
      const answer = JSON.parse(text) as { result: { content: { text: string }[] } };
      return JSON.parse(answer.result.content[0]?.text ?? "null") as Result;
    });
  };
  return {
    side: {
      plan: () => call("stratum_plan", { spec: SPEC, flow: "main", inputs: INPUTS }),
      stepDone: (flow_id, step_id, result) => call("stratum_step_done", { flow_id, step_id, result }),
    },
    close: () => server.close(),
  };
}

/** The step_done times (ns) of one round: plan, then the ten calls that finish the flow. */
async function round(side: Side, result: Result): Promise<number[]> {
  const flowId = String((await side.plan()).flow_id);
  const times: number[] = [];
  let last = "";
  for (let i = 0; i < STEPS; i++) {
    const t0 = process.hrtime.bigint();
    last = String((await side.stepDone(flowId, `s${i}`, result)).status);
    times.push(Number(process.hrtime.bigint() - t0));
  }
  if (last !== "complete") throw new Error(`step_done path bench: the flow ended '${last}', not 'complete'`);
  return times;
}

export async function benchStepDonePath(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), "stratumc-step-done-bench-"));
  const cwd = realpathSync(root);
  const server = await serverSide(engineOver(new JournalInMemory(), cwd));
  try {
    const sides = { mcp: server.side, api: apiSide(engineOver(new JournalInMemory(), cwd)) };
    const sizes = { small: SMALL, large: LARGE };
    const times = {
      small: { mcp: [] as number[], api: [] as number[] },
      large: { mcp: [] as number[], api: [] as number[] },
    };
    for (let r = -WARMUP; r < ROUNDS; r++) {
      for (const size of ["small", "large"] as const) {
        const order = r % 2 === 0 ? (["mcp", "api"] as const) : (["api", "mcp"] as const);
        for (const which of order) {
          const t = await round(sides[which], sizes[size]);
          if (r >= 0) times[size][which].push(...t);
        }
      }
    }
    const row = (size: "small" | "large", label: string): Row => {
      const mcp = median(times[size].mcp) / 1e6;
      const api = median(times[size].api) / 1e6;
      return { metric: label, median: mcp, baseline: api, ratio: mcp / api, target: null };
    };
    return [
      row(
        "small",
        "MCP step_done path ms, 60 B result (in process, journal in memory; baseline: api.stepDone)",
      ),
      row(
        "large",
        "MCP step_done path ms, 12 KB result (in process, journal in memory; baseline: api.stepDone)",
      ),
    ];
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The engine as the other in-process benchmarks build it, over a given store. */
function engineOver(store: FlowStore, cwd: string): StratumApi {
  return composeHost({ cwd, env: {}, store: { store, where: "memory" } }).api();
}
