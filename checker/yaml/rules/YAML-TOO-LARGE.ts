// YAML-TOO-LARGE: the spec text is over the size limit; it is refused before it is parsed.
import { defineRule } from "../../rule";

/**
 * The largest spec accepted, in bytes of UTF-8 (8 MiB). A check keeps ~35–55 bytes per input byte
 * alive and peaks at ~110–150 bytes of RSS per input byte ("Big specs" in the history of docs/performance.md), so
 * the densest spec at the limit peaks under 1 GB and checks within a 1 GB heap (Node's default on
 * a 4 GB machine); real specs are a few hundred lines (tens of KB).
 */
export const MAX_SPEC_BYTES = 8 * 1024 * 1024;

/** The size of a refused text: exact, or only known to be over the limit (input cut short). */
export interface SpecSize {
  readonly bytes: number;
  /** False when reading stopped after `bytes` (standard input): the text is at least that long. */
  readonly exact: boolean;
}

export const YAML_TOO_LARGE = defineRule({
  code: "YAML-TOO-LARGE",
  severity: "error",
  family: "yaml",
  errorType: "ir_parse_error",
  title: "The spec text is larger than the size limit",
  doc:
    "A spec may be at most 8 MiB (8388608 bytes of UTF-8). A larger text is refused before it is " +
    "parsed, with this one diagnostic at the start of the file, by every front end alike: the CLI " +
    "does not read a larger file or more of standard input, and the MCP tools and the language " +
    "server answer at once. The limit keeps a check under about 1 GB of memory. Real specs " +
    "are far smaller: split a generated one into several specs (sub-flows can live in one file each).",
  example: {
    bad: "# generated.stratum.yaml: 9 MB, one flow of 40,000 steps",
    good: "# part-1.stratum.yaml … part-8.stratum.yaml: each flow calls the next as a sub-flow step",
  },
  message: (size: SpecSize) =>
    `Spec is too large (${size.exact ? "" : "more than "}${size.bytes} bytes; the limit is ${MAX_SPEC_BYTES} bytes, 8 MiB)`,
});

/**
 * The UTF-8 size of `text` when it is over MAX_SPEC_BYTES, else null. Counts only when the UTF-16
 * length leaves it open (a UTF-16 unit is 1 to 3 bytes, a surrogate pair 4), so a typical spec
 * costs one comparison.
 */
export function oversizedBytes(text: string): number | null {
  if (text.length * 3 <= MAX_SPEC_BYTES) return null;
  const bytes = utf8Length(text);
  return bytes > MAX_SPEC_BYTES ? bytes : null;
}

/** The length of `text` in UTF-8, as TextEncoder writes it (a lone surrogate as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
