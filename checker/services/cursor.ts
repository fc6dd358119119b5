// Where a cursor is in the YAML structure of a spec: typing a key of some mapping, or a value at
// some key path (`flows.f.steps.1.depends_on.0`). Read from the loaded YAML tree (exact ranges),
// and — for the positions the tree cannot show because nothing is written there yet (a blank line
// inside a mapping, `key: ` with no value, a fresh `- ` item) — from the indentation of the
// current line against the tree's block structure.
import type { MapEntry, MapNode, ScalarNode, SeqNode, SpecNode } from "../yaml/nodes";
import type { OffsetRange } from "./types";

/** A mapping key or a sequence index. */
export type PathSeg = string | number;

export type YamlCursor =
  /** A key of the mapping at `path` is being typed (`map` is null when the mapping has no entry yet). */
  | {
      readonly kind: "key";
      readonly path: readonly PathSeg[];
      readonly map: MapNode | null;
      /** The key being replaced (the word at the cursor), or an empty range at the cursor. */
      readonly replace: OffsetRange;
    }
  /** The value at `path` (its last segment is the key or the item index) is being typed. */
  | {
      readonly kind: "value";
      readonly path: readonly PathSeg[];
      /** The scalar at the cursor; null when nothing is written yet. */
      readonly node: ScalarNode | null;
      readonly replace: OffsetRange;
    }
  | { readonly kind: "none" };

const NONE: YamlCursor = { kind: "none" };

