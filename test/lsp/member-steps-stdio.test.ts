// stratumc's member step kinds in the editor, end to end through `stratumc lsp` over stdio (the
// built binary: `npm run build` first): hover and completion inside a debate step's `converge`
// (its own names round / history / round_number, the argument contract's fields) and completion
// of the member keys inside a race step's `candidates`.
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

const bin = join(fileURLToPath(new URL("../..", import.meta.url)), "bin/stratumc.cjs");

const CONVERGE = "round_number >= 2 and all(a.position == round[0].position for a in round)";

const SPEC = `version: "0.3"
contracts:
  Argument:
    position: {type: string}
    points: {type: array, items: {type: string}}
  Decision:
    choice: {type: string}
  Patch:
    tests_pass: {type: boolean}
flows:
  main:
    input: {}
    steps:
      - id: design
        type: debate
        intent: "Argue your side"
        debaters: [{id: pro, agent: claude}, {id: con, agent: codex}]
        rounds: 3
        argument_contract: Argument
        converge: "${CONVERGE}"
        synthesis: {intent: Decide, output_contract: Decision}
      - id: fix
        type: race
        intent: "Make the test pass"
        output_contract: Patch
        candidates:
          - {id: careful, agent: claude}
        depends_on: [design]
`;

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

describe("a debate step's converge over stdio", () => {
  it("the document checks clean", async () => {
    const version = await client.change(SPEC_URI, SPEC);
    const { diagnostics } = await client.diagnostics(SPEC_URI, version);
    expect(diagnostics).toEqual([]);
  });

  it("hover on round shows its type over the argument contract and its doc", async () => {
    const text = await hover(variant(CONVERGE, CONVERGE.replace("for a in round", "for a in ro<|>und")));
    expect(text).toContain("(parameter) round: list[ns[Argument]]");
    expect(text).toContain("This round's arguments");
  });

  it("hover on round_number and on an argument's field", async () => {
    expect(await hover(variant(CONVERGE, `round_num<|>${CONVERGE.slice(9)}`))).toContain(
      "(parameter) round_number: int",
    );
    expect(await hover(variant(CONVERGE, CONVERGE.replace("a.position", "a.posi<|>tion")))).toContain(
      "(field) Argument.position: str",
    );
  });

  it("completion offers round, history and round_number with their types, and no result", async () => {
    const items = await complete(variant(CONVERGE, `${CONVERGE} and <|>`));
    const detail = (label: string) => items.filter((i) => i.label === label).map((i) => i.detail);
    // one `round`: the bound name shadows the builtin
    expect(detail("round")).toEqual(["list[ns[Argument]]"]);
    expect(detail("history")).toEqual(["list[list[ns[Argument]]]"]);
    expect(detail("round_number")).toEqual(["int"]);
    expect(detail("len")).toHaveLength(1);
    expect(items.map((i) => i.label)).not.toContain("result");
  });

  it("completion after a. offers the argument contract's fields", async () => {
    const items = await complete(variant(CONVERGE, "all(a.<|> for a in round)"));
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(["position", "points"]));
  });
});

describe("a race step's candidates over stdio", () => {
  it("offers the member keys inside a candidate, without the ones it has", async () => {
    const items = await complete(
      variant("{id: careful, agent: claude}", "{id: careful, agent: claude, <|>}"),
    );
    const labels = items.map((i) => i.label);
    expect(labels).toContain("intent");
    expect(labels).not.toContain("id");
    expect(labels).not.toContain("agent");
    expect(labels).not.toContain("candidates");
  });

  it("offers id, agent and intent on a new candidate line", async () => {
    const items = await complete(
      variant(
        "          - {id: careful, agent: claude}\n",
        "          - {id: careful, agent: claude}\n          - <|>\n",
      ),
    );
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(["id", "agent", "intent"]));
  });
});
