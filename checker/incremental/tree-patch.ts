// The previous tree with one scalar replaced: nodes before the scalar are kept as they are (their
// text is unchanged), nodes after it are copied `delta` later, and the collections on the path
// are rebuilt around the new child. Only for trees without aliases or merge keys (each node has
// one place), which the caller guarantees.

import type { SourceRange } from "../base/source-range";
import type { MapEntry, SpecNode } from "../yaml/nodes";
import { LoadedMap, LoadedScalar, LoadedSeq } from "../yaml/spec-nodes";
import type { PathStep } from "./locate";

/** A node the patch cannot place (overlapping the replaced scalar, or of an unknown class). */
class CannotPatch extends Error {}

interface Patch {
  /** The replaced scalar's old range. */
  readonly start: number;
  readonly end: number;
  readonly delta: number;
  readonly text: string;
}

/**
 * The new root, or null when the patch does not apply (a key renamed to the name of another key of
 * its mapping would be a duplicate: YAML-DUPLICATE-KEY needs the full loader).
 */
export function patchTree(
  path: readonly PathStep[],
  scalar: LoadedScalar,
  name: string | null,
  old: SourceRange,
  delta: number,
  text: string,
): SpecNode | null {
  const patch: Patch = { start: old.start, end: old.end, delta, text };
  try {
    let child: SpecNode = scalar;
    for (let level = path.length - 1; level >= 0; level--) {
      const step = path[level] as PathStep;
      child =
        "entry" in step
          ? rebuildMap(step, child, level === path.length - 1 ? name : undefined, patch)
          : rebuildSeq(step, child, patch);
    }
    return child;
  } catch (e) {
    if (e instanceof CannotPatch) return null;
    throw e;
  }
}

function around(range: SourceRange, patch: Patch): SourceRange {
  return { start: range.start, end: range.end + patch.delta };
}

/** `name` is the new key name when the replaced scalar is this mapping's key; undefined otherwise. */
function rebuildMap(
  step: Extract<PathStep, { entry: number }>,
  child: SpecNode,
  name: string | null | undefined,
  patch: Patch,
): LoadedMap {
  const map = step.node;
  if (!(map instanceof LoadedMap)) throw new CannotPatch();
  const entries: MapEntry[] = [];
  map.entries.forEach((entry, i) => {
    if (i !== step.entry) {
      entries.push(moved(entry, patch));
    } else if (step.side === "value") {
      entries.push({ key: placed(entry.key, patch), name: entry.name, value: child });
    } else {
      const newName = name === undefined ? entry.name : name;
      entries.push({ key: child, name: newName, value: placed(entry.value, patch) });
    }
  });
  const range = around(map.range, patch);
  const renamed = step.side === "key" && name !== undefined && name !== map.entries[step.entry]?.name;
  if (!renamed) return map.withEntries(range, entries);
  const names = new Set<string>();
  for (const { name: n } of entries) {
    if (n === null) continue;
    if (names.has(n)) throw new CannotPatch();
    names.add(n);
  }
  return new LoadedMap(range, map.flow, entries);
}

function rebuildSeq(step: Extract<PathStep, { item: number }>, child: SpecNode, patch: Patch): LoadedSeq {
  const seq = step.node;
  if (!(seq instanceof LoadedSeq)) throw new CannotPatch();
  const items = seq.items.map((item, i) => (i === step.item ? child : placed(item, patch)));
  const starts = seq.itemStarts.map((s) => (s <= patch.start ? s : s + patch.delta));
  return new LoadedSeq(around(seq.range, patch), seq.flow, items, starts);
}

function moved(entry: MapEntry, patch: Patch): MapEntry {
  const key = placed(entry.key, patch);
  const value = placed(entry.value, patch);
  return key === entry.key && value === entry.value ? entry : { key, name: entry.name, value };
}

/** A node outside the replaced scalar: kept before it, shifted after it. */
function placed(node: SpecNode, patch: Patch): SpecNode {
  if (node.range.end <= patch.start) return node;
  if (node.range.start >= patch.end) return shifted(node, patch);
  throw new CannotPatch();
}

function shifted(node: SpecNode, patch: Patch): SpecNode {
  const range = { start: node.range.start + patch.delta, end: node.range.end + patch.delta };
  if (node instanceof LoadedScalar) return node.shifted(patch.delta, patch.text);
  if (node instanceof LoadedMap) {
    const entries = node.entries.map((e) => ({
      key: shifted(e.key, patch),
      name: e.name,
      value: shifted(e.value, patch),
    }));
    return node.withEntries(range, entries);
  }
  if (node instanceof LoadedSeq) {
    const items = node.items.map((item) => shifted(item, patch));
    return new LoadedSeq(
      range,
      node.flow,
      items,
      node.itemStarts.map((s) => s + patch.delta),
    );
  }
  throw new CannotPatch();
}
