// Semantic tokens of expression strings: every token classified, mapped into the file through the
// scalar's map (escapes, block scalars) and split so that no token spans two lines.
import { expect, test } from "vitest";
import { semanticTokens, TOKEN_TYPES } from "../../../../checker/services/assist";
import type { SpecDocument } from "../../../../checker/services/types";
import { docAt } from "./support";

function shown(doc: SpecDocument): [string, string][] {
  return semanticTokens(doc).map((t) => [doc.text.slice(t.range.start, t.range.end), t.type]);
}

const SPEC = `version: "0.2"
contracts:
  Out:
    items: {type: array, items: {type: string}}
functions:
  f:
    mode: compute
    output: Out
    ensure: ["len(result.items) >= 1"]
flows:
  main:
    input:
      repo: {type: string}
    steps:
      - id: a
        function: f
        inputs:
          repo: $.input.repo
      - id: b
        intent: "x"
        depends_on: [a]
        skip_if: "not $.steps.a.output.items or \\"\\\\t\\" in 'a'"
        ensure:
          - >-
            all(s.strip() != 'a
            b' for s in result.get('items', []))<|>
`;

test("every expression token, in document order, with its type", () => {
  const { doc } = docAt(SPEC);
  expect(shown(doc)).toEqual([
    ["len", "function"],
    ["result", "parameter"],
    ["items", "property"],
    [">=", "operator"],
    ["1", "number"],
    ["$.input.repo", "namespace"],
    ["not", "keyword"],
    ["$.steps.a.output.items", "namespace"],
    ["or", "keyword"],
    ['\\"\\\\t\\"', "string"],
    ["in", "keyword"],
    ["'a'", "string"],
    ["all", "function"],
    ["s", "variable"],
    ["strip", "method"],
    ["!=", "operator"],
    ["'a", "string"],
    ["b'", "string"],
    ["for", "keyword"],
    ["s", "variable"],
    ["in", "keyword"],
    ["result", "parameter"],
    ["get", "method"],
    ["'items'", "string"],
  ]);
});

test("no token crosses a line break; every type is in the legend", () => {
  const { doc } = docAt(SPEC);
  for (const t of semanticTokens(doc)) {
    expect(doc.text.slice(t.range.start, t.range.end)).not.toMatch(/[\r\n]/);
    expect(TOKEN_TYPES).toContain(t.type);
  }
});

test("a broken document still gets the tokens of what loaded", () => {
  const { doc } = docAt(`version: "0.2"
flows:
  m:
    steps:
      - id: a
        intent: x
        skip_if: "True"
        depends_on: [<|>
`);
  expect(doc.check.model).toBeNull();
  expect(shown(doc)).toEqual([["True", "keyword"]]);
});

test("a property's conditions are tokenized, leads_to's from and to included", () => {
  const { doc } = docAt(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - {id: a, intent: "x"}
properties:
  p:
    flow: main
    never: "$.steps.a.attempts > 3"
  q:
    flow: main
    leads_to: {from: "$.flow.round == 1", to: "len('x') == 1"}
<|>`);
  expect(shown(doc)).toEqual([
    ["$.steps.a.attempts", "namespace"],
    [">", "operator"],
    ["3", "number"],
    ["$.flow.round", "namespace"],
    ["==", "operator"],
    ["1", "number"],
    ["len", "function"],
    ["'x'", "string"],
    ["==", "operator"],
    ["1", "number"],
  ]);
});
