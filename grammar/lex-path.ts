// `$` paths inside expressions (docs/reference/language.md §10.5): the token's extent and its structured reference.
import type { PathRef, PathSegment } from "./ast";

export interface PathPayload {
  readonly ref: PathRef | null;
}

export interface ScannedPath {
  readonly end: number;
  readonly payload: PathPayload;
}

/** [A-Za-z0-9_] */
function isSegmentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 95 || ((c | 32) >= 97 && (c | 32) <= 122);
}

function isNameStart(c: number): boolean {
  return c === 95 || ((c | 32) >= 97 && (c | 32) <= 122);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/** Splits the run after `$.` into segments with their offsets in the text. */
function segmentsOf(text: string, runStart: number, runEnd: number): PathSegment[] {
  const segments: PathSegment[] = [];
  let start = runStart;
  for (let i = runStart; i <= runEnd; i++) {
    if (i === runEnd || text.charCodeAt(i) === 46) {
      segments.push({ name: text.slice(start, i), start, end: i });
      start = i + 1;
    }
  }
  return segments;
}

/** The reference of a well-formed path, or null (SPEC-REF-MALFORMED, reported by the checker). */
function refOf(segments: readonly PathSegment[]): PathRef | null {
  if (segments.some((s) => s.name === "")) return null;
  const [scope, name] = segments;
  if (scope === undefined || name === undefined) return null;
  if (scope.name === "input") return { scope: "input", name, fields: segments.slice(2) };
  if (scope.name === "steps" && segments[2]?.name === "output") {
    return { scope: "steps", name, fields: segments.slice(3) };
  }
  return null;
}

/**
 * Scans a `$.` path at `start`: `$.` plus the longest run of `[A-Za-z0-9_.]`, minus a final `.NAME`
 * that is followed (after optional whitespace) by `(`, which becomes a method call on the path.
 */
export function scanPath(text: string, start: number): ScannedPath | null {
  if (text.charCodeAt(start) !== 36 || text.charCodeAt(start + 1) !== 46) return null;
  const runStart = start + 2;
  let end = runStart;
  while (end < text.length && (isSegmentChar(text.charCodeAt(end)) || text.charCodeAt(end) === 46)) end++;
  const lastDot = text.lastIndexOf(".", end - 1);
  if (lastDot > runStart && lastDot < end - 1 && isNameStart(text.charCodeAt(lastDot + 1))) {
    let k = end;
    while (k < text.length && isSpace(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === 40) end = lastDot;
  }
  return { end, payload: { ref: refOf(segmentsOf(text, runStart, end)) } };
}
