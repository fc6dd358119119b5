// Typed access to the fields of one mapping (model/types.ts `Fields`). A field is valid when its
// key belongs to the mapping's schema in this version (unknown and unsupported keys never are) and
// nothing in its value got a structural value diagnostic (the walker's `tainted` set).

import type { Version } from "../base/version";
import { type ResolvedShape, resolveShape } from "../schema/resolve-shape";
import { integralValue, numberValue } from "../schema/scalars";
import type { ShapeName } from "../schema/spec-schema-types";
import type { MapEntry, MapNode, ScalarNode, SeqNode, SpecNode } from "../yaml/nodes";
import type { Field, Fields } from "./types";

export class MapFields implements Fields {
  private readonly shape: ResolvedShape;

  constructor(
    readonly node: MapNode,
    shape: ShapeName,
    version: Version,
    private readonly tainted: ReadonlySet<SpecNode>,
  ) {
    this.shape = resolveShape(shape, version);
  }

  entry(key: string): MapEntry | undefined {
    return this.node.get(key);
  }

  valid(key: string): boolean {
    const entry = this.node.get(key);
    return entry !== undefined && !this.tainted.has(entry.value) && this.isSchemaKey(key);
  }

  /** True when the key is allowed in this mapping in the document's version (present or not). */
  isSchemaKey(key: string): boolean {
    if (this.shape.keys.has(key)) return true;
    return this.shape.spec.otherKeys === "any";
  }

  string(key: string): Field<string> | null {
    return this.scalarField(key, (v) => (typeof v === "string" ? v : undefined));
  }

  nullableString(key: string): Field<string | null> | null {
    return this.scalarField(key, (v) => (typeof v === "string" || v === null ? v : undefined));
  }

  integer(key: string): Field<number> | null {
    return this.scalarField(key, (v) => integralValue(v) ?? undefined);
  }

  number(key: string): Field<number> | null {
    return this.scalarField(key, (v) => numberValue(v) ?? undefined);
  }

  boolean(key: string): Field<boolean> | null {
    return this.scalarField(key, (v) => (typeof v === "boolean" ? v : undefined));
  }

  map(key: string): Field<MapNode> | null {
    const entry = this.validEntry(key);
    return entry?.value.kind === "map" ? { value: entry.value, entry } : null;
  }

  seq(key: string): Field<SeqNode> | null {
    const entry = this.validEntry(key);
    return entry?.value.kind === "seq" ? { value: entry.value, entry } : null;
  }

  strings(key: string): Field<readonly ScalarNode[]> | null {
    const seq = this.seq(key);
    if (seq === null) return null;
    const items: ScalarNode[] = [];
    for (const item of seq.value.items) {
      if (item.kind !== "scalar" || typeof item.value !== "string") return null;
      items.push(item);
    }
    return { value: items, entry: seq.entry };
  }

  private validEntry(key: string): MapEntry | undefined {
    return this.valid(key) ? this.node.get(key) : undefined;
  }

  private scalarField<T>(key: string, read: (v: ScalarNode["value"]) => T | undefined): Field<T> | null {
    const entry = this.validEntry(key);
    if (entry === undefined || entry.value.kind !== "scalar") return null;
    const value = read(entry.value.value);
    return value === undefined ? null : { value, entry };
  }
}
