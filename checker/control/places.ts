// Source ranges of the places a control diagnostic points at, looked up in the model by flow,
// step id and key: a route's value, a skip_if, a policy, or the step itself.
import { stepEntityRange, valueRange } from "../anchors";
import type { SourceRange } from "../base/source-range";
import type { SpecModel } from "../model/types";
import type { PlaceKey } from "./types";

const KEY_OF: Partial<Record<PlaceKey, string>> = {
  next: "next",
  on_fail: "on_fail",
  on_approve: "on_approve",
  on_revise: "on_revise",
  on_kill: "on_kill",
  skip: "skip_if",
  skip_if: "skip_if",
  policy: "policy",
};

/** The range of `key` of step `step` in flow `flow`: the key's value, else the step's entity anchor. */
export function placeRange(model: SpecModel, flow: string, step: string, key: PlaceKey): SourceRange | null {
  const decl = model.flowByName.get(flow)?.stepById.get(step);
  if (decl === undefined) return null;
  const name = KEY_OF[key];
  const entry = name === undefined ? undefined : decl.entry(name);
  if (entry !== undefined) return valueRange(model.source, entry);
  const seq = decl.flow.stepsNode;
  return seq === null ? null : stepEntityRange(model.source, seq, decl.index);
}
