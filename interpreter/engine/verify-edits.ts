// The engine's check of its own in-place edits (EngineOptions.verifyEdits, on in every test): a
// full copy of every flow the call loaded is kept; after a commit, each edited flow's delta applied
// to its copy must encode byte for byte like the committed working state, and every flow the call
// did not edit must be unchanged; after a rollback, every loaded flow must encode as its copy and
// keep its dispatch times. A mismatch throws: the API call rejects and the test fails loudly.

import type { FlowState } from "../base/flow-state";
import { cloneState } from "../flow/clone";
import type { FlowRun } from "../flow/run";
import { encodeFlowState } from "../store/codec";
import { applyDelta } from "../store/delta";
import type { EngineTx } from "./transaction";

export class EditVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditVerificationError";
  }
}

interface Copy {
  readonly state: FlowState;
  readonly timing: string;
}

export class EditVerifier {
  private readonly copies = new Map<string, Copy>();

  constructor(loaded: ReadonlyMap<string, FlowRun>) {
    for (const [id, run] of loaded)
      this.copies.set(id, { state: cloneState(run.state), timing: timingOf(run) });
  }

  /** After a successful commit (before the logs are closed). */
  committed(tx: EngineTx): void {
    for (const [id, copy] of this.copies) {
      const delta = tx.deltaOf(id);
      const working = tx.working.get(id);
      if (delta !== null && working !== undefined) {
        same(
          id,
          "the delta applied to the state before the call",
          applyDelta(copy.state, delta),
          working.state,
        );
      } else {
        const run = tx.loaded.get(id);
        if (run !== undefined) same(id, "a flow the call did not edit", copy.state, run.state);
      }
    }
  }

  /** After a rollback. */
  rolledBack(tx: EngineTx): void {
    for (const [id, copy] of this.copies) {
      const run = tx.loaded.get(id);
      if (run === undefined) continue;
      same(id, "the committed state after the rollback", copy.state, run.state);
      const timing = timingOf(run);
      if (timing !== copy.timing)
        throw new EditVerificationError(
          `flow ${id}: dispatch times after the rollback are ${timing}, before the call ${copy.timing}`,
        );
    }
  }
}

function timingOf(run: FlowRun): string {
  const { startedAt, stepDispatchedAt, gateDispatchedAt } = run.timing;
  return JSON.stringify([startedAt, [...stepDispatchedAt], [...gateDispatchedAt]]);
}

/** Throws unless `expected` and `actual` encode alike (a state too deep to encode: the same error). */
function same(flowId: string, what: string, expected: FlowState, actual: FlowState): void {
  const a = encoded(expected);
  const b = encoded(actual);
  if (a === b) return;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, i - 60), i + 60));
  throw new EditVerificationError(
    `flow ${flowId}: ${what} differs at character ${i}: expected …${around(a)}…, got …${around(b)}…`,
  );
}

function encoded(state: FlowState): string {
  try {
    return encodeFlowState(state);
  } catch (e) {
    return `cannot be encoded: ${e instanceof Error ? e.message : String(e)}`;
  }
}
