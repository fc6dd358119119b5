// JSON on one line with a space after `,` and `:` (Python's json.dumps layout), for values shown
// inside a line of text: a witness's input, a replayed call's arguments.

export function compactJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(compactJson).join(", ")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}: ${compactJson(x)}`).join(", ")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** At most `max` code points; a longer text ends with `…`. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
