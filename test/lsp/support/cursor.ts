// Cursor markers for LSP tests: `<|>` in a spec text marks a position; `cursors` removes every
// marker and gives their offsets (in order) and protocol positions.
import type { Position } from "vscode-languageserver-protocol";
import { PositionIndex } from "../../../lsp/positions";

const MARKER = "<|>";

export interface Marked {
  readonly text: string;
  readonly offsets: readonly number[];
  readonly positions: readonly Position[];
}

export function cursors(marked: string): Marked {
  const parts = marked.split(MARKER);
  const offsets: number[] = [];
  let text = "";
  parts.forEach((part, i) => {
    if (i > 0) offsets.push(text.length);
    text += part;
  });
  const index = new PositionIndex(text);
  return { text, offsets, positions: offsets.map((o) => index.positionAt(o)) };
}

/** The one marker of `marked`. */
export function cursor(marked: string): { text: string; offset: number; position: Position } {
  const m = cursors(marked);
  if (m.offsets.length !== 1) throw new Error(`expected exactly one ${MARKER}, found ${m.offsets.length}`);
  return { text: m.text, offset: m.offsets[0]!, position: m.positions[0]! };
}
