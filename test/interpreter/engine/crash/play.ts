// One move of the driver against an engine, checked: read the flow from the store, make the move
// the stored state calls for, compare the response with the exact expectation. Throws a
// DriveError naming the call and the first difference.
import type { StratumApi } from "../../../../interpreter/api";
import type { FlowStore } from "../../../../interpreter/store/store";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import type { Response } from "../../../../interpreter/wire/wire";
import { type Call, type FlowView, type Move, newChildProblem, nextMove, PLAN_MOVE, perform } from "./driver";
import { mismatch } from "./expected";
import { readView } from "./stored-flows";

export class DriveError extends Error {
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

export function checkResponse(move: Move, response: Response): void {
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
