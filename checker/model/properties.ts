// The `properties` block as the later phases read it (docs/guides/testing-a-spec.md "Properties"):
// one declaration per entry whose value is a mapping, with typed access to its fields. Entries with
// a structural error are still listed; each reader looks only at the fields that are valid.

import { PROPERTY_KINDS, type PropertyKind } from "../schema/spec-schema-properties";
import type { MapEntry, ScalarNode } from "../yaml/nodes";
import { MapFields } from "./fields";
import type { Field, SpecModel } from "./types";

export interface PropertyDecl {
  /** The key as written; null when it is not a string. */
  readonly name: string | null;
  /** The entry in `properties`: its key is the property's anchor. */
  readonly decl: MapEntry;
  readonly fields: MapFields;
  /** The kinds the property names, valid or not, in catalogue order. */
  readonly kinds: readonly PropertyKind[];
}

/** One expression of a property: its place in the YAML and its role. */
export interface PropertyExpressionDecl {
  readonly role: "always" | "never" | "eventually" | "from" | "to";
  readonly node: ScalarNode;
  /** The diagnostic path (`properties.<name>.always`). */
  readonly path: string;
}

const cache = new WeakMap<SpecModel, readonly PropertyDecl[]>();

export function propertiesOf(model: SpecModel): readonly PropertyDecl[] {
  let out = cache.get(model);
  if (out === undefined) {
    out = readProperties(model);
    cache.set(model, out);
  }
  return out;
}

function readProperties(model: SpecModel): PropertyDecl[] {
  const entry = model.root.get("properties");
  if (entry === undefined || entry.value.kind !== "map" || model.version === "0.1") return [];
  const out: PropertyDecl[] = [];
  for (const e of entry.value.entries) {
    if (e.value.kind !== "map") continue;
    const fields = new MapFields(e.value, "property", model.version, model.invalid);
    out.push({
      name: e.name,
      decl: e,
      fields,
      kinds: PROPERTY_KINDS.filter((k) => fields.entry(k) !== undefined),
    });
  }
  return out;
}

/** The property's one kind, when it names exactly one. */
export function kindOf(p: PropertyDecl): PropertyKind | null {
  return p.kinds.length === 1 ? (p.kinds[0] ?? null) : null;
}

/** The valid string expressions of a property with exactly one kind. */
export function propertyExpressions(p: PropertyDecl): PropertyExpressionDecl[] {
  const kind = kindOf(p);
  if (kind === null || p.name === null) return [];
  const base = `properties.${p.name}`;
  if (kind !== "leads_to") {
    const f = p.fields.string(kind);
    return f === null || f.entry.value.kind !== "scalar"
      ? []
      : [{ role: kind, node: f.entry.value, path: `${base}.${kind}` }];
  }
  const leads = p.fields.map("leads_to");
  if (leads === null) return [];
  const out: PropertyExpressionDecl[] = [];
  for (const role of ["from", "to"] as const) {
    const e = leads.value.get(role);
    if (e?.value.kind === "scalar" && typeof e.value.value === "string" && e.value.value !== "") {
      out.push({ role, node: e.value, path: `${base}.leads_to.${role}` });
    }
  }
  return out;
}

/** The property's valid `flow`. */
export function flowOf(p: PropertyDecl): Field<string> | null {
  return p.fields.string("flow");
}
