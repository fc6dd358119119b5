// The edit that adds `<field>: null` to a step mapping (the SPEC-GATE-ROUTE-UNDECLARED fix): in a
// block mapping a new line after the step's last line, indented like the step's keys; in a flow
// mapping `, <field>: null` right after the last entry, before the closing brace.
import type { SourceEdit } from "../../diagnostic";
import type { SpecSource } from "../../source";
import type { MapNode } from "../../yaml/nodes";

export function insertNullField(src: SpecSource, map: MapNode, field: string): SourceEdit | null {
  const last = map.entries[map.entries.length - 1];
  const first = map.entries[0];
  if (last === undefined || first === undefined) return null;
  const text = src.text;
  // The end of the last entry's content (an empty value ends at its key).
  let end = Math.max(last.key.range.end, last.value.range.end);
  while (end > 0 && isBreak(text.charCodeAt(end - 1))) end--;
  if (map.flow) return { range: { start: end, end }, newText: `, ${field}: null` };
  // Block mapping: insert before the line break that ends the last content line (after any comment).
  let lineEnd = end;
  while (lineEnd < text.length && !isBreak(text.charCodeAt(lineEnd))) lineEnd++;
  const eol = text.startsWith("\r\n", lineEnd) ? "\r\n" : text[lineEnd] === "\r" ? "\r" : "\n";
  const indent = " ".repeat(first.key.range.start - lineStart(text, first.key.range.start));
  return { range: { start: lineEnd, end: lineEnd }, newText: `${eol}${indent}${field}: null` };
}

function isBreak(c: number): boolean {
  return c === 10 || c === 13;
}

function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && !isBreak(text.charCodeAt(i - 1))) i--;
  return i;
}
