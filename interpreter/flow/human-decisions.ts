// The gate decisions a person made that a revert would undo (a server with STRATUM_GATES=human
// refuses such a revert: docs/reference/runtime.md §16.8). A checkpoint holds the trace as it was
// (the current round's records and the archived rounds'), the audits of the sub-flows finished by
// then and the pointer to the sub-flow running then, so a decision anywhere in the flow's tree
// (decision-tree.ts) that the checkpoint's tree lacks is one the revert would erase: an approval, a
// revise that sent the work back, a kill that ended the flow, in the flow or in any sub-flow of it.
import {
  type DecisionTree,
  decisionKey,
  type FlowName,
  type HumanDecision,
  humanDecisionsIn,
  type ReadFlow,
} from "./decision-tree";

/** The person's decisions in the tree of `flow` now (`current`) that `checkpoint` does not hold, in tree order. */
export function humanDecisionsUndone(
  flow: FlowName,
  current: DecisionTree,
  checkpoint: DecisionTree,
  read: ReadFlow,
): HumanDecision[] {
  const kept = new Map<string, number>();
  for (const d of humanDecisionsIn(flow, checkpoint, read))
    kept.set(decisionKey(d), (kept.get(decisionKey(d)) ?? 0) + 1);
  const undone: HumanDecision[] = [];
  for (const d of humanDecisionsIn(flow, current, read)) {
    const left = kept.get(decisionKey(d)) ?? 0;
    if (left > 0) kept.set(decisionKey(d), left - 1);
    else undone.push(d);
  }
  return undone;
}
