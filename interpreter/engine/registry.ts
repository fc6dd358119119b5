// The in-memory registry of flows (runtime.md §1.1) and how it stays in step with the store
// (§14.3–14.4): a flow is used from memory only while the store's change token is the one this
// process last read or wrote; otherwise it is reloaded, keeping the in-process timing.
import type { CheckedSpec } from "../../checker/ir/types";
import type { Clock } from "../flow/ports";
import type { FlowRun } from "../flow/run";
import { flowFileProblem } from "../store/codec";
import { isSafeFlowId } from "../store/flow-id";
import { type ChangeToken, FlowCorruptError, type FlowStore } from "../store/store";
import { restoreRun } from "./restore";

export interface RegistryEntry {
  /** The committed run: never mutated (calls work on copies). */
  readonly run: FlowRun;
  readonly token: ChangeToken;
}

export class Registry {
  readonly entries = new Map<string, RegistryEntry>();

  constructor(
    private readonly store: FlowStore,
    private readonly compile: (specText: string) => CheckedSpec | null,
    private readonly clock: Clock,
  ) {}

  /**
   * The current committed run of a flow, reloaded or restored from the store as needed; null when
   * unknown. Throws FlowCorruptError when the stored text cannot be decoded.
   */
  async load(flowId: string): Promise<FlowRun | null> {
    if (!isSafeFlowId(flowId)) return null;
    const entry = this.entries.get(flowId);
    if (entry !== undefined) {
      const token = await this.store.token(flowId);
      if (token === entry.token) return entry.run;
      // Our choice: a file that disappeared (pruned or deleted by another process) means the
      // flow is gone; a file that changed is reloaded.
      this.entries.delete(flowId);
      if (token === null) return null;
    }
    const stored = await this.store.read(flowId);
    if (stored === null) return null;
    const restored = restoreRun(stored.text, this.compile, this.clock);
    if (restored === null) {
      const problem = flowFileProblem(stored.text);
      if (problem !== null)
        throw new FlowCorruptError(flowId, this.store.locate?.(flowId) ?? flowId, problem);
      return null;
    }
    // A reload inside a running process keeps that process's dispatch times and start time.
    const run = entry === undefined ? restored : { ...restored, timing: entry.run.timing };
    this.entries.set(flowId, { run, token: stored.token });
    return run;
  }

  /** The flow and the chain of its active children (sub-flow steps use them synchronously). */
  async loadChain(flowId: string): Promise<Map<string, FlowRun>> {
    const out = new Map<string, FlowRun>();
    let id: string | null = flowId;
    while (id !== null && !out.has(id)) {
      const run = await this.load(id);
      if (run === null) break;
      out.set(id, run);
      id = run.state.active_child_flow_id;
    }
    return out;
  }

  set(flowId: string, entry: RegistryEntry): void {
    this.entries.set(flowId, entry);
  }

  drop(flowId: string): void {
    this.entries.delete(flowId);
  }

  /** Forgets everything (a simulated restart in tests). */
  clear(): void {
    this.entries.clear();
  }
}
