// A quorum step (docs/reference/runtime.md §23.13): the agent runs the `runs` copies of the step and reports
// them in one batch, each passing, failing or raising (member-plan.ts); the observer reads the runs
// that did not count.
import type { FuzzKind } from "./kind";
import { memberKind } from "./members";

export const quorum: FuzzKind = memberKind({ twoBatches: false });
