// Document symbols and folding ranges, on a valid spec and on broken ones (YAML errors, structural
// errors): both are read from the YAML tree, so they keep working while the user types.
import { describe, expect, it } from "vitest";
import { documentSymbols, foldingRanges } from "../../../../checker/services/navigation";
import type { DocumentSymbolInfo, SpecDocument } from "../../../../checker/services/types";
import { docOf } from "./support";

/** name (kind, detail) lines first–last, selection text, then children indented. */
function render(doc: SpecDocument, symbols: readonly DocumentSymbolInfo[], depth = 0): string[] {
  const line = (o: number): number => doc.check.source.lineOf(o);
  return symbols.flatMap((s) => {
    expect(s.selectionRange.start).toBeGreaterThanOrEqual(s.range.start);
    expect(s.selectionRange.end).toBeLessThanOrEqual(s.range.end);
    const sel = doc.text.slice(s.selectionRange.start, s.selectionRange.end);
    return [
      `${"  ".repeat(depth)}${s.name} (${s.kind}, ${s.detail}) ${line(s.range.start)}-${line(s.range.end)} [${sel}]`,
      ...render(doc, s.children, depth + 1),
    ];
  });
}

function folds(doc: SpecDocument): string[] {
  const line = (o: number): number => doc.check.source.lineOf(o);
  return foldingRanges(doc).map(
    (f) => `${line(f.range.start)}-${line(f.range.end)}${f.kind ? ` ${f.kind}` : ""}`,
  );
}

const SPEC = `# A spec
# with a header comment
version: "0.2"
contracts:
  Review:
    summary: {type: string}
    tags:
      type: array
      items: {type: string}
functions:
  review:
    mode: infer
    intent: Review
    output: Review
  approve:
    mode: gate
flows:
  main:
    input:
      repo: {type: string}
    steps:
      - id: "scan"
        function: review
        skip_if: |
          # not a comment
          # still the expression
          $.input.repo == ''
      - id: gate
        function: approve
        on_approve: null
        on_revise: scan
      - intent: no id yet
      - id: sub
        flow: other
  other:
    input: {}
    steps:
      - id: only
        intent: Only
workflow:
  name: main
  description: Main
  input:
    repo: {type: string}
`;

describe("documentSymbols", () => {
  it("contracts → fields, functions, flows → inputs and steps, the workflow", () => {
    const doc = docOf(SPEC);
    expect(render(doc, documentSymbols(doc))).toEqual([
      "Review (contract, 2 fields) 5-9 [Review]",
      "  summary (field, string) 6-6 [summary]",
      "  tags (field, array of string) 7-9 [tags]",
      "review (function, infer) 11-14 [review]",
      "approve (function, gate) 15-16 [approve]",
      "main (flow, 4 steps) 18-34 [main]",
      "  repo (input, string) 20-20 [repo]",
      "  scan (step, function) 22-27 [scan]",
      "  gate (step, gate) 28-31 [gate]",
      "  steps[2] (step, inline) 32-32 [-]",
      "  sub (step, flow) 33-34 [sub]",
      "other (flow, 1 step) 35-39 [other]",
      "  only (step, inline) 38-39 [only]",
      "main (workflow, workflow) 40-44 [main]",
    ]);
  });

  it("broken YAML: what the loader recovered", () => {
    const doc = docOf(`version: "0.2"
functions:
  review:
    mode: infer
flows:
  main:
    input: {}
    steps:
      - id: a
        function: review
      - id: b
        intent: B
        inputs: {x: [unclosed
`);
    expect(doc.check.model).toBeNull();
    expect(render(doc, documentSymbols(doc))).toEqual([
      "review (function, infer) 3-4 [review]",
      "main (flow, 2 steps) 6-13 [main]",
      "  a (step, function) 9-10 [a]",
      "  b (step, inline) 11-13 [b]",
    ]);
  });

  it("structural errors (a bad version): still an outline", () => {
    const doc = docOf(`version: "9"\nflows:\n  main:\n    steps:\n      - id: a\n        intent: A\n`);
    expect(doc.check.model).toBeNull();
    expect(render(doc, documentSymbols(doc))).toEqual([
      "main (flow, 1 step) 3-6 [main]",
      "  a (step, inline) 5-6 [a]",
    ]);
  });

  it("an empty document has no symbols", () => {
    const doc = docOf("");
    expect(documentSymbols(doc)).toEqual([]);
    expect(foldingRanges(doc)).toEqual([]);
  });
});

describe("foldingRanges", () => {
  it("multi-line mappings, sequences, block scalars and comment blocks; comments inside a block scalar are content", () => {
    const doc = docOf(SPEC);
    expect(folds(doc)).toEqual([
      "1-2 comment",
      "4-9",
      "5-9",
      "7-9",
      "10-16",
      "11-14",
      "15-16",
      "17-39",
      "18-34",
      "19-20",
      "21-34",
      "22-27",
      "24-27",
      "28-31",
      "33-34",
      "35-39",
      "37-39",
      "38-39",
      "40-44",
      "43-44",
    ]);
  });

  it("broken YAML still folds what was recovered, and comment blocks", () => {
    const doc = docOf(`version: "0.2"
# one
# two
flows:
  main:
    steps:
      - id: a
        intent: [unclosed
`);
    expect(doc.check.model).toBeNull();
    expect(folds(doc)).toEqual(["2-3 comment", "4-8", "5-8", "6-8", "7-8"]);
  });
});
