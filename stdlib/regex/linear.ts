// Regular expressions of user specs (output_schema `pattern`, `patternProperties`) run on RE2
// (the re2js port): matching takes time linear in the text, whatever the pattern, so no result can
// stall the server. Patterns are ECMAScript with the `u` flag and search semantics (a match
// anywhere, as Python's re.search in the reference); translate.ts maps them to RE2 syntax. A valid
// pattern RE2 cannot run (a backreference, a lookahead) is "unsupported": the checker warns about
// it (SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED) and a result check reports it instead of guessing.
import { RE2JS } from "re2js";
import { translatePattern } from "./translate";

export type LinearPattern =
  | { readonly kind: "linear"; readonly search: (text: string) => boolean }
  | { readonly kind: "unsupported"; readonly reason: string }
  | { readonly kind: "invalid" };

const cache = new Map<string, LinearPattern>();
const CACHE_LIMIT = 1000;

/** The compiled pattern (cached by its text). */
export function linearPattern(pattern: string): LinearPattern {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  const compiled = compile(pattern);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

function compile(pattern: string): LinearPattern {
  try {
    new RegExp(pattern, "u"); // the definition of a valid pattern (parsing only, no matching)
  } catch {
    return { kind: "invalid" };
  }
  const translated = translatePattern(pattern);
  if (!translated.ok) return { kind: "unsupported", reason: translated.reason };
  try {
    const re = RE2JS.compile(translated.source, translated.lookbehind ? RE2JS.LOOKBEHINDS : 0);
    return { kind: "linear", search: (text) => re.test(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "unsupported", reason: `a construct RE2 rejects (${message})` };
  }
}

/** Why a valid pattern cannot run in linear time, or null (it can, or it is not valid at all). */
export function unsupportedReason(pattern: string): string | null {
  const compiled = linearPattern(pattern);
  return compiled.kind === "unsupported" ? compiled.reason : null;
}
