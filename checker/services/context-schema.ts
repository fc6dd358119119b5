// What the spec format says about a YAML key path (checker/schema/spec-schema.ts, the one
// description of 0.1/0.2), and the names a document declares, read from its YAML tree so that they
// are available while the document is broken.
import type { Version } from "../base/version";
import { forVersion, resolveShape } from "../schema/resolve-shape";
import { VERSIONS } from "../schema/spec-schema";
import type { KeySpec, ValueSpec } from "../schema/spec-schema-types";
import type { MapNode, SpecNode } from "../yaml/nodes";
import type { PathSeg } from "./cursor";

const ROOT_SPEC: ValueSpec = { kind: "shape", shape: "root" };

/** The value spec at `path` (null where the format says nothing: free mappings, unknown keys). */
export function valueSpecAt(path: readonly PathSeg[], version: Version): ValueSpec | null {
  let spec: ValueSpec = ROOT_SPEC;
  for (const seg of path) {
    switch (spec.kind) {
      case "shape": {
        const key: KeySpec | undefined = resolveShape(spec.shape, version).keys.get(String(seg));
        if (key === undefined) return null;
        spec = key.value;
        break;
      }
      case "mapOf":
        if (typeof seg !== "string") return null;
        spec = spec.value;
        break;
      case "seqOf":
      case "countOrSeqOf":
      case "stringOrSeqOf":
        if (typeof seg !== "number") return null;
        spec = spec.item;
        break;
      default:
        return null;
    }
  }
  return spec;
}

/** The key spec of the last segment of `path` when its parent is a shape. */
export function keySpecAt(path: readonly PathSeg[], version: Version): KeySpec | null {
  const last = path[path.length - 1];
  if (last === undefined) return null;
  const parent = valueSpecAt(path.slice(0, -1), version);
  if (parent?.kind !== "shape") return null;
  return resolveShape(parent.shape, version).keys.get(String(last)) ?? null;
}

/** The node at `path` in the tree, or null. */
export function nodeAt(root: SpecNode | null, path: readonly PathSeg[]): SpecNode | null {
  let node: SpecNode | null = root;
  for (const seg of path) {
    if (node === null) return null;
    if (node.kind === "map" && typeof seg === "string") node = node.get(seg)?.value ?? null;
    else if (node.kind === "seq" && typeof seg === "number") node = node.items[seg] ?? null;
    else return null;
  }
  return node;
}

/** The string keys of the mapping at `path`, in order. */
export function keysAt(root: SpecNode | null, path: readonly PathSeg[]): string[] {
  const node = nodeAt(root, path);
  if (node?.kind !== "map") return [];
  return node.entries.flatMap((e) => (e.name === null ? [] : [e.name]));
}

export interface TreeStep {
  readonly id: string;
  readonly index: number;
  readonly map: MapNode;
}

/** The steps of flow `flow` that have a string id, from the tree. */
export function stepsOf(root: SpecNode | null, flow: string): TreeStep[] {
  const steps = nodeAt(root, ["flows", flow, "steps"]);
  if (steps?.kind !== "seq") return [];
  const out: TreeStep[] = [];
  steps.items.forEach((item, index) => {
    if (item.kind !== "map") return;
    const id = item.get("id")?.value;
    if (id?.kind === "scalar" && typeof id.value === "string" && id.value !== "") {
      out.push({ id: id.value, index, map: item });
    }
  });
  return out;
}

/** A scalar's string value, or null. */
export function stringValue(node: SpecNode | null | undefined): string | null {
  return node?.kind === "scalar" && typeof node.value === "string" ? node.value : null;
}

/** `flows.<f>.steps.<i>` at the start of `path`: the flow name and the item index. */
export function stepOfPath(path: readonly PathSeg[]): { flow: string; index: number } | null {
  const [a, flow, b, index] = path;
  if (a !== "flows" || typeof flow !== "string" || b !== "steps" || typeof index !== "number") return null;
  return { flow, index };
}

/** One line describing a value spec, for completion details and hovers. */
export function describeValue(spec: ValueSpec, version: Version): string {
  switch (spec.kind) {
    case "version":
      return VERSIONS.map((v) => `"${v}"`).join(" | ");
    case "string":
      return spec.nonEmpty === true ? "non-empty string" : "string";
    case "nullableString":
      return "string | null";
    case "integer":
      return `integer ≥ ${spec.minimum}`;
    case "number":
      return `number ≥ ${spec.minimum}`;
    case "nullableInteger":
      return `integer ≥ ${spec.minimum} | null`;
    case "enumOrInteger":
      return `${spec.values.join(" | ")} | integer ≥ ${spec.minimum}`;
    case "countOrSeqOf":
      return `integer ≥ ${spec.minimum} | list of ${describeValue(spec.item, version)}`;
    case "stringOrSeqOf":
      return `string | list of ${describeValue(spec.item, version)}`;
    case "boolean":
      return "boolean";
    case "enum":
      return forVersion(spec.values, version).join(" | ");
    case "any":
      return "any";
    case "freeMapping":
      return "mapping";
    case "shape":
      return `mapping (${resolveShape(spec.shape, version).spec.title.toLowerCase()})`;
    case "mapOf":
      return `mapping of ${spec.valueTitle}s`;
    case "seqOf":
      return spec.item.kind === "shape"
        ? `list of ${resolveShape(spec.item.shape, version).spec.title.toLowerCase()}s`
        : `list of ${describeValue(spec.item, version)}s`;
  }
}
