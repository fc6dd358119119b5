// Fixes inside expression and reference scalars. An edit computed on the loaded string is mapped
// to the file only when replacing the mapped source text certainly yields the intended loaded text:
// the edited span must be written literally in the source (no escape, no folded line break, no
// `''`) and the new text must need no escaping in the scalar's style. Otherwise the fix is dropped.
import type { SourceEdit, SpecFix } from "../diagnostic";
import type { ExprFix } from "../expr/types";
import type { SpecSource } from "../source";
import type { ScalarNode } from "../yaml/nodes";

const LINE_BREAK = /[\r\n]/;
/** Characters that keep their meaning anywhere inside a plain scalar (names, `==`, `!=`, dots). */
const PLAIN_SAFE = /^[A-Za-z0-9_=!.]*$/;

function safeForStyle(node: ScalarNode, text: string): boolean {
  if (LINE_BREAK.test(text)) return false;
  switch (node.style) {
    case "plain":
      return PLAIN_SAFE.test(text);
    case "single":
      return !text.includes("'");
    case "double":
      return !text.includes('"') && !text.includes("\\");
    case "literal":
    case "folded":
      // Leading blanks could change a line's indentation, which block scalars interpret.
      return !/^[ \t]/.test(text);
  }
}

/** One edit of the loaded string `[start, end)` as a source edit, or null when it is not safe. */
export function mapEdit(
  src: SpecSource,
  node: ScalarNode,
  start: number,
  end: number,
  newText: string,
): SourceEdit | null {
  const loaded = typeof node.value === "string" ? node.value : null;
  if (loaded === null || start >= end || end > loaded.length) return null;
  const range = node.mapRange(start, end);
  const written = src.text.slice(range.start, range.end);
  if (written !== loaded.slice(start, end) || LINE_BREAK.test(written)) return null;
  if (!safeForStyle(node, newText)) return null;
  return { range, newText };
}

/** Every edit mapped, or undefined when any of them is not safe. */
export function mapFix(src: SpecSource, node: ScalarNode, fix: ExprFix | undefined): SpecFix | undefined {
  if (fix === undefined || fix.edits.length === 0) return undefined;
  const edits: SourceEdit[] = [];
  for (const e of [...fix.edits].sort((a, b) => a.start - b.start)) {
    const edit = mapEdit(src, node, e.start, e.end, e.newText);
    if (edit === null) return undefined;
    edits.push(edit);
  }
  return {
    description: fix.description,
    edits,
    ...(fix.machineApplicable === false ? { machineApplicable: false as const } : {}),
  };
}
