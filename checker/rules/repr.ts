// Python-style representations of loaded YAML values for messages (language.md §9.4).
import { floatRepr, strRepr } from "../../stdlib/values/repr";
import { PyFloat } from "../../stdlib/values/value";
import { type SpecNode, type YamlScalar, YamlTimestamp } from "../yaml/nodes";

export function scalarRepr(v: YamlScalar): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return strRepr(v);
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return String(v);
  if (v instanceof PyFloat) return floatRepr(v.v);
  if (v instanceof YamlTimestamp) return v.pythonRepr;
  return String(v);
}

/** The repr of a loaded node: scalars, `[…]` for sequences, `{…: …}` for mappings. */
export function nodeRepr(node: SpecNode): string {
  switch (node.kind) {
    case "scalar":
      return scalarRepr(node.value);
    case "seq":
      return `[${node.items.map(nodeRepr).join(", ")}]`;
    case "map":
      return `{${node.entries.map((e) => `${nodeRepr(e.key)}: ${nodeRepr(e.value)}`).join(", ")}}`;
  }
}

/** A Python list of strings: `['a', 'b']`. */
export function pyStringList(items: readonly string[]): string {
  return `[${items.map(strRepr).join(", ")}]`;
}
