// The engine's transaction path as createApi runs it (registry → EngineTx over working copies →
// the flow tool function → commitTx over a MemoryStore, or a rollback), rebuilt from its exported
// parts so that a test sees what the journal store will see: for every committed call, the
// committed state the call started from (a cloneState copy taken before the call: working copies
// change the committed containers in place), the working state that was committed and the delta
// the transaction gives for it, with both stored texts.

import { nodeFileSystem } from "../../../host/node-fs";
import type { FlowArgs, StratumApi } from "../../../interpreter/api";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { commits, ExecutionFailure } from "../../../interpreter/base/tool-errors";
import { commitTx } from "../../../interpreter/engine/commit";
import { Registry } from "../../../interpreter/engine/registry";
import { SpecCache } from "../../../interpreter/engine/spec-cache";
import { EngineTx, type TxEnvironment } from "../../../interpreter/engine/transaction";
import { audit } from "../../../interpreter/flow/audit";
import { commitCheckpoint, revertCheckpoint } from "../../../interpreter/flow/checkpoints";
import { cloneState } from "../../../interpreter/flow/clone";
import { gateResolve } from "../../../interpreter/flow/gates";
import { iterationAbort, iterationStart } from "../../../interpreter/flow/iterations";
import { iterationReport } from "../../../interpreter/flow/iterations-report";
import { judge } from "../../../interpreter/flow/judge/tool";
import { parallelDone } from "../../../interpreter/flow/parallel-done";
import { parallelAdvance, parallelPoll } from "../../../interpreter/flow/parallel-poll";
import { plan } from "../../../interpreter/flow/plan";
import { resume } from "../../../interpreter/flow/resume";
import { skipStep } from "../../../interpreter/flow/skip";
import { stepDone } from "../../../interpreter/flow/step-done";
import { checkTimeouts } from "../../../interpreter/flow/timeouts";
import type { Tx } from "../../../interpreter/flow/tx";
import { encodeFlowState } from "../../../interpreter/store/codec";
import type { FlowDelta } from "../../../interpreter/store/delta";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { Response } from "../../../interpreter/wire/wire";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";

/** One flow written by a committed call. */
export interface CommittedChange {
  readonly tool: string;
  /** The committed state the call started from; null for a flow the call created. */
  readonly before: FlowState | null;
  /** Its stored text before the call (null for a created flow). */
  readonly beforeText: string | null;
  /** The state the call committed (the working copy, revision and status set). */
  readonly after: FlowState;
  /** The text the store holds now. */
  readonly afterText: string;
  /** The transaction's own delta of the call (EngineTx.deltaOf); null for a created flow. */
  readonly txDelta: FlowDelta | null;
}

type ToolFn<A> = (tx: Tx, args: A) => Response;

export class CapturingEngine {
  readonly store = new MemoryStore();
  readonly clock = new ManualClock();
  private readonly ids = new SequentialIds();
  private readonly specs = new SpecCache();
  private registry = this.newRegistry();
  private readonly env: TxEnvironment;

  constructor(
    private readonly onCommit: (change: CommittedChange) => void,
    cwd = "/nowhere",
  ) {
    this.env = {
      clock: this.clock,
      ids: this.ids,
      serverCwd: cwd,
      files: (root) => ({ root, fs: nodeFileSystem }),
      check: (text) => this.specs.check(text),
    };
  }

  private newRegistry(): Registry {
    return new Registry(this.store, (text) => this.specs.compile(text), this.clock);
  }

  /** A server restart: every in-memory flow is forgotten and reloaded from the store. */
  restart(): void {
    this.registry = this.newRegistry();
  }

  private async transact<A>(tool: string, flowId: string | null, fn: ToolFn<A>, args: A): Promise<Response> {
    const loaded = flowId === null ? new Map() : await this.registry.loadChain(flowId);
    const tx = new EngineTx(this.env, loaded);
    const before = new Map([...loaded].map(([id, run]) => [id, cloneState(run.state)]));
    let response: Response;
    try {
      response = fn(tx, args);
    } catch (e) {
      tx.rollback();
      if (e instanceof ExecutionFailure) return { status: "error", error_type: "execution_error" };
      throw e;
    }
    if (!commits(response)) {
      tx.rollback();
      return response;
    }
    const beforeTexts = new Map<string, string>();
    for (const id of tx.working.keys()) {
      const stored = await this.store.read(id);
      if (stored !== null) beforeTexts.set(id, stored.text);
    }
    try {
      await commitTx(tx, this.store, this.registry);
    } catch (e) {
      tx.rollback();
      throw e;
    }
    for (const [id, run] of tx.working) {
      const stored = await this.store.read(id);
      // Flows the call did not write (a detached child that was deleted) are left out.
      if (stored === null || stored.revision !== run.state.revision) continue;
      const created = tx.created.has(id);
      this.onCommit({
        tool,
        before: created ? null : (before.get(id) ?? null),
        beforeText: created ? null : (beforeTexts.get(id) ?? null),
        after: run.state,
        afterText: stored.text,
        txDelta: tx.deltaOf(id),
      });
      if (stored.text !== encodeFlowState(run.state))
        throw new Error(`${tool}: stored text differs from the state`);
    }
    tx.close();
    return response;
  }

  private flowTool<A extends FlowArgs>(tool: string, fn: ToolFn<A>): (args: A) => Promise<Response> {
    return (args) => this.transact(tool, args.flow_id, fn, args);
  }

  /** The flow tools of the API over this engine (the workspace tools are not needed here). */
  api(): StratumApi {
    const unsupported = (): Promise<Response> =>
      Promise.reject(new Error("not part of the capturing engine"));
    return {
      validate: unsupported,
      plan: (args) => this.transact("plan", null, plan, args),
      stepDone: this.flowTool("step_done", stepDone),
      audit: this.flowTool("audit", audit),
      gateResolve: this.flowTool("gate_resolve", gateResolve),
      checkTimeouts: this.flowTool("check_timeouts", checkTimeouts),
      skipStep: this.flowTool("skip_step", skipStep),
      commit: this.flowTool("commit", commitCheckpoint),
      revert: this.flowTool("revert", revertCheckpoint),
      iterationStart: this.flowTool("iteration_start", iterationStart),
      iterationReport: this.flowTool("iteration_report", iterationReport),
      iterationAbort: this.flowTool("iteration_abort", iterationAbort),
      resume: this.flowTool("resume", resume),
      parallelDone: this.flowTool("parallel_done", parallelDone),
      judge: this.flowTool("judge", judge),
      parallelStart: unsupported,
      parallelPoll: this.flowTool("parallel_poll", parallelPoll),
      parallelAdvance: this.flowTool("parallel_advance", parallelAdvance),
      listWorkflows: unsupported,
      compileSpeckit: unsupported,
      draftPipeline: unsupported,
    };
  }
}
