// One move of the driver against an engine, checked: read the flow from the store, make the move
// the stored state calls for, compare the response with the exact expectation. Throws a
// DriveError naming the call and the first difference.

import { expect } from "vitest";
import type { StratumApi } from "../../../../interpreter/api";
import type { FlowStore } from "../../../../interpreter/store/store";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import type { Response } from "../../../../interpreter/wire/wire";
import {
  type Call,
  type FlowView,
  isMainFlow,
  type Move,
  newChildProblem,
  nextMove,
  PLAN_MOVE,
  perform,
  resumeExpectation,
} from "./driver";
import { mismatch } from "./expected";
import { readState, readView } from "./stored-flows";

class DriveError extends Error {
  constructor(call: Call, problem: string, response: Response) {
    super(`${describeCall(call)}: ${problem}\nresponse: ${JSON.stringify(wireToPlain(response))}`);
    this.name = "DriveError";
  }
}

export interface Played {
  readonly move: Move;
  /** The flow as stored before the move. */
  readonly view: FlowView;
  readonly response: Response;
}

/** Makes the next move of a stored `main` flow; null when the flow is finished. */
export async function playNext(api: StratumApi, store: FlowStore, flowId: string): Promise<Played | null> {
  const view = await readView(store, flowId);
  if (view === null) throw new Error(`flow ${flowId} is not stored`);
  const move = nextMove(view);
  if (move === null) return null;
  const response = await perform(api, move.call);
  checkResponse(move, response);
  return { move, view, response };
}

/** Plans a new `main` flow (its id is the response's `flow_id`). */
export async function planMain(api: StratumApi): Promise<Response> {
  const response = await perform(api, PLAN_MOVE.call);
  checkResponse(PLAN_MOVE, response);
  return response;
}

function checkResponse(move: Move, response: Response): void {
  const problem = mismatch(response, move.expected) ?? newChildProblem(move, response);
  if (problem !== null) throw new DriveError(move.call, problem, response);
}

function describeCall(call: Call): string {
  switch (call.tool) {
    case "plan":
      return "plan";
    case "resume":
      return `resume(${call.flowId})`;
    case "gateResolve":
      return `gateResolve(${call.flowId}, review, ${call.outcome})`;
    case "iterationStart":
      return `iterationStart(${call.flowId}, ${call.stepId})`;
    case "iterationReport":
    case "stepDone":
      return `${call.tool}(${call.flowId}, ${call.stepId}, ${JSON.stringify(wireToPlain(call.result))})`;
  }
}

/** Moves the crash tests make themselves on each in-progress main flow after a kill. */
const DRIVE_MOVES = 2;

/**
 * After a kill: resumes every flow in `toResume` with exactly the payload its stored state calls
 * for, then drives each in-progress main flow DRIVE_MOVES moves further with exactly the expected
 * responses. Counts into `tally`.
 */
export async function resumeAndDrive(
  api: StratumApi,
  store: FlowStore,
  toResume: readonly string[],
  tally: { resumed: number; driven: number },
): Promise<void> {
  for (const id of toResume) {
    const view = await readView(store, id);
    // Children are written before their parents, so a parent never points at a missing child.
    if (view?.state.active_child_flow_id) expect(view.child, `active child of ${id}`).not.toBeNull();
    const response = await api.resume({ flow_id: id });
    expect(mismatch(response, resumeExpectation(view!)), `resume(${id})`).toBeNull();
    tally.resumed += 1;
  }
  for (const id of toResume) {
    const state = await readState(store, id);
    if (state === null || !isMainFlow(state)) continue;
    for (let k = 0; k < DRIVE_MOVES; k++) {
      if ((await playNext(api, store, id)) === null) break; // throws on an unexpected response
      tally.driven += 1;
    }
  }
}
