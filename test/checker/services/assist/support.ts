// Shared fixtures of the assist tests: a spec with a contract, functions and a flow, and helpers
// that check a text with a `<|>` cursor and call the services.
import { checkSpec } from "../../../../checker/check-spec";
import type { CompletionItemInfo, OffsetRange, SpecDocument } from "../../../../checker/services/types";
import { markers, withCursor } from "../markers";

/** A document and the offset of its `<|>` marker. */
export function docAt(source: string): { doc: SpecDocument; offset: number } {
  const { text, offset } = withCursor(source);
  return { doc: { text, check: checkSpec(text) }, offset };
}

/** A document, its cursor and its `«…»` ranges. */
export function docWithRanges(source: string): {
  doc: SpecDocument;
  offset: number;
  ranges: readonly OffsetRange[];
} {
  const m = markers(source);
  const offset = m.cursors[0] ?? 0;
  return { doc: { text: m.text, check: checkSpec(m.text) }, offset, ranges: m.ranges };
}

export function labels(items: readonly CompletionItemInfo[]): string[] {
  return items.map((i) => i.label);
}

/** The labels in the order an editor shows them (sortText, then label). */
export function sortedLabels(items: readonly CompletionItemInfo[]): string[] {
  return [...items]
    .sort((a, b) => {
      const x = a.sortText ?? a.label;
      const y = b.sortText ?? b.label;
      return x < y ? -1 : x > y ? 1 : a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
    })
    .map((i) => i.label);
}

export function item(items: readonly CompletionItemInfo[], label: string): CompletionItemInfo | undefined {
  return items.find((i) => i.label === label);
}

/** The head of every spec: a contract, an infer function, a gate function. */
export const HEAD = `version: "0.2"
contracts:
  Review:
    verdict: {type: string, values: [pass, fail]}
    score: {type: number}
    notes: {type: array, items: {type: string}}
  Plan:
    steps: {type: array, items: {type: string}}
functions:
  review:
    mode: infer
    intent: "Review the change"
    input:
      diff: {type: string}
      focus: {type: string}
    output: Review
  approve:
    mode: gate
`;
