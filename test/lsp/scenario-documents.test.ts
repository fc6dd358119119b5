// Scenario test files in the language server: a `*.stratum-test.yaml` document gets exactly the
// diagnostics `stratumc check` gives it, with its spec taken from the open document when the editor
// has it (unsaved text included) or from disk; spec services are withheld for it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { HoverRequest } from "vscode-languageserver-protocol/node";
import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: { type: string }
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build"
        inputs: {}
        output_contract: Out
`;

const TEST = `spec: spec.stratum.yaml
flow: main
tests:
  t:
    script:
      - {step: biuld, result: {v: 1}}
      - {step: build, result: {v: 1}}
`;

let client: LspClient | undefined;
let dir: string | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function codes(p: {
  diagnostics: { code?: string | number; range: { start: { line: number; character: number } } }[];
}) {
  return p.diagnostics.map((d) => `${String(d.code)} ${d.range.start.line}:${d.range.start.character}`);
}

describe("scenario test documents", () => {
  it("are checked against the open spec document, as check does", async () => {
    client = await inProcessClient({ debounceMs: 0 });
    await client.open(SPEC_URI, SPEC);
    const uri = "file:///work/spec.stratum-test.yaml";
    await client.open(uri, TEST);
    const p = await client.diagnostics(uri, 1);
    expect(codes(p)).toEqual(["TEST-UNKNOWN-STEP 5:15", "TEST-RESULT-CONTRACT 6:34"]);
    const hover = await client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 5, character: 16 },
    });
    expect(hover).toBeNull();
  });

  it("read the spec from disk when it is not open, and report a spec that is missing", async () => {
    dir = mkdtempSync(join(tmpdir(), "stratumc-lsp-scenario-"));
    writeFileSync(join(dir, "spec.stratum.yaml"), SPEC);
    client = await inProcessClient({ debounceMs: 0 });
    const uri = pathToFileURL(join(dir, "a.stratum-test.yaml")).href;
    await client.open(uri, TEST.replace("{v: 1}}\n      - {step: build", "{v: x}}\n      - {step: build"));
    expect(codes(await client.diagnostics(uri, 1))).toEqual([
      "TEST-UNKNOWN-STEP 5:15",
      "TEST-RESULT-CONTRACT 6:34",
    ]);
    const missing = pathToFileURL(join(dir, "b.stratum-test.yaml")).href;
    await client.open(missing, TEST.replace("spec: spec.stratum.yaml", "spec: gone.stratum.yaml"));
    expect(codes(await client.diagnostics(missing, 1))).toEqual(["TEST-SPEC 0:6"]);
  });
});
