// Go to definition, find references, rename, document symbols and folding.
// Implemented over the symbol index (symbols.ts); the outline and folding ranges come from the YAML
// tree (outline.ts, folding.ts), so they also work on a document whose YAML is broken.
import { folding } from "./folding";
import { planRename, renameGroup } from "./navigation-rename";
import { outline } from "./outline";
import { type Occurrence, occurrenceAt, type SymbolIndex, type SymbolInfo, symbolIndex } from "./symbols";
import type { DocumentSymbolInfo, FoldingRangeInfo, OffsetRange, RenameResult, SpecDocument } from "./types";

/** Where the symbol at `offset` is defined (a step id, function, flow, contract name). */
export function definitionAt(doc: SpecDocument, offset: number): readonly OffsetRange[] {
  const index = symbolIndex(doc);
  const occ = occurrenceAt(index, offset);
  if (occ === null) return [];
  return ranges(index, occ, (info) => info.definitions);
}

/** Every reference to the symbol at `offset` (and its definition when asked). */
export function referencesAt(
  doc: SpecDocument,
  offset: number,
  includeDeclaration: boolean,
): readonly OffsetRange[] {
  const index = symbolIndex(doc);
  const occ = occurrenceAt(index, offset);
  if (occ === null) return [];
  return ranges(index, occ, (info) =>
    includeDeclaration ? [...info.definitions, ...info.references] : info.references,
  );
}

/** The range of the renameable symbol at `offset` and its current name, or null. */
export function prepareRename(
  doc: SpecDocument,
  offset: number,
): { range: OffsetRange; placeholder: string } | null {
  const index = symbolIndex(doc);
  const occ = occurrenceAt(index, offset);
  if (occ === null) return null;
  const group = renameGroup(index, occ);
  const first = group?.[0];
  if (first === undefined) return null;
  return { range: occ.range, placeholder: first.name };
}

/** Edits renaming the symbol at `offset` everywhere, `$.steps.<id>` inside expressions included. */
export function renameAt(doc: SpecDocument, offset: number, newName: string): RenameResult {
  const index = symbolIndex(doc);
  const occ = occurrenceAt(index, offset);
  const model = doc.check.model;
  if (occ === null || model === null)
    return { ok: false, message: "No step, function, flow, contract or input here" };
  const group = renameGroup(index, occ);
  if (group === null)
    return { ok: false, message: "This name cannot be renamed (it is not declared in this document)" };
  return planRename(model, group, newName);
}

/** Flows → steps, functions, contracts → fields, workflow. */
export function documentSymbols(doc: SpecDocument): readonly DocumentSymbolInfo[] {
  return outline(doc);
}

export function foldingRanges(doc: SpecDocument): readonly FoldingRangeInfo[] {
  return folding(doc);
}

/** The ranges of the chosen occurrences of every symbol named at `occ`, in file order, once each. */
function ranges(
  index: SymbolIndex,
  occ: Occurrence,
  pick: (info: SymbolInfo) => readonly Occurrence[],
): OffsetRange[] {
  const seen = new Set<string>();
  const out: OffsetRange[] = [];
  for (const key of occ.symbols) {
    const info = index.symbols.get(key);
    if (info === undefined) continue;
    for (const o of pick(info)) {
      const k = `${o.range.start}:${o.range.end}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(o.range);
    }
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}
