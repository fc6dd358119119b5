// A loaded YAML node as user data (PyValue of the JSON kinds), exactly as written: key order kept
// (integer-like keys included, unlike a JS object), ints and floats kept apart, big ints exact.
// A date or timestamp becomes its source text (JSON has no date type).

import { type SpecNode, YamlTimestamp } from "../../checker/yaml/nodes";
import { pythonRepr } from "../../checker/yaml/repr";
import { makeDict } from "../../stdlib/values/dict";
import type { PyValue } from "../../stdlib/values/value";

export function nodeToValue(node: SpecNode): PyValue {
  switch (node.kind) {
    case "scalar":
      return node.value instanceof YamlTimestamp ? node.value.text : node.value;
    case "seq":
      return node.items.map(nodeToValue);
    case "map":
      // Keys that are not strings never reach here in a valid spec (SCHEMA-KEY-NOT-STRING).
      return makeDict(node.entries.map((e) => [e.name ?? pythonRepr(e.key), nodeToValue(e.value)] as const));
  }
}
