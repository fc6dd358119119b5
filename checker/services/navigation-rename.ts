// Rename over the symbol index: which symbols move together, whether the new name
// is acceptable everywhere it will be written, and the edits. A name is written as a whole scalar
// (quoted when a bare scalar would not load as that string, keeping the author's quotes when it
// can) or as one `$` path segment (letters, digits and `_` only, so no quoting is ever needed).
import type { SourceEdit } from "../diagnostic";
import type { FlowDecl, SpecModel } from "../model/types";
import { isBuiltinType } from "../rules/contracts/definitions";
import { replaceScalar } from "../rules/support";
import type { ScalarNode } from "../yaml/nodes";
import type { Occurrence, SymbolIndex, SymbolInfo } from "./symbols";
import type { OffsetEdit, RenameResult } from "./types";

/** The kinds rename supports (contract fields are typed through contracts, not named by text). */
const RENAMEABLE: ReadonlySet<string> = new Set(["step", "function", "flow", "contract", "input"]);

/** `$` path segments (docs/reference/language.md §10.5): `[A-Za-z0-9_]+`. */
const SEGMENT = /^[A-Za-z0-9_]+$/;

/**
 * The symbols a rename starting at `occ` must move together: those named at the occurrence and,
 * transitively, those sharing an occurrence with them (a function's ensure path names the step of
 * every flow using the function, so renaming one such step renames them all). Null when one of
 * them cannot be renamed or has no definition.
 */
export function renameGroup(index: SymbolIndex, occ: Occurrence): SymbolInfo[] | null {
  const group = new Map<string, SymbolInfo>();
  const pending = [...occ.symbols];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    if (group.has(key)) continue;
    const info = index.symbols.get(key);
    if (info === undefined || !RENAMEABLE.has(info.kind) || info.definitions.length === 0) return null;
    group.set(key, info);
    for (const o of [...info.definitions, ...info.references]) pending.push(...o.symbols);
  }
  return [...group.values()];
}

export function planRename(model: SpecModel, group: readonly SymbolInfo[], newName: string): RenameResult {
  const first = group[0];
  if (first === undefined) return refuse("Nothing to rename here");
  const problem = nameProblem(newName);
  if (problem !== null) return refuse(problem);
  if (newName === first.name) return { ok: true, edits: [] };
  const occurrences = uniqueOccurrences(group);
  for (const info of group) {
    const taken = takenProblem(model, info, newName);
    if (taken !== null) return refuse(taken);
  }
  for (const occ of occurrences) {
    if (occ.target.form === "segment" && !SEGMENT.test(newName)) {
      return refuse(
        `${describe(first)} is referenced by a $ path (line ${lineOf(model, occ.range.start)}): '${newName}' must use only letters, digits and '_'`,
      );
    }
    if (occ.constraint !== null && !occ.constraint.pattern.test(newName)) {
      return refuse(`${describe(first)} is named by workflow.name: ${occ.constraint.what}`);
    }
    if (occ.container !== null && occ.container.get(newName) !== undefined) {
      return refuse(
        `The mapping at line ${lineOf(model, occ.container.range.start)} already has a key '${newName}'`,
      );
    }
  }
  const text = model.source.text;
  const unmapped = occurrences.find((occ) => !mapsExactly(text, occ, first.name));
  if (unmapped !== undefined) {
    // The scalar map fell back (a scalar form it does not know): an edit could land elsewhere.
    return refuse(
      `Cannot locate '${first.name}' exactly inside the scalar at line ${lineOf(model, unmapped.range.start)}`,
    );
  }
  const edits = occurrences.map((occ) => editAt(occ, newName));
  edits.sort((a, b) => a.range.start - b.range.start);
  return { ok: true, edits };
}

/** The edit writing `newName` at an occurrence. */
function editAt(occ: Occurrence, newName: string): OffsetEdit {
  const t = occ.target;
  if (t.form === "segment") return { range: t.node.mapRange(t.start, t.end), newText: newName };
  return scalarEdit(t.node, newName);
}

/** The source under an occurrence spells the name (directly, or through escapes of a quoted scalar). */
function mapsExactly(text: string, occ: Occurrence, name: string): boolean {
  const written = text.slice(occ.range.start, occ.range.end);
  if (written === name) return true;
  const t = occ.target;
  const quoted = t.node.style === "double" || t.node.style === "single";
  return quoted && written.length > 0 && (written.includes("\\") || written.includes("''"));
}

/** Replaces a string scalar by `name`, keeping the scalar loading as exactly that string. */
function scalarEdit(node: ScalarNode, name: string): SourceEdit {
  if (node.style === "literal" || node.style === "folded") {
    // A one-line name is literal text inside a block scalar: keep the header and the chomping.
    const text = typeof node.value === "string" ? node.value : "";
    return { range: node.mapRange(0, text.replace(/\n+$/, "").length), newText: name };
  }
  return replaceScalar(node, name);
}

function nameProblem(name: string): string | null {
  if (name === "") return "The new name must not be empty";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(name)) {
    return "The new name must be one line without control characters";
  }
  if (name.trim() !== name) return "The new name must not start or end with whitespace";
  return null;
}

/** A name already used in the symbol's scope (or reserved for it). */
function takenProblem(model: SpecModel, info: SymbolInfo, name: string): string | null {
  switch (info.kind) {
    case "step": {
      const flow = info.scope === null ? undefined : model.flowByName.get(info.scope);
      if (flow !== undefined && stepIds(flow).has(name))
        return `Flow '${flow.name}' already has a step '${name}'`;
      return null;
    }
    case "input": {
      const flow = info.scope === null ? undefined : model.flowByName.get(info.scope);
      const input = flow?.entry("input")?.value;
      if (flow !== undefined && input?.kind === "map" && input.get(name) !== undefined) {
        return `Flow '${flow.name}' already has an input '${name}'`;
      }
      return null;
    }
    case "function":
      return model.root.get("functions")?.value.kind === "map" && model.functionByName.has(name)
        ? `A function '${name}' already exists`
        : null;
    case "flow":
      return model.flowByName.has(name) ? `A flow '${name}' already exists` : null;
    case "contract":
      if (isBuiltinType(name)) return `'${name}' is a built-in field type: a contract cannot have that name`;
      return model.contractByName.has(name) ? `A contract '${name}' already exists` : null;
    default:
      return `${describe(info)} cannot be renamed`;
  }
}

/** Every id written in the flow's steps, valid or duplicated. */
function stepIds(flow: FlowDecl): Set<string> {
  const ids = new Set<string>();
  for (const step of flow.steps) {
    const id = step.entry("id")?.value;
    if (id?.kind === "scalar" && typeof id.value === "string") ids.add(id.value);
  }
  return ids;
}

function uniqueOccurrences(group: readonly SymbolInfo[]): Occurrence[] {
  const out = new Set<Occurrence>();
  for (const info of group) for (const o of [...info.definitions, ...info.references]) out.add(o);
  return [...out];
}

function describe(info: SymbolInfo): string {
  switch (info.kind) {
    case "step":
      return `Step '${info.name}' of flow '${info.scope}'`;
    case "input":
      return `Input '${info.name}' of flow '${info.scope}'`;
    case "field":
      return `Field '${info.name}' of contract '${info.scope}'`;
    default:
      return `${info.kind.charAt(0).toUpperCase()}${info.kind.slice(1)} '${info.name}'`;
  }
}

function lineOf(model: SpecModel, offset: number): number {
  return model.source.lineOf(offset);
}

function refuse(message: string): RenameResult {
  return { ok: false, message };
}
