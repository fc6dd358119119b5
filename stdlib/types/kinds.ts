// Member-kind predicates shared by the typing rules (members are never unions or `any`).
import type { Type } from "./type";

export function isNumber(m: Type): boolean {
  return m.k === "bool" || m.k === "int" || m.k === "float";
}

/** bool or int: usable as an integer (indices, repetition counts). */
export function isIntLike(m: Type): boolean {
  return m.k === "bool" || m.k === "int";
}

export function isTuple(m: Type): boolean {
  return m.k === "tuple" || m.k === "tupleOf";
}

/** dict, record (a nested object) or namespace: key-based containers. */
export function isMapping(m: Type): boolean {
  return m.k === "dict" || m.k === "record" || m.k === "ns";
}

/** Definitely unhashable at run time (a fixed tuple is unhashable if an element certainly is). */
export function isUnhashable(m: Type): boolean {
  switch (m.k) {
    case "list":
    case "dict":
    case "record":
    case "ns":
    case "keys":
    case "values":
    case "items":
      return true;
    case "tuple":
      return m.elems.some((e) => e.k !== "union" && e.k !== "any" && isUnhashable(e));
    default:
      return false;
  }
}

/** The member that makes `m` unhashable (for the `unhashable type: '<t>'` message). */
export function unhashablePart(m: Type): Type {
  if (m.k === "tuple") {
    const bad = m.elems.find((e) => e.k !== "union" && e.k !== "any" && isUnhashable(e));
    return bad === undefined ? m : unhashablePart(bad);
  }
  return m;
}
