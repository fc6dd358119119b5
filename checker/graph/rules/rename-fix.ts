// The did-you-mean rename of a scalar's content (docs/reference/language.md §9.1 "Fixes"): offered only for the
// single close match, and only when the new text loads as the same string in the scalar's style
// (an id such as `yes` or `1` written plain would load as a boolean or a number).
import type { SpecFix } from "../../diagnostic";
import { renameFix } from "../../messages";
import type { ScalarNode } from "../../yaml/nodes";

const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_-]*$/;
// YAML 1.1 words that a plain scalar would not load as a string.
const PLAIN_SPECIAL = new Set(["y", "n", "yes", "no", "true", "false", "on", "off", "null"]);
const QUOTE_UNSAFE = /[\\'"\p{Cc}]/u;

export function renameScalarFix(node: ScalarNode, from: string, to: string): SpecFix | undefined {
  if (typeof node.value !== "string") return undefined;
  const fits =
    node.style === "plain"
      ? PLAIN_SAFE.test(to) && !PLAIN_SPECIAL.has(to.toLowerCase())
      : (node.style === "single" || node.style === "double") && !QUOTE_UNSAFE.test(to);
  if (!fits) return undefined;
  return {
    description: renameFix(from, to),
    edits: [{ range: node.mapRange(0, node.value.length), newText: to }],
  };
}
