// `$` references in step inputs (docs/reference/language.md §8, docs/reference/runtime.md §3.3): a value is a reference exactly
// when it starts with `$`; the text after the first two characters is split on `.`. Segments carry
// their offsets in the loaded string, like the spans of an expression's PathRef.
import type { PathRef, PathSegment } from "../../grammar/ast";

/** True when an input value is a reference (well-formed or not). */
export function isReference(raw: string): boolean {
  return raw.startsWith("$");
}

/**
 * The reference of a `$…` input value, or null when it is malformed (SPEC-REF-MALFORMED): it must
 * read `$.input.<name>[.<seg>…]` or `$.steps.<id>.output[.<seg>…]` with no empty segment.
 */
export function parseInputReference(raw: string): PathRef | null {
  if (!raw.startsWith("$.")) return null;
  const segments: PathSegment[] = [];
  let start = 2;
  for (let i = 2; i <= raw.length; i++) {
    if (i === raw.length || raw.charCodeAt(i) === 46) {
      segments.push({ name: raw.slice(start, i), start, end: i });
      start = i + 1;
    }
  }
  if (segments.some((s) => s.name === "")) return null;
  const [scope, name] = segments;
  if (scope === undefined || name === undefined) return null;
  if (scope.name === "input") return { scope: "input", name, fields: segments.slice(2) };
  if (scope.name === "steps" && segments[2]?.name === "output") {
    return { scope: "steps", name, fields: segments.slice(3) };
  }
  return null;
}
