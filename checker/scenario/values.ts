// A YAML node of a test file as a run-time value: ints stay ints (exact past 2^53), floats stay
// floats, mappings become dicts in the order written, so a result reaches the interpreter as an
// agent would send it in JSON.
import { makeDict } from "../../stdlib/values/dict";
import { PyFloat, type PyValue } from "../../stdlib/values/value";
import type { SpecNode } from "../yaml/nodes";
import { YamlTimestamp } from "../yaml/nodes";

export function nodeValue(node: SpecNode): PyValue {
  switch (node.kind) {
    case "scalar": {
      const v = node.value;
      if (v instanceof YamlTimestamp) return v.text;
      return v;
    }
    case "seq":
      return node.items.map(nodeValue);
    case "map":
      return makeDict(
        node.entries.map(
          (e) =>
            [e.name ?? (e.key.kind === "scalar" ? String(e.key.value) : ""), nodeValue(e.value)] as const,
        ),
      );
  }
}

/** The JSON kind of a node as the contract check names kinds. */
export function nodeKind(
  node: SpecNode,
): "string" | "integer" | "number" | "boolean" | "null" | "array" | "object" {
  if (node.kind === "seq") return "array";
  if (node.kind === "map") return "object";
  const v = node.value;
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number" || typeof v === "bigint") return "integer";
  if (v instanceof PyFloat) return "number";
  return "string";
}
