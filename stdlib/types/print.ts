// Printing checker types (hover, messages) and the Python type name of a single-kind type.
import { floatRepr, strRepr } from "../values/repr";
import type { Type } from "./type";

/** An enumeration literal as Python prints it (int enumerations hold integers). */
function literalText(kind: "int" | "float" | "str", v: string | number): string {
  if (typeof v === "string") return strRepr(v);
  return kind === "float" ? floatRepr(v) : String(v);
}

/** `list[int]`, `str | none`, `str{'a','b'}`, `tuple[int, ...]`, `ns[Review]`. */
export function typeToString(t: Type): string {
  switch (t.k) {
    case "any":
    case "none":
    case "bool":
      return t.k;
    case "int":
    case "float":
    case "str":
      return t.values === undefined ? t.k : `${t.k}{${t.values.map((v) => literalText(t.k, v)).join(",")}}`;
    case "list":
      return `list[${typeToString(t.elem)}]`;
    case "tuple":
      return t.elems.length === 0 ? "tuple[()]" : `tuple[${t.elems.map(typeToString).join(", ")}]`;
    case "tupleOf":
      return `tuple[${typeToString(t.elem)}, ...]`;
    case "dict":
      return `dict[${typeToString(t.key)}, ${typeToString(t.value)}]`;
    case "record":
      return t.record.name;
    case "ns":
      return `ns[${typeToString(t.of)}]`;
    case "keys":
      return `keys[${typeToString(t.key)}]`;
    case "values":
      return `values[${typeToString(t.value)}]`;
    case "items":
      return `items[${typeToString(t.key)}, ${typeToString(t.value)}]`;
    case "generator":
      return `generator[${typeToString(t.elem)}]`;
    case "method":
      return "method";
    case "union":
      return t.members.map(typeToString).join(" | ");
  }
}

/** The Python type name of one non-union member (a record is a plain dict at run time). */
export function memberPyName(t: Type): string | null {
  switch (t.k) {
    case "any":
    case "union":
      return null;
    case "none":
      return "NoneType";
    case "bool":
    case "int":
    case "float":
    case "str":
    case "list":
      return t.k;
    case "tuple":
    case "tupleOf":
      return "tuple";
    case "dict":
    case "record":
      return "dict";
    case "ns":
      return "types.SimpleNamespace";
    case "keys":
    case "values":
    case "items":
      return `dict_${t.k}`;
    case "generator":
      return "generator";
    case "method":
      return "builtin_function_or_method";
  }
}

/** The Python type name when every member of `t` has the same one (for messages); else null. */
export function pyTypeName(t: Type): string | null {
  if (t.k !== "union") return memberPyName(t);
  const names = new Set(t.members.map(memberPyName));
  if (names.size !== 1) return null;
  return [...names][0] ?? null;
}
