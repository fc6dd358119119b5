// The stages of a pipeline step as the rules read them (docs/reference/language.md §6.9): each
// stage mapping with its index, and the facts the fanout-region rules need. A `stages` value with a
// structural error is unknown (reported already), so only a valid one is read.
import type { StepDecl } from "../../model/types";
import type { MapEntry, MapNode } from "../../yaml/nodes";

export interface StageDecl {
  readonly index: number;
  readonly node: MapNode;
}

/** The stages of a step whose `stages` is structurally valid (else none). */
export function stagesOf(step: StepDecl): readonly StageDecl[] {
  const field = step.seq("stages");
  if (field === null || !step.valid("stages")) return [];
  const out: StageDecl[] = [];
  field.value.items.forEach((node, index) => {
    if (node.kind === "map") out.push({ index, node });
  });
  return out;
}

/** A stage key given as the reference tests it: present and not null (`fanout`/`join`: truthy). */
export function stageKey(stage: StageDecl, key: string): MapEntry | undefined {
  const entry = stage.node.get(key);
  if (entry === undefined) return undefined;
  const v = entry.value;
  return v.kind === "scalar" && v.value === null ? undefined : entry;
}

/** `fanout` or `join` set on a stage: the reference counts a truthy value (`join: false` is no join). */
export function marks(stage: StageDecl, key: "fanout" | "join"): boolean {
  const entry = stageKey(stage, key);
  if (entry === undefined) return false;
  const v = entry.value;
  if (v.kind === "scalar") return v.value !== false && v.value !== 0 && v.value !== "";
  return v.kind === "map" ? v.entries.length > 0 : v.items.length > 0;
}
