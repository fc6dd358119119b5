// The anchors of docs/reference/language.md §9.2: which source range a diagnostic points at. Every rule picks
// its range through these helpers so that the "start line" rule (a value that begins below its
// key is reported from the key) is applied in one place.

import type { SourceRange } from "./base/source-range";
import type { SpecSource } from "./source";
import type { MapEntry, SeqNode } from "./yaml/nodes";

const ROOT_RANGE: SourceRange = { start: 0, end: 0 };

/** `K:x` — the key scalar of an entry. */
export function keyRange(entry: MapEntry): SourceRange {
  return entry.key.range;
}

/** Extend `range` back to the key when it begins on a later line than the key (docs/reference/language.md §9.2 start line). */
export function fromKeyLine(src: SpecSource, entry: MapEntry, range: SourceRange): SourceRange {
  if (src.lineOf(range.start) > src.lineOf(entry.key.range.start)) {
    return { start: entry.key.range.start, end: range.end };
  }
  return range;
}

/** `V:x` — the whole value of an entry (an empty value, such as `key:` alone, points at the key). */
export function valueRange(src: SpecSource, entry: MapEntry): SourceRange {
  const r = entry.value.range;
  if (r.end <= r.start) return entry.key.range;
  return fromKeyLine(src, entry, r);
}

/** `V:x[i]` — item `i` of an entry's sequence value. */
export function itemRange(src: SpecSource, entry: MapEntry, index: number): SourceRange {
  const seq = entry.value;
  if (seq.kind !== "seq") return valueRange(src, entry);
  const item = seq.items[index];
  if (item === undefined) return valueRange(src, entry);
  return fromKeyLine(src, entry, nonEmpty(item.range, entry.key.range));
}

/**
 * `O` — the owner of a mapping that lacks a required key. `owner` says how the mapping is held:
 * by a key (its entry), by a sequence item, or it is the root.
 */
export type Owner =
  | { readonly kind: "root" }
  | { readonly kind: "entry"; readonly entry: MapEntry }
  | { readonly kind: "item"; readonly seq: SeqNode; readonly index: number };

export function ownerRange(src: SpecSource, owner: Owner): SourceRange {
  switch (owner.kind) {
    case "root":
      return ROOT_RANGE;
    case "entry":
      return owner.entry.key.range;
    case "item":
      return itemStartRange(src, owner.seq, owner.index);
  }
}

/** The first key of a sequence item, or its `-` indicator when that key is on a later line. */
function itemStartRange(src: SpecSource, seq: SeqNode, index: number): SourceRange {
  const item = seq.items[index];
  const dash = seq.itemStarts[index] ?? item?.range.start ?? seq.range.start;
  const dashRange: SourceRange = { start: dash, end: dash + 1 };
  if (item === undefined) return dashRange;
  const first = item.kind === "map" ? item.entries[0] : undefined;
  if (first === undefined) return nonEmpty(item.range, dashRange);
  if (src.lineOf(first.key.range.start) > src.lineOf(dash)) return dashRange;
  return first.key.range;
}

/**
 * `E` for a step: the value of its `id` when it is on the line where the step item starts,
 * otherwise as `O` (so a step-level diagnostic is always on the step's first line).
 */
export function stepEntityRange(src: SpecSource, steps: SeqNode, index: number): SourceRange {
  const item = steps.items[index];
  const dash = steps.itemStarts[index] ?? item?.range.start ?? steps.range.start;
  if (item?.kind === "map") {
    const id = item.get("id");
    if (id !== undefined && id.value.range.end > id.value.range.start) {
      if (src.lineOf(id.value.range.start) === src.lineOf(dash)) return id.value.range;
    }
  }
  return itemStartRange(src, steps, index);
}

/** `E` for a function, flow, contract, contract field or the workflow block: its key. */
export function entityRange(entry: MapEntry): SourceRange {
  return entry.key.range;
}

/** The range of a node, or `fallback` when the node is empty (an empty plain scalar). */
export function nonEmpty(range: SourceRange, fallback: SourceRange): SourceRange {
  return range.end > range.start ? range : fallback;
}
