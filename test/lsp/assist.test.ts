// Completion, hover, signature help and semantic tokens over the protocol,
// inside expression strings too. Cursor positions and expected ranges are `<|>` markers.
import { afterEach, describe, expect, it } from "vitest";
import {
  CompletionItemKind,
  type CompletionList,
  CompletionRequest,
  type Hover,
  HoverRequest,
  type Position,
  SemanticTokensRequest,
  SignatureHelpRequest,
} from "vscode-languageserver-protocol";
import { TOKEN_TYPES } from "../../checker/services/assist";
import { cursor, cursors } from "./support/cursor";

/** The markdown text of a hover (every hover of this server is one markup content). */
function markdown(hover: Hover | null): string {
  const contents = hover?.contents;
  return typeof contents === "object" && contents !== null && "kind" in contents ? contents.value : "";
}

import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

let client: LspClient | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

const SPEC = (
  hole: string,
  ensure = `"len(result.files) > 0 and result.commit.startswith('a', 1)"`,
) => `version: "0.2"
contracts:
  Change:
    commit: { type: string }
    files: { type: array, items: { type: string } }
flows:
  ship:
    input:
      branch: { type: string }
    steps:
      - id: implement
        intent: "Implement"
        output_contract: Change
        inputs:
          branch: "$.input.branch"
      - id: release
        intent: "Release"
        output_contract: Change
        inputs:
          commit: "$.steps.implement.output.${hole}"
        depends_on: [implement]
        ensure:
          - ${ensure}
`;

async function opened(text: string): Promise<LspClient> {
  client = await inProcessClient();
  await client.open(SPEC_URI, text);
  return client;
}

async function complete(c: LspClient, position: Position) {
  const got = (await c.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri: SPEC_URI },
    position,
  })) as CompletionList;
  return got.items;
}

describe("completion over the protocol", () => {
  it("offers the step ids in depends_on, replacing the word at the cursor", async () => {
    const m = cursors(SPEC("commit").replace("depends_on: [implement]", "depends_on: [<|>imp<|>]"));
    const c = await opened(m.text);
    const items = await complete(c, m.positions[1]!);
    expect(items).toContainEqual(
      expect.objectContaining({
        label: "implement",
        kind: CompletionItemKind.Reference,
        textEdit: { range: { start: m.positions[0], end: m.positions[1] }, newText: "implement" },
      }),
    );
    expect(items.map((i) => i.label)).not.toContain("release"); // a step does not depend on itself
  });

  it("offers the keys valid in a step mapping that the step does not have yet", async () => {
    const m = cursor(
      SPEC("commit").replace('        intent: "Release"\n', '        intent: "Release"\n        <|>\n'),
    );
    const c = await opened(m.text);
    const items = await complete(c, m.position);
    expect(items).toContainEqual(
      expect.objectContaining({
        label: "retries",
        kind: CompletionItemKind.Property,
        textEdit: { range: { start: m.position, end: m.position }, newText: "retries: " },
      }),
    );
    const labels = items.map((i) => i.label);
    expect(labels).not.toContain("intent");
    expect(labels).not.toContain("id");
  });

  it("offers the output fields of a step in a $.steps path with their types", async () => {
    const m = cursor(SPEC("<|>"));
    const c = await opened(m.text);
    const items = await complete(c, m.position);
    const fields = items.map((i) => [i.label, i.kind, i.detail]);
    expect(fields).toContainEqual(["commit", CompletionItemKind.Field, "str"]);
    expect(fields).toContainEqual(["files", CompletionItemKind.Field, "list[str]"]);
  });

  it("offers result fields inside an expression right after typing `result.` (the current version)", async () => {
    const c = await opened(SPEC("commit"));
    const typed = cursor(SPEC("commit", `"len(result.<|>) > 0"`));
    await c.change(SPEC_URI, typed.text); // no waiting for diagnostics: the request checks this version
    const items = await complete(c, typed.position);
    expect(items.map((i) => [i.label, i.kind])).toEqual(
      expect.arrayContaining([
        ["commit", CompletionItemKind.Field],
        ["files", CompletionItemKind.Field],
      ]),
    );
  });

  it("offers builtins with their signatures among the names in scope", async () => {
    const m = cursor(SPEC("commit", `"le<|>"`));
    const c = await opened(m.text);
    const len = (await complete(c, m.position)).find((i) => i.label === "len");
    expect(len?.kind).toBe(CompletionItemKind.Function);
    expect(len?.detail).toContain("len(");
  });
});

describe("hover over the protocol", () => {
  it("shows a contract field's type for a sub-expression, with its exact range", async () => {
    const m = cursors(SPEC("commit", `"len(result.<|>fi<|>les<|>) > 0"`));
    const c = await opened(m.text);
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: m.positions[1]!,
    });
    expect(hover?.range).toEqual({ start: m.positions[0], end: m.positions[2] });
    expect(hover?.contents).toMatchObject({ kind: "markdown" });
    expect(markdown(hover)).toContain("list[str]");
  });

  it("summarises a step under the cursor in depends_on", async () => {
    const m = cursor(SPEC("commit").replace("depends_on: [implement]", "depends_on: [imp<|>lement]"));
    const c = await opened(m.text);
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: m.position,
    });
    expect(markdown(hover)).toContain("implement");
    expect(markdown(hover)).toContain("Change");
  });

  it("returns null where there is nothing to say", async () => {
    const m = cursor(SPEC("commit").replace('version: "0.2"', '<|>\nversion: "0.2"'));
    const c = await opened(m.text);
    const hover = await c.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: m.position,
    });
    expect(hover).toBeNull();
  });
});

describe("signature help over the protocol", () => {
  it("shows the method's signature with the active parameter as label offsets", async () => {
    const m = cursor(SPEC("commit", `"result.commit.startswith('a', <|>1)"`));
    const c = await opened(m.text);
    const help = await c.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: m.position,
    });
    expect(help?.activeParameter).toBe(1);
    const signature = help?.signatures[help.activeSignature ?? 0];
    expect(signature?.label).toMatch(/^str\.startswith\(/);
    const label = signature?.parameters?.[1]?.label;
    expect(Array.isArray(label)).toBe(true);
    const [from, to] = label as [number, number];
    expect(signature?.label.slice(from, to)).toMatch(/^start/);
  });
});

describe("semantic tokens over the protocol", () => {
  it("classify the parts of expression strings and $ references, encoded relative per line", async () => {
    const text = SPEC("commit");
    const c = await opened(text);
    const tokens = await c.connection.sendRequest(SemanticTokensRequest.type, {
      textDocument: { uri: SPEC_URI },
    });
    const lines = text.split("\n");
    const decoded: [string, string][] = [];
    let line = 0;
    let character = 0;
    const data = tokens?.data ?? [];
    for (let i = 0; i < data.length; i += 5) {
      const [dl, dc, length, type] = data.slice(i, i + 4) as [number, number, number, number];
      line += dl;
      character = dl === 0 ? character + dc : dc;
      decoded.push([lines[line]!.slice(character, character + length), TOKEN_TYPES[type]!]);
    }
    expect(decoded).toEqual(
      expect.arrayContaining([
        ["$.input.branch", "namespace"],
        ["len", "function"],
        ["files", "property"],
        ["and", "keyword"],
        ["startswith", "method"],
        ["'a'", "string"],
        ["1", "number"],
      ]),
    );
  });
});
