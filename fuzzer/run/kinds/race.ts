// A race step (docs/reference/runtime.md §23.14): the agent runs the candidates and reports them in one batch
// or in two, the last ones first, so `race_pending`, a winner in a partial batch and cancellation
// are all reached (member-plan.ts); the observer reads the candidates that lost, judged in this call
// or in an earlier one of the same race.
import type { FuzzKind } from "./kind";
import { memberKind } from "./members";

export const race: FuzzKind = memberKind({ twoBatches: true });
