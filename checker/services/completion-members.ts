// What follows `x.` for a value of a static type (docs/reference/language.md §10.8.9): the fields of a record or
// of the namespace over it, and the methods of str, list, tuple and dict (namespaces and records
// reach the mapping methods get/keys/values/items when called).
import { METHODS, type MethodReceiver, type MethodSpec } from "../../stdlib/builtins/methods";
import { typeToString } from "../../stdlib/types/print";
import type { RecordField, RecordType, Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import type { CompletionItemInfo } from "./types";

const MAPPING_METHODS = ["get", "keys", "values", "items"] as const;

/** The record a member reads fields of (a record, or a namespace over one). */
function recordOfMember(m: Type): RecordType | null {
  if (m.k === "record") return m.record;
  if (m.k === "ns" && m.of.k === "record") return m.of.record;
  return null;
}

/** The method receiver kinds a member has. */
function receiversOf(t: Type): MethodReceiver[] {
  const out = new Set<MethodReceiver>();
  for (const m of members(t)) {
    if (m.k === "str" || m.k === "list") out.add(m.k);
    else if (m.k === "tuple" || m.k === "tupleOf") out.add("tuple");
    else if (m.k === "dict" || m.k === "record" || m.k === "ns") out.add("dict");
  }
  return [...out];
}

function fieldDetail(field: RecordField): string {
  return typeToString(field.type);
}

export function fieldDoc(record: RecordType, name: string, field: RecordField): string {
  const written = field.written !== undefined ? ` (\`type: ${field.written}\`)` : "";
  const optional = field.optional ? ", optional" : "";
  return `Field \`${name}\` of contract \`${record.name}\`${written}${optional}.`;
}

/** Field completions: every field of every record member, first occurrence wins. */
export function fieldItems(t: Type): CompletionItemInfo[] {
  const seen = new Set<string>();
  const out: CompletionItemInfo[] = [];
  for (const m of members(t)) {
    const record = recordOfMember(m);
    if (record === null) continue;
    for (const [name, field] of record.fields) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({
        label: name,
        kind: "field",
        detail: fieldDetail(field),
        documentation: fieldDoc(record, name, field),
        sortText: `0${String(out.length).padStart(4, "0")}`,
      });
    }
  }
  return out;
}

function methodItem(spec: MethodSpec, sortText: string): CompletionItemInfo {
  return { label: spec.name, kind: "method", detail: spec.signature, documentation: spec.doc, sortText };
}

/** Method completions for every receiver kind of `t` (a name shared by kinds appears once). */
function methodItems(t: Type): CompletionItemInfo[] {
  const seen = new Set<string>();
  const out: CompletionItemInfo[] = [];
  for (const receiver of receiversOf(t)) {
    const names =
      receiver === "dict"
        ? [...MAPPING_METHODS]
        : [...METHODS.values()].filter((m) => m.receiver === receiver).map((m) => m.name);
    for (const name of names) {
      const spec = METHODS.get(`${receiver}.${name}`);
      if (spec === undefined || seen.has(name)) continue;
      seen.add(name);
      out.push(methodItem(spec, `1${name}`));
    }
  }
  return out;
}

/** Everything valid after `x.` for x of type `t`: fields first, then methods. */
export function memberItems(t: Type): CompletionItemInfo[] {
  return [...fieldItems(t), ...methodItems(t)];
}

/** The methods named `name` that a value of type `t` may have (all receivers when unknown). */
export function methodsNamed(t: Type | null, name: string): MethodSpec[] {
  const receivers =
    t === null || t.k === "any" ? (["str", "list", "tuple", "dict"] as const) : receiversOf(t);
  const out: MethodSpec[] = [];
  for (const r of receivers) {
    const spec = METHODS.get(`${r}.${name}`);
    if (spec !== undefined) out.push(spec);
  }
  return out;
}
