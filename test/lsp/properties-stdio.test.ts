// A spec's `properties` in the editor, end to end through `stratumc lsp` over stdio (the built
// binary: `npm run build` first): completion of the property state's `$` paths and hover on their
// segments inside a property's condition, and the spec's flows offered for a property's `flow`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompletionItem,
  type CompletionList,
  CompletionRequest,
  type Hover,
  HoverRequest,
  type Position,
} from "vscode-languageserver-protocol";
import { cursor } from "./support/cursor";
import { inProcessClient, type LspClient, SPEC_URI, spawnedClient } from "./support/lsp-client";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin/stratumc.cjs");
const SPEC = readFileSync(join(root, "examples/release-properties.stratum.yaml"), "utf8");
const NEVER = `never: "$.steps.build.attempts > 3"`;

let client: LspClient;

beforeAll(async () => {
  client = process.env.LSP_IN_PROCESS === "1" ? await inProcessClient() : await spawnedClient(bin);
  await client.open(SPEC_URI, SPEC);
}, 30_000);

afterAll(async () => {
  await client?.dispose();
});

/** SPEC with `from` (present once) replaced by `to`, which carries the `<|>` marker. */
function variant(from: string, to: string): { text: string; position: Position } {
  expect(SPEC.split(from)).toHaveLength(2);
  return cursor(SPEC.replace(from, to));
}

async function complete(m: { text: string; position: Position }): Promise<CompletionItem[]> {
  await client.change(SPEC_URI, m.text);
  const got = (await client.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri: SPEC_URI },
    position: m.position,
  })) as CompletionList | CompletionItem[] | null;
  return Array.isArray(got) ? got : (got?.items ?? []);
}

async function hover(m: { text: string; position: Position }): Promise<string> {
  await client.change(SPEC_URI, m.text);
  const got = (await client.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: SPEC_URI },
    position: m.position,
  })) as Hover | null;
  const contents = got?.contents;
  return typeof contents === "object" && contents !== null && "kind" in contents ? contents.value : "";
}

describe("a property's condition over stdio", () => {
  it("the example checks clean", async () => {
    const version = await client.change(SPEC_URI, SPEC);
    const { diagnostics } = await client.diagnostics(SPEC_URI, version);
    expect(diagnostics).toEqual([]);
  });

  it("completion after $.steps.build. offers the step's state with its types", async () => {
    const items = await complete(variant(NEVER, `never: "$.steps.build.<|>"`));
    const detail = (label: string) => items.filter((i) => i.label === label).map((i) => i.detail);
    expect(items.map((i) => i.label).sort()).toEqual(["attempts", "output", "status"]);
    expect(detail("attempts")).toEqual(["int"]);
    expect(detail("output")).toEqual(["Build | none"]);
  });

  it("completion after $.gates. offers only the flow's gates", async () => {
    const items = await complete(variant(NEVER, `never: "$.gates.<|>"`));
    expect(items.map((i) => i.label)).toEqual(["sign_off"]);
  });

  it("hover on a segment gives its path, type and meaning", async () => {
    const text = await hover(variant(NEVER, `never: "$.steps.build.atte<|>mpts > 3"`));
    expect(text).toContain("$.steps.build.attempts: int");
    expect(text).toContain("Attempts of the step's current dispatch");
  });

  it("a property's flow: offers the spec's flows", async () => {
    const items = await complete(variant(`    flow: release\n    ${NEVER}`, `    flow: <|>\n    ${NEVER}`));
    expect(items.map((i) => i.label)).toEqual(["release"]);
  });
});
