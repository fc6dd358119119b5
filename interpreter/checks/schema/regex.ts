// The regular expressions of `pattern` and `patternProperties`: ECMAScript with the `u` flag and
// search semantics (a match anywhere), compiled once per pattern text.
const cache = new Map<string, RegExp | null>();
const CACHE_LIMIT = 1000;

/** The compiled pattern, or null when the text is not a valid `u`-flag regular expression. */
export function schemaRegex(pattern: string): RegExp | null {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let compiled: RegExp | null;
  try {
    compiled = new RegExp(pattern, "u");
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/**
 * Whether `pattern` matches somewhere in `text`; null when the pattern is invalid (impossible in a
 * checked spec: SPEC-OUTPUT-SCHEMA-INVALID). Callers then ignore the keyword rather than throw.
 */
export function searchMatches(pattern: string, text: string): boolean | null {
  const regex = schemaRegex(pattern);
  return regex === null ? null : regex.test(text);
}
