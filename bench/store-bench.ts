// The cost of one durable flow commit (docs/reference/runtime.md §14.3: lock file, revision check, temporary file
// flushed to disk, rename, directory flush, unlock) against a bare fs.writeFileSync of the same
// bytes (what the reference does: write in place, no flush), measured in interleaved pairs in the
// same run, in a temporary STRATUM_HOME on the machine's temp file system.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileFlowStore } from "../host/file-store/file-store";
import type { FlowState, StepRecord } from "../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../interpreter/store/codec";
import { textWrite } from "../interpreter/store/store";
import { makeDict } from "../stdlib/values/dict";
import { PyFloat } from "../stdlib/values/value";
import { TYPICAL_SPEC } from "./cold-bench";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const ROUNDS = 200;
const WARMUP = 20;
const FLOW_ID = "0b7e2f44-1111-4222-8333-944455556666";

export interface StoreBench {
  readonly rows: Row[];
  /** Size of the committed flow text in bytes. */
  readonly flowBytes: number;
  readonly rounds: number;
}

/** A flow three steps into the typical spec: outputs, records and attempts of a real run. */
function typicalFlow(rawSpec: string, revision: number): FlowState {
  const empty = decodeFlowState("{}");
  if (!empty.ok) throw new Error(empty.reason);
  const steps = ["research", "outline", "draft"];
  const record = (stepId: string, i: number): StepRecord => ({
    step_id: stepId,
    function_name: stepId,
    attempts: 1,
    duration_ms: 1200 + i,
    type: "step",
    round: 0,
    round_start_step_id: null,
    agent: null,
    step_mode: "function",
    child_flow_id: null,
  });
  return {
    ...empty.state,
    flow_id: FLOW_ID,
    flow_name: "main",
    raw_spec: rawSpec,
    inputs: makeDict([
      ["topic", "Durable state for agent workflows"],
      ["audience", "engineers"],
    ]),
    step_outputs: new Map(
      steps.map((id, i) => [
        id,
        makeDict([
          ["summary", `Result of ${id}: ${"a sentence of findings. ".repeat(2)}`],
          ["score", new PyFloat(0.8 + i / 100)],
          ["files_changed", [`src/${id}.ts`, `test/${id}.test.ts`]],
        ]),
      ]),
    ),
    records: steps.map(record),
    attempts: new Map(steps.map((id) => [id, 1])),
    current_idx: steps.length,
    cwd: "/home/user/project",
    revision,
    status: "running",
  };
}

function nowNs(): bigint {
  return process.hrtime.bigint();
}

export async function benchStore(repoDir: string): Promise<StoreBench> {
  const rawSpec = readFileSync(join(repoDir, TYPICAL_SPEC), "utf8");
  // Texts are encoded before timing: the commit alone is measured.
  const texts = Array.from({ length: WARMUP + ROUNDS }, (_, i) =>
    encodeFlowState(typicalFlow(rawSpec, i + 1)),
  );
  const home = mkdtempSync(join(tmpdir(), "stratumc-store-bench-"));
  try {
    const store = new FileFlowStore(home);
    const barePath = join(home, "bare.json");
    const commitMs: number[] = [];
    const bareMs: number[] = [];
    const commit = async (i: number) => {
      const start = nowNs();
      await store.commit({
        writes: [textWrite(FLOW_ID, texts[i]!, i)],
        deletes: [],
      });
      return Number(nowNs() - start) / 1e6;
    };
    const bare = (i: number) => {
      const start = nowNs();
      writeFileSync(barePath, texts[i]!);
      return Number(nowNs() - start) / 1e6;
    };
    for (let i = 0; i < texts.length; i++) {
      // Alternate which side goes first, so both see the same machine state.
      let c: number;
      let b: number;
      if (i % 2 === 0) {
        c = await commit(i);
        b = bare(i);
      } else {
        b = bare(i);
        c = await commit(i);
      }
      if (i >= WARMUP) {
        commitMs.push(c);
        bareMs.push(b);
      }
    }
    const flowBytes = Buffer.byteLength(texts[0]!);
    const commitMedian = median(commitMs);
    const bareMedian = median(bareMs);
    return {
      rows: [
        {
          metric: `store commit ms: durable commit of a ${(flowBytes / 1024).toFixed(1)} KB flow (baseline: fs.writeFileSync)`,
          median: commitMedian,
          baseline: bareMedian,
          ratio: median(commitMs.map((c, i) => c / bareMs[i]!)),
          target: null,
        },
      ],
      flowBytes,
      rounds: ROUNDS,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
