// JSON texts nested to a given depth, for the deep-value tests (built by repetition: JSON.stringify
// itself overflows the stack past a few thousand levels).

/** `depth` nested containers (`[[…]]` or `{"a": {"a": … 1}}`); depth 0 is the scalar `1`. */
export function nestedText(depth: number, kind: "array" | "object"): string {
  if (depth === 0) return "1";
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
}

/** A result of tinySpec's step (`{"answer": "x", "extra": …}`) that is `depth` levels deep. */
export function resultText(depth: number, kind: "array" | "object" = "array"): string {
  return `{"answer": "x", "extra": ${nestedText(depth - 1, kind)}}`;
}
