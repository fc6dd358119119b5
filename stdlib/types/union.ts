// Union construction and normalisation of checker types (docs/reference/language.md §10.12.1).
// Invariants of the result of `union`: `any` absorbs everything; nested unions are flattened;
// structurally equal members appear once; enumerations of one kind merge (`str{'a'} | str{'b'}` is
// `str{'a','b'}`, and an enumeration next to its plain kind disappears into it).
import { ANY, NONE, type Type } from "./type";

/** The members of a type: itself, or a union's members. */
export function members(t: Type): readonly Type[] {
  return t.k === "union" ? t.members : [t];
}

/** True when `none` is one of the members. */
export function hasNone(t: Type): boolean {
  return members(t).some((m) => m.k === "none");
}

/** The type without its `none` members (`none` itself stays `none`). */
export function withoutNone(t: Type): Type {
  if (t.k !== "union") return t;
  const rest = t.members.filter((m) => m.k !== "none");
  return rest.length === 0 ? NONE : union(...rest);
}

/** `T | none`. */
export function optional(t: Type): Type {
  return union(t, NONE);
}

export function typeEquals(a: Type, b: Type): boolean {
  if (a === b) return true;
  switch (a.k) {
    case "any":
    case "none":
    case "bool":
      return a.k === b.k;
    case "int":
    case "float":
      return a.k === b.k && sameValues(a.values, (b as typeof a).values);
    case "str":
      return b.k === "str" && sameValues(a.values, b.values);
    case "list":
    case "tupleOf":
    case "generator":
      return a.k === b.k && typeEquals(a.elem, (b as typeof a).elem);
    case "tuple":
      return (
        b.k === "tuple" &&
        a.elems.length === b.elems.length &&
        a.elems.every((e, i) => typeEquals(e, b.elems[i] as Type))
      );
    case "dict":
    case "items":
      return (
        a.k === b.k && typeEquals(a.key, (b as typeof a).key) && typeEquals(a.value, (b as typeof a).value)
      );
    case "record":
      return b.k === "record" && a.record === b.record;
    case "ns":
      return b.k === "ns" && typeEquals(a.of, b.of);
    case "keys":
      return b.k === "keys" && typeEquals(a.key, b.key);
    case "values":
      return b.k === "values" && typeEquals(a.value, b.value);
    case "method":
      return b.k === "method" && a.name === b.name && optionalEquals(a.receiver, b.receiver);
    case "union":
      return (
        b.k === "union" &&
        a.members.length === b.members.length &&
        a.members.every((m) => b.members.some((n) => typeEquals(m, n)))
      );
  }
}

function optionalEquals(a: Type | undefined, b: Type | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return typeEquals(a, b);
}

function sameValues<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

type EnumKind = "str" | "int" | "float";

/** Merges enumeration members of one kind: plain kind wins, else the value sets are joined. */
function mergeEnums(kind: EnumKind, ts: readonly Type[]): Type | null {
  const same = ts.filter((t) => t.k === kind) as { k: EnumKind; values?: readonly (string | number)[] }[];
  if (same.length === 0) return null;
  if (same.some((t) => t.values === undefined)) return { k: kind };
  const values: (string | number)[] = [];
  for (const t of same) for (const v of t.values ?? []) if (!values.includes(v)) values.push(v);
  return { k: kind, values } as Type;
}

export function union(...ts: Type[]): Type {
  const flat: Type[] = [];
  for (const t of ts) {
    if (t.k === "any") return ANY;
    if (t.k === "union") flat.push(...t.members);
    else flat.push(t);
  }
  const out: Type[] = [];
  const enumDone = new Set<string>();
  for (const t of flat) {
    if (t.k === "str" || t.k === "int" || t.k === "float") {
      if (enumDone.has(t.k)) continue;
      enumDone.add(t.k);
      out.push(mergeEnums(t.k, flat) as Type);
      continue;
    }
    if (!out.some((o) => typeEquals(o, t))) out.push(t);
  }
  if (out.length === 0) return ANY;
  if (out.length === 1) return out[0] as Type;
  return { k: "union", members: out };
}