/** The YAML position of `offset` in `text` whose loaded tree is `root`. */
export function yamlCursorAt(text: string, root: SpecNode | null, offset: number): YamlCursor {
  const o = clampOffset(text, offset);
  const lineStart = lineStartOf(text, o);
  const before = text.slice(lineStart, o);
  if (root === null) return rootKeyLine(before, o);
  const found = descend(text, root, o, []);
  const word = /^([ ]*)([A-Za-z0-9_-]+)$/.exec(before);
  if (found?.kind === "value" && found.node?.style === "plain" && word !== null) {
    // A word alone on its line, more indented than the key before it, continues that key's plain
    // value for YAML (`intent: x⏎  fu`); the author is typing a new key.
    if (found.node.range.start < lineStart) {
      const indent = word[1]?.length ?? 0;
      const replace = { start: lineStart + indent, end: wordEnd(text, o) };
      return blockPosition(text, root, lineStart, indent, "", replace);
    }
  }
  if (found !== null) return found;
  // `key: ` with nothing after it yet: the value of that key.
  const valueLine = /^([ ]*(?:-[ ]+)*)[^\s#:'"[{][^#:]*:[ ]*$/.exec(before);
  if (valueLine !== null) {
    const keyAt = descend(text, root, lineStart + (valueLine[1]?.length ?? 0), []);
    if (keyAt?.kind === "key" && keyAt.map !== null) {
      const entry = entryWithKeyAt(keyAt.map, keyAt.replace.start);
      if (entry !== undefined && entry.name !== null && isEmptyNode(entry.value)) {
        return {
          kind: "value",
          path: [...keyAt.path, entry.name],
          node: null,
          replace: { start: o, end: o },
        };
      }
    }
    return NONE;
  }
  const keyLine = /^([ ]*)((?:-[ ]+)*)$/.exec(before);
  if (keyLine === null) return NONE;
  return blockPosition(text, root, lineStart, keyLine[1]?.length ?? 0, keyLine[2] ?? "", {
    start: o,
    end: o,
  });
}

function rootKeyLine(before: string, o: number): YamlCursor {
  return before.length === 0 ? { kind: "key", path: [], map: null, replace: { start: o, end: o } } : NONE;
}

export function clampOffset(text: string, offset: number): number {
  if (!Number.isFinite(offset)) return text.length;
  return Math.max(0, Math.min(Math.trunc(offset), text.length));
}

function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

function contains(range: OffsetRange, o: number): boolean {
  return range.start <= o && o <= range.end;
}

/** A scalar that holds nothing written (`key:` with no value, a bare `-`). */
function isEmptyNode(node: SpecNode): boolean {
  return node.kind === "scalar" && node.value === null && node.range.start === node.range.end;
}

/** The deepest written node containing `o`, as a key or value position; null for whitespace. */
function descend(text: string, node: SpecNode, o: number, path: PathSeg[]): YamlCursor | null {
  if (node.kind === "scalar") {
    if (isEmptyNode(node) || !contains(node.range, o)) return null;
    // On a quote itself the whole scalar is replaced; inside the quotes only the content.
    const content = contentRange(node);
    return { kind: "value", path, node, replace: contains(content, o) ? content : node.range };
  }
  if (!contains(node.range, o)) return null;
  if (node.kind === "map") {
    for (const entry of node.entries) {
      if (entry.key.kind === "scalar" && contains(entry.key.range, o)) {
        return { kind: "key", path, map: node, replace: entry.key.range };
      }
      if (entry.name !== null) {
        const inner = descend(text, entry.value, o, [...path, entry.name]);
        if (inner !== null) return inner;
        // `key: ` with nothing written after it yet (in a flow mapping, or before a comment).
        const gap = text.slice(entry.key.range.end, o);
        if (isEmptyNode(entry.value) && entry.key.range.end <= o && /^[ \t]*:[ \t]*$/.test(gap)) {
          return { kind: "value", path: [...path, entry.name], node: null, replace: { start: o, end: o } };
        }
      }
    }
    if (node.flow && o > node.range.start && o < node.range.end) {
      return { kind: "key", path, map: node, replace: { start: o, end: o } };
    }
    return null;
  }
  for (let i = 0; i < node.items.length; i++) {
    const item = node.items[i];
    if (item === undefined) continue;
    const inner = descend(text, item, o, [...path, i]);
    if (inner !== null) return inner;
  }
  if (node.flow && o > node.range.start && (o < node.range.end || !closedFlow(node))) {
    const index = node.items.filter((item) => item.range.end <= o && !isEmptyNode(item)).length;
    return { kind: "value", path: [...path, index], node: null, replace: { start: o, end: o } };
  }
  return null;
}

/** A recovered flow sequence whose `]` is missing ends where its last item ends. */
function closedFlow(node: SeqNode): boolean {
  const last = node.items[node.items.length - 1];
  return last === undefined ? node.range.end - node.range.start >= 2 : node.range.end > last.range.end;
}

/** A quoted scalar's content (between its quotes); a plain or block scalar's whole range. */
function contentRange(node: ScalarNode): OffsetRange {
  const { start, end } = node.range;
  if ((node.style === "double" || node.style === "single") && end - start >= 2) {
    return { start: start + 1, end: end - 1 };
  }
  if (node.style === "double" || node.style === "single") return { start: Math.min(start + 1, end), end };
  return node.range;
}

function entryWithKeyAt(map: MapNode, keyStart: number): MapEntry | undefined {
  return map.entries.find((e) => e.key.range.start === keyStart);
}

function isBlock(node: SpecNode): node is MapNode | SeqNode {
  return (node.kind === "map" || node.kind === "seq") && !node.flow;
}

/**
 * A line holding only indentation and dashes so far: follow the block structure from the root,
 * entering the last entry or item that starts on an earlier line while the cursor is indented
 * deeper than it.
 */
function blockPosition(
  text: string,
  root: SpecNode,
  lineStart: number,
  indent: number,
  dashes: string,
  here: OffsetRange,
): YamlCursor {
  const col = (offset: number): number => offset - lineStartOf(text, offset);
  let node: SpecNode = root;
  let path: PathSeg[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    if (node.kind === "map" && !node.flow) {
      const keyColumn = col(node.range.start);
      if (dashes === "" && indent === keyColumn) return { kind: "key", path, map: node, replace: here };
      const entry = lastBefore(node.entries, (e) => e.key.range.start, lineStart);
      // Deeper than the keys, or a dash at the keys' column (a zero-indented sequence).
      const inside = indent > keyColumn || (dashes !== "" && indent === keyColumn);
      if (entry === undefined || entry.name === null || !inside) return NONE;
      const child = entry.value;
      const childPath = [...path, entry.name];
      if (isBlock(child) && child.range.start < lineStart) {
        node = child;
        path = childPath;
        continue;
      }
      if (!isEmptyNode(child)) return NONE;
      if (dashes === "") return { kind: "key", path: childPath, map: null, replace: here };
      return /^-[ ]+$/.test(dashes)
        ? { kind: "value", path: [...childPath, 0], node: null, replace: here }
        : NONE;
    }
    if (node.kind === "seq" && !node.flow) {
      const dashColumn = col(node.range.start);
      if (dashes !== "" && indent === dashColumn) {
        if (!/^-[ ]+$/.test(dashes)) return NONE;
        const at = node.itemStarts.indexOf(lineStart + indent);
        const index = at >= 0 ? at : node.items.length;
        return { kind: "value", path: [...path, index], node: null, replace: here };
      }
      if (indent <= dashColumn) return NONE;
      let index = -1;
      node.itemStarts.forEach((start, i) => {
        if (start < lineStart) index = i;
      });
      const item = node.items[index];
      if (item === undefined) return NONE;
      if (isBlock(item)) {
        node = item;
        path = [...path, index];
        continue;
      }
      if (isEmptyNode(item) && dashes === "") {
        return { kind: "key", path: [...path, index], map: null, replace: here };
      }
      return NONE;
    }
    return NONE;
  }
  return NONE;
}

/** The end of the identifier-like word that starts at or before `o`. */
function wordEnd(text: string, o: number): number {
  let i = o;
  while (i < text.length && /[A-Za-z0-9_-]/.test(text.charAt(i))) i++;
  return i;
}

function lastBefore<T>(list: readonly T[], startOf: (t: T) => number, limit: number): T | undefined {
  let found: T | undefined;
  for (const item of list) if (startOf(item) < limit) found = item;
  return found;
}
