// The loaded YAML document as the checker sees it (docs/reference/language.md §1.1): a tree of mappings, sequences
// and scalars whose values follow PyYAML's YAML 1.1 typing, every node with its exact source range.
// All offsets are UTF-16 offsets into the file text (what JS strings index); `checker/location.ts`
// converts them to lines and code-point columns.
import type { PyFloat } from "../../stdlib/values/value";
import type { SourceRange } from "../base/source-range";

export type ScalarStyle = "plain" | "single" | "double" | "literal" | "folded";

/** A YAML 1.1 date or timestamp (never valid for any field; shown in messages as Python shows it). */
export class YamlTimestamp {
  constructor(
    /** The scalar as written. */
    readonly text: string,
    /** Python's repr, e.g. `datetime.date(2024, 1, 1)`. */
    readonly pythonRepr: string,
  ) {}
}

/** Scalar values after PyYAML-compatible resolution. Ints are exact (bigint beyond 2^53). */
export type YamlScalar = null | boolean | number | bigint | PyFloat | string | YamlTimestamp;

export interface ScalarNode {
  readonly kind: "scalar";
  /** The whole node as written: quotes, block header and indentation included. */
  readonly range: SourceRange;
  readonly value: YamlScalar;
  readonly style: ScalarStyle;
  /** The explicit tag as written (`!!str`), or null. */
  readonly tag: string | null;
  /**
   * Maps loaded characters back to the source (docs/reference/language.md §9.2): `[start, end)` are UTF-16 indices into the
   * loaded string (for a non-string scalar, its text before typing: `0x1F`, `2024-01-01`). The
   * result starts at the source character
   * that produced character `start` and ends just after the source character that produced
   * character `end - 1`; an empty range at `value.length` is the position just after the content.
   */
  mapRange(start: number, end: number): SourceRange;
}

export interface MapEntry {
  /** The key node (for a duplicated key: the last occurrence, whose value is used). */
  readonly key: SpecNode;
  /** The key as a string; null when it does not load as a string (`1:`, `on:`, a mapping key). */
  readonly name: string | null;
  readonly value: SpecNode;
}

export interface MapNode {
  readonly kind: "map";
  readonly range: SourceRange;
  /** Written in flow style (`{a: 1}`). */
  readonly flow: boolean;
  /**
   * One entry per distinct string key, in first-occurrence order with the last occurrence's key and
   * value (Python dict semantics); entries whose key is not a string are kept, each on its own.
   * Merge keys (`<<`) are already applied and do not appear.
   */
  readonly entries: readonly MapEntry[];
  /** The entry of a string key; safe for every name including `__proto__`. */
  get(name: string): MapEntry | undefined;
}

export interface SeqNode {
  readonly kind: "seq";
  readonly range: SourceRange;
  readonly flow: boolean;
  readonly items: readonly SpecNode[];
  /** Offset of each item's `-` indicator in a block sequence; the item's start in a flow sequence. */
  readonly itemStarts: readonly number[];
}

export type SpecNode = ScalarNode | MapNode | SeqNode;
