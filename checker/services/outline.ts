// Document symbols: contracts → fields, functions, flows → inputs and steps, and
// the workflow, in document order. Read from the YAML tree (outline-tree.ts) so that the outline
// survives broken YAML and structural errors; a step's kind is read from its selector keys the way
// the model resolves it (docs/reference/language.md §6.1).
import type { MapEntry, MapNode, SpecNode } from "../yaml/nodes";
import { documentTree, trimmedRange } from "./outline-tree";
import { nameRange } from "./symbols";
import type { DocumentSymbolInfo, OffsetRange, SpecDocument, SymbolKind } from "./types";

export function outline(doc: SpecDocument): DocumentSymbolInfo[] {
  const root = documentTree(doc);
  if (root.kind !== "map") return [];
  const text = doc.text;
  const functions = mapValue(root.get("functions"));
  const out: DocumentSymbolInfo[] = [];
  for (const section of root.entries) {
    const value = section.value;
    switch (section.name) {
      case "contracts":
        for (const c of namedEntries(value)) {
          const fields = namedEntries(c.value).map((f) =>
            entrySymbol(text, f, "field", fieldType(f.value), []),
          );
          out.push(entrySymbol(text, c, "contract", count(fields.length, "field"), fields));
        }
        break;
      case "functions":
        for (const f of namedEntries(value))
          out.push(entrySymbol(text, f, "function", stringAt(f.value, "mode"), []));
        break;
      case "flows":
        for (const f of namedEntries(value)) out.push(flowSymbol(text, f, functions));
        break;
      case "workflow":
        out.push(workflowSymbol(text, section));
        break;
    }
  }
  return out;
}

function flowSymbol(
  text: string,
  flow: MapEntry & { name: string },
  functions: MapNode | null,
): DocumentSymbolInfo {
  const body = mapValue(flow);
  const inputs = namedEntries(body?.get("input")?.value).map((i) =>
    entrySymbol(text, i, "input", stringAt(i.value, "type"), []),
  );
  const stepsNode = body?.get("steps")?.value;
  const steps: DocumentSymbolInfo[] = [];
  if (stepsNode?.kind === "seq") {
    stepsNode.items.forEach((item, i) => {
      const dash = stepsNode.itemStarts[i] ?? item.range.start;
      const id = item.kind === "map" ? item.get("id")?.value : undefined;
      const named = id?.kind === "scalar" && typeof id.value === "string" && id.value !== "";
      const selection: OffsetRange = named ? nameRange(id) : { start: dash, end: dash + 1 };
      steps.push({
        name: named ? (id.value as string) : `steps[${i}]`,
        kind: "step",
        detail: item.kind === "map" ? stepKind(item, functions) : "",
        range: trimmedRange(text, Math.min(dash, selection.start), Math.max(item.range.end, selection.end)),
        selectionRange: selection,
        children: [],
      });
    });
  }
  return entrySymbol(text, flow, "flow", count(steps.length, "step"), [...inputs, ...steps]);
}

function workflowSymbol(text: string, entry: MapEntry): DocumentSymbolInfo {
  const name = mapValue(entry)?.get("name")?.value;
  const named = name?.kind === "scalar" && typeof name.value === "string" && name.value !== "";
  return {
    name: named ? (name.value as string) : "workflow",
    kind: "workflow",
    detail: "workflow",
    range: entryRange(text, entry),
    selectionRange: named ? nameRange(name) : keyRange(entry),
    children: [],
  };
}

/** The kind as docs/reference/language.md §6.1 selects it: `flow` → sub-flow, `intent` → inline, `function` → its mode. */
function stepKind(step: MapNode, functions: MapNode | null): string {
  if (stringAt(step, "flow") !== "") return "flow";
  const fn = stringAt(step, "function");
  if (fn !== "") return stringAt(functions?.get(fn)?.value, "mode") === "gate" ? "gate" : "function";
  if (stringAt(step, "intent") !== "") return "inline";
  return "";
}

/** A field's type as written; `array of <items.type>` for a typed array. */
function fieldType(def: SpecNode): string {
  const type = stringAt(def, "type");
  const items = def.kind === "map" ? stringAt(def.get("items")?.value, "type") : "";
  return type === "array" && items !== "" ? `array of ${items}` : type;
}

function entrySymbol(
  text: string,
  entry: MapEntry & { name: string },
  kind: SymbolKind,
  detail: string,
  children: DocumentSymbolInfo[],
): DocumentSymbolInfo {
  return {
    name: entry.name,
    kind,
    detail,
    range: entryRange(text, entry),
    selectionRange: keyRange(entry),
    children,
  };
}

function entryRange(text: string, entry: MapEntry): OffsetRange {
  return trimmedRange(text, entry.key.range.start, Math.max(entry.key.range.end, entry.value.range.end));
}

function keyRange(entry: MapEntry): OffsetRange {
  return entry.key.kind === "scalar" ? nameRange(entry.key) : entry.key.range;
}

function namedEntries(node: SpecNode | undefined): (MapEntry & { name: string })[] {
  if (node?.kind !== "map") return [];
  return node.entries.filter((e): e is MapEntry & { name: string } => e.name !== null);
}

function mapValue(entry: MapEntry | undefined): MapNode | null {
  return entry?.value.kind === "map" ? entry.value : null;
}

/** The string value of `key` in a mapping node, or "". */
function stringAt(node: SpecNode | undefined, key: string): string {
  if (node?.kind !== "map") return "";
  const v = node.get(key)?.value;
  return v?.kind === "scalar" && typeof v.value === "string" ? v.value : "";
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
