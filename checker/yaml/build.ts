// Composed yaml Document → SpecNode tree (docs/reference/language.md §1.1): PyYAML typing of scalars, explicit
// tags, anchors and aliases (with the expansion limit), merge keys and duplicate keys. Recursion
// depth is bounded by the CST pre-scan (cst-scan.ts: MAX_DEPTH).
import {
  type Alias,
  type CST,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import type { SourceRange } from "../base/source-range";
import type { Reporter } from "../report";
import {
  convertTagged,
  expectedKind,
  isHonouredTag,
  type KindName,
  kindMismatch,
  shortTag,
} from "./explicit-tags";
import { assembleEntries, entryOf } from "./map-entries";
import type { MapEntry, ScalarStyle, SpecNode, YamlScalar } from "./nodes";
import { type PlainResolution, resolvePlain } from "./resolve-plain";
import { YAML_SUGGESTION } from "./rules/suggestion";
import { ALIAS_LIMIT, YAML_ALIAS_LIMIT } from "./rules/YAML-ALIAS-LIMIT";
import { YAML_DUPLICATE_KEY } from "./rules/YAML-DUPLICATE-KEY";
import { YAML_SYNTAX } from "./rules/YAML-SYNTAX";
import { emptyScalar, LoadedMap, LoadedScalar, LoadedSeq } from "./spec-nodes";

/** A built node and where it is written at this place (an alias is written elsewhere than its node). */
interface Built {
  readonly node: SpecNode;
  readonly start: number;
  readonly end: number;
  /** A plain `<<` key. */
  readonly merge?: true;
}

interface AnchorState {
  /** null while the anchored node is being built (an alias to it then is recursive). */
  readonly node: SpecNode | null;
  /** Alias expansions inside the anchored node: each alias to it costs 1 + weight. */
  readonly weight: number;
}

export const STYLES: Readonly<Record<string, ScalarStyle>> = {
  PLAIN: "plain",
  QUOTE_SINGLE: "single",
  QUOTE_DOUBLE: "double",
  BLOCK_LITERAL: "literal",
  BLOCK_FOLDED: "folded",
};

export class TreeBuilder {
  private readonly anchors = new Map<string, AnchorState>();
  private expansions = 0;
  private limitReported = false;

  constructor(
    private readonly text: string,
    private readonly reporter: Reporter,
  ) {}

  build(node: unknown, at: number, isKey = false): Built {
    if (isAlias(node)) return this.alias(node);
    const anchor = (node as { anchor?: unknown } | null)?.anchor;
    if (typeof anchor !== "string" || anchor === "") return this.buildNode(node, at, isKey);
    const before = this.expansions;
    this.anchors.set(anchor, { node: null, weight: 0 });
    const built = this.buildNode(node, at, isKey);
    this.anchors.set(anchor, { node: built.node, weight: this.expansions - before });
    return built;
  }

  private buildNode(node: unknown, at: number, isKey: boolean): Built {
    if (isScalar(node)) return this.scalar(node, isKey);
    if (isMap(node)) return this.map(node);
    if (isSeq(node)) return this.seq(node);
    if (isPair(node)) return this.pairAsMap(node, at);
    return this.empty(at);
  }

  private empty(at: number): Built {
    const p = Math.max(0, Math.min(at, this.text.length));
    return { node: emptyScalar(this.text, p), start: p, end: p };
  }

  private syntax(description: string, range: SourceRange): void {
    this.reporter.report(YAML_SYNTAX, {
      message: YAML_SYNTAX.message(description),
      path: "",
      range,
      suggestion: YAML_SUGGESTION,
    });
  }

  private alias(node: Alias): Built {
    const [start, end] = node.range ?? [0, 0];
    const range = { start, end };
    const state = this.anchors.get(node.source);
    if (state === undefined || state.node === null) {
      this.syntax(
        state === undefined
          ? `found undefined alias '${node.source}'`
          : `alias '${node.source}' refers to its own anchor (recursive structures are not supported)`,
        range,
      );
      return this.empty(start);
    }
    // Every alias counts once plus the aliases its anchor expanded (so nested aliases multiply);
    // the limit is reported at the alias written in the document whose expansion crosses it.
    const cost = 1 + state.weight;
    if (this.expansions + cost > ALIAS_LIMIT) {
      if (!this.limitReported) {
        this.limitReported = true;
        this.reporter.report(YAML_ALIAS_LIMIT, {
          message: YAML_ALIAS_LIMIT.message(),
          path: "",
          range,
          suggestion: YAML_SUGGESTION,
        });
      }
      return this.empty(start);
    }
    this.expansions += cost;
    return { node: state.node, start, end };
  }

  private scalar(node: Scalar, isKey: boolean): Built {
    const [start, valueEnd] = node.range ?? [0, 0];
    const style = STYLES[node.type ?? "PLAIN"] ?? "plain";
    const loaded = typeof node.value === "string" ? node.value : String(node.value ?? "");
    const block = node.srcToken?.type === "block-scalar" ? node.srcToken : undefined;
    const end = block === undefined ? valueEnd : blockEnd(this.text, block, start, valueEnd);
    const range = { start, end };
    const tagName = typeof node.tag === "string" ? node.tag : null;
    let resolution: PlainResolution;
    if (tagName === null) {
      resolution = style === "plain" ? resolvePlain(loaded) : { kind: "value", value: loaded };
    } else if (tagName === "!") {
      resolution = resolvePlain(loaded);
    } else if (!isHonouredTag(tagName)) {
      resolution = { kind: "value", value: loaded }; // YAML-TAG is reported at the tag itself
    } else {
      const kind = expectedKind(tagName);
      resolution =
        kind !== "scalar" && kind !== null
          ? { kind: "error", description: kindMismatch(kind, "scalar") }
          : convertTagged(tagName, loaded);
    }
    let value: YamlScalar = loaded;
    let merge = false;
    switch (resolution.kind) {
      case "value":
        value = resolution.value;
        break;
      case "merge":
        if (isKey) merge = true;
        else this.syntax("'<<' is a merge key and cannot be used as a value; quote it", range);
        break;
      case "value-key":
        // PyYAML turns a `=` key into the string '='; anywhere else it cannot be loaded.
        if (!isKey) this.syntax("'=' (the YAML 1.1 value key) cannot be used as a value; quote it", range);
        break;
      case "error":
        this.syntax(resolution.description, range);
    }
    const tag = tagName === null ? null : shortTag(tagName);
    const scalar = new LoadedScalar(range, value, style, tag, this.text, valueEnd, loaded, block);
    return merge ? { node: scalar, start, end, merge: true } : { node: scalar, start, end };
  }

  /** A tag on a collection must fit its kind (`!!map` on a mapping); other tags are YAML-TAG. */
  private checkCollectionTag(node: YAMLMap | YAMLSeq, found: KindName, range: SourceRange): void {
    const tagName = typeof node.tag === "string" ? node.tag : null;
    if (tagName === null || tagName === "!" || !isHonouredTag(tagName)) return;
    const kind = expectedKind(tagName);
    if (kind !== null && kind !== found) this.syntax(kindMismatch(kind, found), range);
  }

  private map(node: YAMLMap): Built {
    const start = node.range?.[0] ?? 0;
    // The mapping's own entries and their key ranges (parallel arrays: no object per pair).
    const ownEntries: MapEntry[] = [];
    const ownKeys: SourceRange[] = [];
    const merged: MapEntry[][] = [];
    let end = start;
    for (const pair of node.items) {
      const key = this.build(pair.key, end, true);
      const value = this.build(pair.value, key.end);
      end = Math.max(end, key.end, value.end);
      if (key.merge === true) merged.push(...this.mergeSources(value));
      else {
        ownEntries.push(entryOf(key, value));
        ownKeys.push({ start: key.start, end: key.end });
      }
    }
    if (node.flow) end = Math.max(end, node.range?.[1] ?? end);
    const range = { start, end };
    this.checkCollectionTag(node, "mapping", range);
    const { entries, duplicates } = assembleEntries(merged, ownEntries, ownKeys);
    for (const report of duplicates) this.reporter.report(YAML_DUPLICATE_KEY, report);
    return { node: new LoadedMap(range, node.flow === true, entries), start, end };
  }

  private pair(
    pair: Pair,
    at: number,
  ): { entry: MapEntry; keyRange: SourceRange; end: number; merge: boolean; value: Built } {
    const key = this.build(pair.key, at, true);
    const value = this.build(pair.value, key.end);
    return {
      entry: entryOf(key, value),
      keyRange: { start: key.start, end: key.end },
      end: Math.max(key.end, value.end),
      merge: key.merge === true,
      value,
    };
  }

  /** The entry groups a `<<` value contributes, in PyYAML's order (a list merges last-first). */
  private mergeSources(value: Built): MapEntry[][] {
    const node = value.node;
    if (node.kind === "map") return [[...node.entries]];
    if (node.kind === "seq") {
      const groups: MapEntry[][] = [];
      for (const item of node.items) {
        if (item.kind !== "map") {
          this.syntax(`expected a mapping for merging, but found ${kindName(item)}`, item.range);
          return [];
        }
        groups.push([...item.entries]);
      }
      return groups.reverse();
    }
    this.syntax(`expected a mapping or list of mappings for merging, but found ${kindName(node)}`, {
      start: value.start,
      end: value.end,
    });
    return [];
  }

  private seq(node: YAMLSeq): Built {
    const start = node.range?.[0] ?? 0;
    const items: SpecNode[] = [];
    const starts: number[] = [];
    let end = start;
    for (const item of node.items) {
      const built = this.build(item, end);
      items.push(built.node);
      starts.push(built.start);
      end = Math.max(end, built.end);
    }
    if (node.flow) end = Math.max(end, node.range?.[1] ?? end);
    else {
      const dashes = dashOffsets(node);
      if (dashes !== null && dashes.length === starts.length) starts.splice(0, starts.length, ...dashes);
    }
    const range = { start, end };
    this.checkCollectionTag(node, "sequence", range);
    return { node: new LoadedSeq(range, node.flow === true, items, starts), start, end };
  }

  /** A `key: value` pair written directly in a flow sequence (`[a: 1]`): a one-entry mapping. */
  private pairAsMap(pair: Pair, at: number): Built {
    const built = this.pair(pair, at);
    const range = { start: built.keyRange.start, end: built.end };
    return { node: new LoadedMap(range, true, [built.entry]), start: range.start, end: range.end };
  }
}

/** The `-` offsets of a block sequence's items, from its CST token (mirrors the composer's skips). */
function dashOffsets(node: YAMLSeq): number[] | null {
  const token = node.srcToken;
  if (token?.type !== "block-seq") return null;
  const out: number[] = [];
  for (const item of token.items) {
    const dash = item.start.find((t) => t.type === "seq-item-ind");
    const props = item.start.some((t) => t.type === "anchor" || t.type === "tag");
    if (dash === undefined && !props && item.value === undefined) continue;
    out.push(dash?.offset ?? item.value?.offset ?? item.start[0]?.offset ?? node.range?.[0] ?? 0);
  }
  return out;
}

function headerText(block: CST.BlockScalar): string {
  const header = block.props[0];
  return header?.type === "block-scalar-header" ? header.source : "";
}

/**
 * The end of a block scalar as written: the end of its last line with content. Trailing empty
 * lines are not what a reader sees as the value, unless they are more indented than the content
 * (their extra spaces are then content, as the yaml package loads them). A body with no content
 * ends at the header indicator.
 */
export function blockEnd(text: string, block: CST.BlockScalar, start: number, valueEnd: number): number {
  const header = headerText(block);
  const headerEnd = start + header.length;
  const bodyStart = text.indexOf("\n", headerEnd) + 1;
  if (bodyStart <= 0 || bodyStart > valueEnd) return headerEnd;
  // Lines backwards: [lineStart, lineEnd) without the line break.
  const blankEnds: { end: number; spaces: number }[] = [];
  let e = valueEnd;
  let lastContentEnd = -1;
  while (e >= bodyStart) {
    while (e > bodyStart && (text.charAt(e - 1) === "\n" || text.charAt(e - 1) === "\r")) e--;
    const lineStart = Math.max(text.lastIndexOf("\n", e - 1) + 1, bodyStart);
    const line = text.slice(lineStart, e);
    if (/[^ ]/.test(line)) {
      lastContentEnd = e;
      break;
    }
    blankEnds.push({ end: e, spaces: line.length });
    if (lineStart <= bodyStart) break;
    e = lineStart - 1;
  }
  if (lastContentEnd < 0) return headerEnd;
  const explicit = Number(/[1-9]/.exec(header)?.[0] ?? 0);
  const trim = explicit > 0 ? block.indent + explicit : firstContentIndent(text, bodyStart, lastContentEnd);
  // blankEnds is in reverse order: the first more-indented one is the last content line.
  for (const b of blankEnds) if (b.spaces > trim) return b.end;
  return lastContentEnd;
}

/** Indentation (spaces) of the first line in [from, to) that has a character other than a space. */
function firstContentIndent(text: string, from: number, to: number): number {
  let at = from;
  while (at < to) {
    let i = at;
    while (text.charAt(i) === " ") i++;
    const c = text.charAt(i);
    if (c !== "\n" && c !== "\r" && i < to) return i - at;
    const nl = text.indexOf("\n", i);
    if (nl < 0) break;
    at = nl + 1;
  }
  return 0;
}

function kindName(node: SpecNode): KindName {
  return node.kind === "map" ? "mapping" : node.kind === "seq" ? "sequence" : "scalar";
}
