// Version 0.3 in the editor, end to end through `stratumc lsp` over stdio (the built binary:
// `npm run build` first): completion of the parallel keys inside a step and of the new `type`
// values, hover on `require` and on `no_file_conflicts`, and a 0.3 diagnostic published with its
// code and exact range.
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
import { cursor, cursors } from "./support/cursor";
import { inProcessClient, type LspClient, SPEC_URI, spawnedClient } from "./support/lsp-client";

const bin = join(fileURLToPath(new URL("../..", import.meta.url)), "bin/stratumc.cjs");

const SPEC = `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  TaskGraph:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Break the change into independent tasks"
        output_contract: TaskGraph
        ensure: ["no_file_conflicts(result.tasks)"]
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Implement {task.description}"
        require: any
`;

let client: LspClient;
let version = 1;

beforeAll(async () => {
  client = process.env.LSP_IN_PROCESS === "1" ? await inProcessClient() : await spawnedClient(bin);
  await client.open(SPEC_URI, SPEC);
}, 30_000);

afterAll(async () => {
  await client?.dispose();
});

/** Replaces the open document's text (each test shows its own version). */
async function show(text: string): Promise<void> {
  version = await client.change(SPEC_URI, text);
}

async function complete(text: string, position: Position): Promise<CompletionItem[]> {
  await show(text);
  const got = (await client.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri: SPEC_URI },
    position,
  })) as CompletionList | CompletionItem[] | null;
  return Array.isArray(got) ? got : (got?.items ?? []);
}

async function hover(text: string, position: Position): Promise<string> {
  await show(text);
  const got = (await client.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: SPEC_URI },
    position,
  })) as Hover | null;
  const contents = got?.contents;
  return typeof contents === "object" && contents !== null && "kind" in contents ? contents.value : "";
}

describe("a version 0.3 document over stdio", () => {
  it("offers the parallel keys inside a parallel_dispatch step", async () => {
    const m = cursor(SPEC.replace("        require: any\n", "        require: any\n        <|>\n"));
    const labels = (await complete(m.text, m.position)).map((i) => i.label);
    expect(labels).toEqual(
      expect.arrayContaining(["max_concurrent", "isolation", "merge", "task_reasoning_template"]),
    );
    // keys the step already has are not offered again
    expect(labels).not.toContain("source");
    expect(labels).not.toContain("require");
  });

  it("offers type, source, intent_template and require in a new step", async () => {
    const m = cursor(`${SPEC}      - id: more\n        <|>\n`);
    const labels = (await complete(m.text, m.position)).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(["type", "source", "intent_template", "require"]));
  });

  it("offers decompose and parallel_dispatch as values of type", async () => {
    const m = cursor(SPEC.replace("        type: parallel_dispatch\n", "        type: <|>\n"));
    const labels = (await complete(m.text, m.position)).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(["decompose", "parallel_dispatch"]));
  });

  it("shows the documentation of require on hover", async () => {
    const m = cursor(SPEC.replace("        require: any", "        req<|>uire: any"));
    const text = await hover(m.text, m.position);
    expect(text).toContain("require");
    expect(text.toLowerCase()).toContain("all");
    expect(text.toLowerCase()).toContain("any");
  });

  it("shows the documentation of no_file_conflicts on hover", async () => {
    const m = cursor(SPEC.replace("no_file_conflicts(result.tasks)", "no_file_con<|>flicts(result.tasks)"));
    const text = await hover(m.text, m.position);
    expect(text).toContain("no_file_conflicts");
    expect(text).toContain("files_owned");
  });

  it("publishes SPEC-PARALLEL-MISSING-KEY for a parallel step without source, at the step id", async () => {
    const m = cursors(
      SPEC.replace("      - id: run\n", "      - id: <|>run<|>\n").replace(
        '        source: "$.steps.plan.output.tasks"\n',
        "",
      ),
    );
    await show(m.text);
    const { diagnostics } = await client.diagnostics(SPEC_URI, version);
    const missing = diagnostics.filter((d) => d.code === "SPEC-PARALLEL-MISSING-KEY");
    expect(missing.map((d) => [d.code, d.range, d.severity])).toEqual([
      ["SPEC-PARALLEL-MISSING-KEY", { start: m.positions[0], end: m.positions[1] }, 1],
    ]);
    expect(missing[0]!.message).toContain("source");
  });
});
