// Python dict semantics for a loaded mapping's entries, shared by both tree builders (build.ts
// over the composed document, cst-build.ts straight from the CST): merged entries first, then the
// mapping's own; the last occurrence of a key wins and keeps the position of the first; only a
// repeated key of the mapping's own is a duplicate (YAML-DUPLICATE-KEY).

import type { SourceRange } from "../base/source-range";
import type { ReportInput } from "../report";
import type { MapEntry, SpecNode } from "./nodes";
import { YAML_DUPLICATE_KEY } from "./rules/YAML-DUPLICATE-KEY";

/** A key or value as built: the node and where it is written at this place. */
export interface BuiltKey {
  readonly node: SpecNode;
  /** A plain `<<` key. */
  readonly merge?: true;
}

/** The entry of a built key and value; a merge key or a key that is not a string has no name. */
export function entryOf(key: BuiltKey, value: { readonly node: SpecNode }): MapEntry {
  const name =
    key.merge === undefined && key.node.kind === "scalar" && typeof key.node.value === "string"
      ? key.node.value
      : null;
  return { key: key.node, name, value: value.node };
}

export interface AssembledEntries {
  readonly entries: MapEntry[];
  /** YAML-DUPLICATE-KEY reports (at each earlier occurrence, related to the one used), in order. */
  readonly duplicates: readonly ReportInput[];
}

export function assembleEntries(
  merged: readonly (readonly MapEntry[])[],
  ownEntries: readonly MapEntry[],
  ownKeys: readonly SourceRange[],
): AssembledEntries {
  const entries: MapEntry[] = [];
  const index = new Map<string, number>();
  const ownKey: (SourceRange | undefined)[] = [];
  let duplicates: { name: string; range: SourceRange; at: number }[] | null = null;
  const add = (entry: MapEntry, keyRange?: SourceRange): void => {
    const at = entry.name === null ? undefined : index.get(entry.name);
    if (entry.name === null || at === undefined) {
      if (entry.name !== null) index.set(entry.name, entries.length);
      entries.push(entry);
      ownKey.push(keyRange);
      return;
    }
    const previous = ownKey[at];
    if (previous !== undefined && keyRange !== undefined) {
      duplicates ??= [];
      duplicates.push({ name: entry.name, range: previous, at });
    }
    entries[at] = entry;
    ownKey[at] = keyRange;
  };
  for (const group of merged) for (const entry of group) add(entry);
  for (let i = 0; i < ownEntries.length; i++) add(ownEntries[i] as MapEntry, ownKeys[i]);
  if (duplicates === null) return { entries, duplicates: [] };
  const reports: ReportInput[] = [];
  for (const { name, range, at } of duplicates as { name: string; range: SourceRange; at: number }[]) {
    const last = ownKey[at];
    if (last === undefined) continue;
    reports.push({
      message: YAML_DUPLICATE_KEY.message(name),
      path: "",
      range,
      related: [{ message: YAML_DUPLICATE_KEY.related(), path: "", range: last }],
    });
  }
  return { entries, duplicates: reports };
}
