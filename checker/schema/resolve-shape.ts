// A shape of the spec format as one version sees it, and the lookups the structure phase, the
// JSON Schema export and the editor services share.
import type { Version } from "../base/version";
import { SHAPES } from "./spec-schema";
import type { ConditionalRequired, KeySpec, ShapeName, ShapeSpec, VersionedList } from "./spec-schema-types";

export function forVersion(list: VersionedList, version: Version): readonly string[] {
  return isVersioned(list) ? list[version] : list;
}

function isVersioned(list: VersionedList): list is { readonly [V in Version]: readonly string[] } {
  return !Array.isArray(list);
}

/** A shape as one version sees it: its keys (by name, in catalogue order) and required list. */
export interface ResolvedShape {
  readonly spec: ShapeSpec;
  readonly version: Version;
  readonly keys: ReadonlyMap<string, KeySpec>;
  readonly required: readonly string[];
  /** Keys of this shape that exist only in a later version, with that version (for the suggestion). */
  readonly laterKeys: ReadonlyMap<string, Version>;
}

const resolvedCache = new Map<string, ResolvedShape>();

export function resolveShape(name: ShapeName, version: Version): ResolvedShape {
  const cacheKey = `${version}:${name}`;
  const hit = resolvedCache.get(cacheKey);
  if (hit !== undefined) return hit;
  const spec = SHAPES[name];
  const keys = new Map<string, KeySpec>();
  const laterKeys = new Map<string, Version>();
  for (const key of spec.keys) {
    if (key.since !== undefined && key.since > version) laterKeys.set(key.name, key.since);
    else keys.set(key.name, key);
  }
  const resolved: ResolvedShape = {
    spec,
    version,
    keys,
    required: forVersion(spec.required, version),
    laterKeys,
  };
  resolvedCache.set(cacheKey, resolved);
  return resolved;
}

/** The conditional requirements of a shape that apply in this version. */
export function conditionalRequired(shape: ResolvedShape): readonly ConditionalRequired[] {
  return (shape.spec.requiredIf ?? []).filter((c) => c.versions.includes(shape.version));
}

/** The allowed values of an enum key of a shape in a version (empty when the key is no enum). */
export function enumValues(name: ShapeName, key: string, version: Version): readonly string[] {
  const spec = resolveShape(name, version).keys.get(key)?.value;
  return spec?.kind === "enum" ? forVersion(spec.values, version) : [];
}
