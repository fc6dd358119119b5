// Navigation over the protocol: definition, references, rename (with
// `$.steps.<id>` paths inside expressions), document symbols, folding ranges and quick fixes.
// Expected ranges are `<|>…<|>` marker pairs in the spec text.
import { afterEach, describe, expect, it } from "vitest";
import {
  CodeActionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  type Position,
  PrepareRenameRequest,
  type Range,
  ReferencesRequest,
  RenameRequest,
  SymbolKind,
} from "vscode-languageserver-protocol";
import { cursors } from "./support/cursor";
import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

let client: LspClient | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

// Pairs: 0 the step id `implement`, 1–3 its references (a `$` path in inputs, depends_on, a `$` path
// in an ensure expression).
const MARKED = `version: "0.2"
contracts:
  Change:
    commit: { type: string }
flows:
  ship:
    input:
      branch: { type: string }
    steps:
      - id: <|>implement<|>
        intent: "Implement"
        output_contract: Change
        inputs:
          branch: "$.input.branch"
      - id: release
        intent: "Release"
        output_contract: Change
        inputs:
          commit: "$.steps.<|>implement<|>.output.commit"
        depends_on: [<|>implement<|>]
        ensure:
          - "result.commit != $.steps.<|>implement<|>.output.commit"
`;
const spec = cursors(MARKED);
const pair = (i: number): Range => ({ start: spec.positions[2 * i]!, end: spec.positions[2 * i + 1]! });
/** A position inside pair `i` (three characters in). */
const inside = (i: number): Position => ({
  line: pair(i).start.line,
  character: pair(i).start.character + 3,
});
const doc = { uri: SPEC_URI };

async function opened(text = spec.text): Promise<LspClient> {
  client = await inProcessClient();
  await client.open(SPEC_URI, text);
  return client;
}

describe("navigation over the protocol", () => {
  it("goes from a depends_on entry to the step's id", async () => {
    const c = await opened();
    const got = await c.connection.sendRequest(DefinitionRequest.type, {
      textDocument: doc,
      position: inside(2),
    });
    expect(got).toEqual([{ uri: SPEC_URI, range: pair(0) }]);
  });

  it("goes from a $.steps path inside an expression to the step's id", async () => {
    const c = await opened();
    const got = await c.connection.sendRequest(DefinitionRequest.type, {
      textDocument: doc,
      position: inside(3),
    });
    expect(got).toEqual([{ uri: SPEC_URI, range: pair(0) }]);
  });

  it("finds every reference, with and without the declaration", async () => {
    const c = await opened();
    const request = (includeDeclaration: boolean) =>
      c.connection.sendRequest(ReferencesRequest.type, {
        textDocument: doc,
        position: inside(0),
        context: { includeDeclaration },
      });
    const refs = [1, 2, 3].map((i) => ({ uri: SPEC_URI, range: pair(i) }));
    expect(await request(false)).toEqual(refs);
    expect(await request(true)).toEqual([{ uri: SPEC_URI, range: pair(0) }, ...refs]);
  });

  it("renames a step everywhere, $.steps paths inside expressions included", async () => {
    const c = await opened();
    const prepared = await c.connection.sendRequest(PrepareRenameRequest.type, {
      textDocument: doc,
      position: inside(1),
    });
    expect(prepared).toEqual({ range: pair(1), placeholder: "implement" });
    const edit = await c.connection.sendRequest(RenameRequest.type, {
      textDocument: doc,
      position: inside(1),
      newName: "build",
    });
    const edits = edit?.changes?.[SPEC_URI] ?? [];
    expect([...edits].sort((a, b) => a.range.start.line - b.range.start.line)).toEqual(
      [0, 1, 2, 3].map((i) => ({ range: pair(i), newText: "build" })),
    );
  });

  it("refuses a rename the service refuses, with its message", async () => {
    const c = await opened();
    const rename = c.connection.sendRequest(RenameRequest.type, {
      textDocument: doc,
      position: inside(0),
      newName: "release",
    });
    await expect(rename).rejects.toMatchObject({ code: -32803 });
  });

  it("outlines flows → steps and contracts → fields", async () => {
    const c = await opened();
    const symbols = (await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: doc })) ?? [];
    const shape = (s: { name: string; kind: SymbolKind; children?: unknown[] }): unknown => ({
      name: s.name,
      kind: s.kind,
      children: (s.children ?? []).map((x) => shape(x as typeof s)),
    });
    const tree = symbols.map((s) => shape(s as { name: string; kind: SymbolKind; children?: unknown[] }));
    expect(tree).toContainEqual({
      name: "Change",
      kind: SymbolKind.Struct,
      children: [{ name: "commit", kind: SymbolKind.Field, children: [] }],
    });
    const flow = tree.find((s) => (s as { name: string }).name === "ship") as {
      kind: number;
      children: unknown[];
    };
    expect(flow.kind).toBe(SymbolKind.Module);
    expect(flow.children).toContainEqual({ name: "implement", kind: SymbolKind.Event, children: [] });
    expect(flow.children).toContainEqual({ name: "release", kind: SymbolKind.Event, children: [] });
  });

  it("folds the mappings and lists of the spec by lines", async () => {
    const c = await opened();
    const folds = (await c.connection.sendRequest(FoldingRangeRequest.type, { textDocument: doc })) ?? [];
    const lines = folds.map((f) => [f.startLine, f.endLine]);
    // contracts (line 1) … the last line of Change; the whole ship flow; the release step.
    expect(lines).toContainEqual([1, 3]);
    expect(lines).toContainEqual([5, 21]);
    expect(lines).toContainEqual([14, 21]);
    for (const f of folds) expect(f.endLine).toBeGreaterThan(f.startLine);
  });
});

describe("quick fixes over the protocol", () => {
  it("offer the checker's did-you-mean replacement for the diagnostic under the cursor", async () => {
    const marked = `version: "0.2"
flows:
  ship:
    input: {}
    steps:
      - id: implement
        intent: "Implement"
      - id: test
        intent: "Test"
        depends_on: [<|>implment<|>]
`;
    const m = cursors(marked);
    const range = { start: m.positions[0]!, end: m.positions[1]! };
    const c = await opened(m.text);
    const { diagnostics } = await c.diagnostics(SPEC_URI, 1);
    const actions = await c.connection.sendRequest(CodeActionRequest.type, {
      textDocument: doc,
      range: { start: m.positions[0]!, end: m.positions[0]! },
      context: { diagnostics },
    });
    expect(actions).toEqual([
      {
        title: "Replace 'implment' with 'implement'",
        kind: "quickfix",
        diagnostics,
        isPreferred: true,
        edit: { changes: { [SPEC_URI]: [{ range, newText: "implement" }] } },
      },
    ]);
    // Elsewhere in the document, or when only refactorings are asked for: nothing.
    const nothing = await c.connection.sendRequest(CodeActionRequest.type, {
      textDocument: doc,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      context: { diagnostics: [] },
    });
    expect(nothing).toEqual([]);
    const refactorOnly = await c.connection.sendRequest(CodeActionRequest.type, {
      textDocument: doc,
      range,
      context: { diagnostics, only: ["refactor"] },
    });
    expect(refactorOnly).toEqual([]);
  });
});
