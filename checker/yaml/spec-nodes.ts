// The concrete SpecNode classes the loader builds (the interfaces are in nodes.ts).
import type { CST } from "yaml";
import type { SourceRange } from "../base/source-range";
import type { MapEntry, MapNode, ScalarNode, ScalarStyle, SeqNode, SpecNode, YamlScalar } from "./nodes";
import { buildScalarMap, type ScalarMap } from "./scalar-map";

export class LoadedScalar implements ScalarNode {
  readonly kind = "scalar";
  private map: ScalarMap | undefined;

  constructor(
    readonly range: SourceRange,
    readonly value: YamlScalar,
    readonly style: ScalarStyle,
    readonly tag: string | null,
    // What the position map is built from, only when first asked (kept as plain fields: one
    // object per scalar matters for the memory of big documents).
    private readonly text: string,
    /** End of the scalar's text as the yaml package delimits it (a block scalar's trailing lines included). */
    private readonly textEnd: number,
    /** The string the yaml package loaded (before YAML 1.1 typing). */
    private readonly loaded: string,
    private readonly block: CST.BlockScalar | undefined,
  ) {}

  mapRange(start: number, end: number): SourceRange {
    return this.positions().range(start, end);
  }

  /** What the scalar was loaded from (read by the incremental checker, checker/incremental/). */
  origin(): {
    readonly textEnd: number;
    readonly loaded: string;
    readonly block: CST.BlockScalar | undefined;
  } {
    return { textEnd: this.textEnd, loaded: this.loaded, block: this.block };
  }

  /** The same scalar `delta` UTF-16 units later in `text` (text before it unchanged, or moved as a whole). */
  shifted(delta: number, text: string): LoadedScalar {
    const block = this.block === undefined ? undefined : { ...this.block, offset: this.block.offset + delta };
    const range = { start: this.range.start + delta, end: this.range.end + delta };
    return new LoadedScalar(
      range,
      this.value,
      this.style,
      this.tag,
      text,
      this.textEnd + delta,
      this.loaded,
      block,
    );
  }

  /** The position map (built on first use). */
  positions(): ScalarMap {
    this.map ??= buildScalarMap({
      text: this.text,
      style: this.style,
      start: this.range.start,
      end: this.textEnd,
      loaded: this.loaded,
      ...(this.block !== undefined ? { block: this.block } : {}),
    });
    return this.map;
  }
}

/** A null scalar with no text (`key:` alone, a missing flow value), at one position. */
export function emptyScalar(text: string, at: number): LoadedScalar {
  return new LoadedScalar({ start: at, end: at }, null, "plain", null, text, at, "", undefined);
}

/** Up to this many entries a mapping is searched in order; a bigger one gets a key index on first use. */
const SMALL_MAP = 8;

export class LoadedMap implements MapNode {
  readonly kind = "map";
  readonly entries: readonly MapEntry[];
  /** String key → index of its entry (a Map: every key, `__proto__` included, is plain data). */
  private index: Map<string, number> | undefined;

  constructor(
    readonly range: SourceRange,
    readonly flow: boolean,
    /** One entry per distinct string key (assembleEntries); copied at its exact length. */
    entries: readonly MapEntry[],
  ) {
    // Memory of big documents: a pushed array keeps up to 17 spare slots, and a Map per mapping
    // (~220 bytes) would be most of a small mapping's size, so small ones are searched instead.
    this.entries = entries.slice();
  }

  get(name: string): MapEntry | undefined {
    const entries = this.entries;
    if (entries.length <= SMALL_MAP) {
      for (const entry of entries) if (entry.name === name) return entry;
      return undefined;
    }
    this.index ??= keyIndex(entries);
    const at = this.index.get(name);
    return at === undefined ? undefined : entries[at];
  }

  /** The same keys in the same order with other ranges or values (the incremental checker's tree patch). */
  withEntries(range: SourceRange, entries: readonly MapEntry[]): LoadedMap {
    const map = new LoadedMap(range, this.flow, entries);
    map.index = this.index;
    return map;
  }
}

function keyIndex(entries: readonly MapEntry[]): Map<string, number> {
  const index = new Map<string, number>();
  entries.forEach((entry, at) => {
    if (entry.name !== null) index.set(entry.name, at);
  });
  return index;
}

export class LoadedSeq implements SeqNode {
  readonly kind = "seq";
  readonly items: readonly SpecNode[];
  readonly itemStarts: readonly number[];

  constructor(
    readonly range: SourceRange,
    readonly flow: boolean,
    items: readonly SpecNode[],
    itemStarts: readonly number[],
  ) {
    // Exact-length copies, as LoadedMap's entries.
    this.items = items.slice();
    this.itemStarts = itemStarts.slice();
  }
}

/** The root of a document that loads as null (empty, or only comments): an empty mapping. */
export function emptyRoot(): LoadedMap {
  return new LoadedMap({ start: 0, end: 0 }, false, []);
}
