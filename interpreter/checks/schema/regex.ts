// The regular expressions of `pattern` and `patternProperties`: ECMAScript with the `u` flag and
// search semantics (a match anywhere), run on the linear-time engine (stdlib/regex): no pattern can
// make a check take more than time linear in the text. Compiled once per pattern text.
import { linearPattern } from "../../../stdlib/regex/linear";
import { strRepr } from "../../../stdlib/values/repr";

/** A pattern the engine cannot run in linear time (a backreference, a lookahead): why. */
export interface Unsupported {
  readonly unsupported: string;
}

/**
 * Whether `pattern` matches somewhere in `text`; null when the pattern is invalid (impossible in a
 * checked spec: SPEC-OUTPUT-SCHEMA-INVALID), callers then ignore the keyword rather than throw;
 * `{unsupported}` when it is valid but has no linear-time form (SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED).
 */
export function searchMatches(pattern: string, text: string): boolean | null | Unsupported {
  const compiled = linearPattern(pattern);
  if (compiled.kind === "invalid") return null;
  if (compiled.kind === "unsupported") return { unsupported: compiled.reason };
  return compiled.search(text);
}

/** The violation text for a pattern that cannot be run. */
export function unsupportedMessage(pattern: string, reason: string): string {
  return `pattern ${strRepr(pattern)} cannot be checked in linear time: it uses ${reason}`;
}
