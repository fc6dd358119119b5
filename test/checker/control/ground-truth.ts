// Ground truth for the control model: the real interpreter (createApi over a MemoryStore, as the
// fuzzer's engine builds it) driven through every choice — the agent's passing or failing result,
// each gate outcome, and which non-constant skip_if hold during a call — explored breadth first
// over the flow's persisted state. Two flow files with the same position, round, attempts and
// terminal status behave alike from there on (control-only specs: results and skip_if read
// nothing else), so the search forks the store at each such state once.
import { createApi, MemoryStore, type StratumApi } from "../../../interpreter/index";
import type { Response } from "../../../interpreter/wire/wire";
import type { HostFileSystem } from "../../../stdlib/files";
import { fromJsonValue } from "../../../stdlib/values/json";

export interface Truth {
  readonly completes: boolean;
  readonly optionToComplete: boolean;
  /** Steps some run dispatches (to the agent, to a human, or to a gate policy). */
  readonly dispatched: ReadonlySet<string>;
  readonly states: number;
}

const COMPLETE = "#complete";
const OTHER_END = "#end";

interface Choice {
  /** The non-constant skip_if files present during the call. */
  readonly files: readonly string[];
  readonly act: "pass" | "fail" | "approve" | "revise" | "kill";
}

/** The steps whose skip_if reads a file; the files are named after the steps. */
export async function groundTruth(
  spec: string,
  fileSteps: readonly string[],
  maxStates = 400,
): Promise<Truth | null> {
  const subsets = subsetsOf(fileSteps);
  const present = new Set<string>();
  const fs: HostFileSystem = {
    realpath: (p) => p,
    stat: (p) => (present.has(p.split("/").pop() ?? "") ? { isFile: true, size: 0 } : null),
    readFile: () => new Uint8Array(),
  };
  const engine = (store: MemoryStore): StratumApi =>
    createApi({
      store,
      clock: { wallMs: () => 0, monoMs: () => 0 },
      ids: { newFlowId: () => "00000000-0000-4000-8000-000000000001" },
      cwd: "/",
      files: () => ({ root: "/", fs }),
      workspace: {
        readDir: () => ({ ok: false, reason: "none" }),
        isDirectory: () => false,
        readFile: () => ({ ok: false, reason: "none" }),
        writeFile: () => ({ ok: false, reason: "none" }),
        realpath: (path) => path,
      },
    });
  const flowId = "00000000-0000-4000-8000-000000000001";
  const dispatched = new Set<string>();
  const killedKeys = new Set<string>();
  const edges = new Map<string, Set<string>>();
  const texts = new Map<string, { text: string; response: Response }>();
  const queue: string[] = [];
  const record = async (store: MemoryStore, response: Response): Promise<string> => {
    const status = String(response.status);
    const stored = await store.read(flowId);
    if (stored === null) throw new Error("no flow");
    const state = JSON.parse(stored.text) as FlowFile;
    noteDispatched(state, dispatched);
    if (status === "complete") return COMPLETE;
    if (status === "killed" || (status === "error" && response.error_type === "retries_exhausted"))
      return OTHER_END;
    if (status === "error") throw new Error(`unexpected response ${JSON.stringify(response)}`);
    if (typeof response.step_id === "string") dispatched.add(response.step_id);
    const key = JSON.stringify([state.current_idx, state.round, state.attempts, state.terminal_status]);
    if (state.terminal_status === "killed") killedKeys.add(key);
    if (!texts.has(key)) {
      texts.set(key, { text: stored.text, response });
      queue.push(key);
    }
    return key;
  };
  const starts = new Set<string>();
  for (const files of subsets) {
    const store = new MemoryStore();
    setFiles(present, files);
    starts.add(await record(store, await engine(store).plan({ spec, flow: "f" })));
  }
  // Every other call runs on one engine: the flow file of the state to expand is written back
  // over the flow (with the next revision), and the engine reloads it because its token moved.
  const work = new MemoryStore();
  const api = engine(work);
  for (let i = 0; i < queue.length; i++) {
    if (texts.size > maxStates) return null;
    const key = queue[i]!;
    const { text, response } = texts.get(key)!;
    const out = new Set<string>();
    // A retry that skipped to a gate answers with the failure status and the gate's payload.
    const gate = response.status === "await_gate" || "on_approve" in response;
    const acts: Choice["act"][] = gate ? ["approve", "revise", "kill"] : ["pass", "fail"];
    for (const files of subsets) {
      for (const act of acts) {
        const current = (await work.read(flowId))?.revision ?? 0;
        await work.commit({
          writes: [
            {
              flowId,
              text: () => withRevision(text, current + 1),
              delta: null,
              finished: false,
              expectedRevision: current,
              revision: current + 1,
            },
          ],
          deletes: [],
        });
        setFiles(present, files);
        const stepId = String(response.step_id);
        const r = gate
          ? await api.gateResolve({
              flow_id: flowId,
              step_id: stepId,
              outcome: act,
              rationale: "r",
              resolved_by: "human",
            })
          : await api.stepDone({
              flow_id: flowId,
              step_id: stepId,
              result: fromJsonValue({ ok: act === "pass" }),
            });
        if (r.status === "error" && r.error_type === "max_rounds_exceeded") continue;
        out.add(await record(work, r));
      }
    }
    edges.set(key, out);
  }
  const good = new Set<string>([COMPLETE]);
  let changed = true;
  while (changed) {
    changed = false;
    for (const [k, out] of edges) {
      if (!good.has(k) && [...out].some((t) => good.has(t))) {
        good.add(k);
        changed = true;
      }
    }
  }
  return {
    completes: [...starts].some((s) => good.has(s)),
    // A run whose kill was routed on by on_kill is bound to end killed: a declared outcome.
    optionToComplete: [...edges.keys()].every((k) => good.has(k) || killedKeys.has(k)),
    dispatched,
    states: texts.size,
  };
}

interface FlowFile {
  readonly current_idx: number;
  readonly round: number;
  readonly attempts: Record<string, number>;
  readonly terminal_status: string | null;
  readonly records: readonly RecordEntry[];
  readonly rounds: readonly (readonly RecordEntry[])[];
}

interface RecordEntry {
  readonly type?: string;
  readonly step_id?: string;
  readonly effective_policy?: string;
}

/** Steps with a step or gate record, or approved by a gate policy (not by skip_if). */
function noteDispatched(state: FlowFile, into: Set<string>): void {
  for (const r of [...state.records, ...state.rounds.flat()]) {
    if (r.step_id === undefined || r.type === "skip") continue;
    if (r.type === "policy" && r.effective_policy === "skip_if") continue;
    into.add(r.step_id);
  }
}

/** The flow file with another revision in its tail (interpreter/store/revision.ts). */
function withRevision(text: string, revision: number): string {
  return text.replace(
    /\n {2}"revision": \d+,(\n {2}"status": "[a-z_]+"\n\}$)/,
    `\n  "revision": ${revision},$1`,
  );
}

function setFiles(present: Set<string>, files: readonly string[]): void {
  present.clear();
  for (const f of files) present.add(f);
}

function subsetsOf(items: readonly string[]): string[][] {
  let out: string[][] = [[]];
  for (const item of items) out = [...out, ...out.map((s) => [...s, item])];
  return out;
}
