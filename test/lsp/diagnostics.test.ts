// Diagnostics over the protocol: exactly checkSpec's diagnostics (what `stratumc check` prints),
// converted to 0-based UTF-16 ranges. Expected ranges are written as `<|>…<|>` marker pairs in the
// spec text, so every column below is checked against the source itself.
import { afterEach, describe, expect, it } from "vitest";
import { DiagnosticSeverity, HoverRequest } from "vscode-languageserver-protocol";
import { checkSpec } from "../../checker/check-spec";
import { ruleDocHref } from "../../checker/rule-docs";
import type { Timers } from "../../lsp/diagnostic-scheduler";
import { cursors } from "./support/cursor";
import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

let client: LspClient | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

function rangeOf(marked: string, pair = 0) {
  const m = cursors(marked);
  return { start: m.positions[2 * pair]!, end: m.positions[2 * pair + 1]! };
}

const DOUBLE_QUOTED = `version: "0.2"
contracts:
  Summary:
    summary: { type: string }
functions:
  summarise:
    mode: infer
    intent: "Summarise"
    input:
      document: { type: string }
    output: Summary
    ensure:
      - "result.summary != '\\u00e9😀😀' and result.<|>sumary<|> != ''"
flows:
  main:
    input:
      document: { type: string }
    steps:
      - id: summarise
        function: summarise
        inputs:
          document: "$.input.document"
`;

const BLOCK_SCALAR = `version: "0.2"
contracts:
  Classification:
    label: { type: string }
    score: { type: number }
flows:
  classify:
    input:
      text: { type: string }
    steps:
      - id: classify
        intent: "Classify 😀 the text"
        inputs:
          text: "$.input.text"
        output_contract: Classification
        ensure:
          - >-
            result.score >= 0.5
            and <|>result.label > 3<|>
`;

describe("published diagnostics", () => {
  it("match stratumc check inside a double-quoted expression with escapes and astral characters", async () => {
    client = await inProcessClient();
    const text = cursors(DOUBLE_QUOTED).text;
    await client.open(SPEC_URI, text);
    const published = await client.diagnostics(SPEC_URI, 1);
    const [expected] = checkSpec(text).diagnostics;
    expect(expected?.code).toBe("EXPR-UNKNOWN-FIELD");
    expect(published).toEqual({
      uri: SPEC_URI,
      version: 1,
      diagnostics: [
        {
          range: rangeOf(DOUBLE_QUOTED),
          severity: DiagnosticSeverity.Error,
          code: "EXPR-UNKNOWN-FIELD",
          codeDescription: { href: ruleDocHref("EXPR-UNKNOWN-FIELD") },
          source: "stratumc",
          message: "contract 'Summary' has no field 'sumary'\nhelp: Did you mean 'summary'?",
        },
      ],
    });
    // The public column counts code points (two astral characters fewer than UTF-16 units).
    expect(expected?.column).toBe(rangeOf(DOUBLE_QUOTED).start.character - 2 + 1);
  });

  it("match stratumc check inside a folded block scalar", async () => {
    client = await inProcessClient();
    const text = cursors(BLOCK_SCALAR).text;
    await client.open(SPEC_URI, text);
    const published = await client.diagnostics(SPEC_URI, 1);
    expect(published.diagnostics).toEqual([
      {
        range: rangeOf(BLOCK_SCALAR),
        severity: DiagnosticSeverity.Error,
        code: "EXPR-TYPE",
        codeDescription: {
          href: "https://github.com/stratumc/stratumc/blob/main/docs/reference/rules.md#expr-type",
        },
        source: "stratumc",
        message: "'>' not supported between instances of 'str' and 'int' (this always fails at run time)",
      },
    ]);
  });

  it("carry related information in the same document and warnings with their severity", async () => {
    const marked = `version: "0.2"
flows:
  onboarding:
    input: {}
    steps:
      - id: <|>create_account<|>
        intent: "Create the user's account"
      - id: <|>create_account<|>
        intent: "Create the billing account"
`;
    client = await inProcessClient();
    const text = cursors(marked).text;
    await client.open(SPEC_URI, text);
    const { diagnostics } = await client.diagnostics(SPEC_URI, 1);
    const expected = checkSpec(text).diagnostics;
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual(
      expected.map((d) => [d.code, d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3]),
    );
    const duplicate = diagnostics.find((d) => d.relatedInformation !== undefined);
    expect(duplicate?.range).toEqual(rangeOf(marked, 1));
    expect(duplicate?.relatedInformation).toEqual([
      {
        location: { uri: SPEC_URI, range: rangeOf(marked, 0) },
        message: "'create_account' is first declared here",
      },
    ]);
  });

  it("are recomputed on change (incremental edits) and cleared on close", async () => {
    client = await inProcessClient();
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
    await client.open(SPEC_URI, m.text);
    const first = await client.diagnostics(SPEC_URI, 1);
    expect(first.diagnostics.map((d) => [d.code, d.range])).toEqual([
      ["SPEC-DEPENDS-ON-UNKNOWN", rangeOf(marked)],
    ]);
    // Insert the missing "e": implment → implement (an incremental change).
    const at = { line: m.positions[0]!.line, character: m.positions[0]!.character + 4 };
    const version = await client.change(SPEC_URI, [{ range: { start: at, end: at }, text: "e" }]);
    expect((await client.diagnostics(SPEC_URI, version)).diagnostics).toEqual([]);
    await client.close(SPEC_URI);
    await expect.poll(() => client?.published.at(-1)).toEqual({ uri: SPEC_URI, diagnostics: [] });
  });

  it("include the control model's verdicts, recomputed after an incremental edit", async () => {
    client = await inProcessClient();
    const marked = `version: "0.2"
flows:
  review:
    input: {}
    steps:
      - id: <|>review<|>
        intent: "Review the change"
      - id: <|>fix<|>
        intent: "Fix what the review found"
        next: <|>review<|>
      - id: done
        intent: "Report"
`;
    const m = cursors(marked);
    await client.open(SPEC_URI, m.text);
    const first = await client.diagnostics(SPEC_URI, 1);
    expect(first.diagnostics.map((d) => [d.code, d.severity, d.range])).toEqual([
      ["SPEC-FLOW-NEVER-COMPLETES", DiagnosticSeverity.Warning, rangeOf(marked, 2)],
      ["SPEC-STEP-DEAD", DiagnosticSeverity.Warning, rangeOf(marked, 2)],
    ]);
    expect(first.diagnostics[0]?.relatedInformation?.map((r) => r.location.range)).toEqual([
      rangeOf(marked, 0),
      rangeOf(marked, 1),
    ]);
    // next: review → next: done (an incremental change inside one scalar): the loop is gone.
    const range = rangeOf(marked, 2);
    const version = await client.change(SPEC_URI, [{ range, text: "done" }]);
    expect((await client.diagnostics(SPEC_URI, version)).diagnostics).toEqual([]);
  });

  it("of a broken YAML document are the YAML diagnostics", async () => {
    client = await inProcessClient();
    const text = 'version: "0.2"\nflows: [\n';
    await client.open(SPEC_URI, text);
    const { diagnostics } = await client.diagnostics(SPEC_URI, 1);
    expect(diagnostics.map((d) => d.code)).toEqual(checkSpec(text).diagnostics.map((d) => d.code));
    expect(diagnostics.length).toBeGreaterThan(0);
  });
});

describe("debounced diagnostics", () => {
  it("check and publish only the newest of a burst of versions, after the debounce", async () => {
    const queued: (() => void)[] = [];
    const delays: number[] = [];
    const timers: Timers = {
      set: (run, delayMs) => {
        delays.push(delayMs);
        queued.push(run);
        return run;
      },
      clear: (handle) => {
        const i = queued.indexOf(handle as () => void);
        if (i >= 0) queued.splice(i, 1);
      },
    };
    const checked: string[] = [];
    client = await inProcessClient(
      {
        timers,
        check: (text) => {
          checked.push(text);
          return checkSpec(text);
        },
      },
      { debounceMs: 40 },
    );
    const text = (n: number) => `version: "0.2"\nflows:\n  f${n}:\n    input: {}\n    steps: []\n`;
    await client.open(SPEC_URI, text(1));
    for (let n = 2; n <= 4; n++) await client.change(SPEC_URI, text(n));
    // A request is answered after every notification before it: a barrier, and it checks version 4.
    await client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: { line: 0, character: 0 },
    });
    expect(delays).toEqual([40, 40, 40, 40]); // initializationOptions.debounceMs
    expect(queued).toHaveLength(1); // versions 1–3 were superseded before their timers ran
    expect(client.published).toEqual([]);
    queued.shift()?.();
    const published = await client.diagnostics(SPEC_URI, 4);
    expect(published.version).toBe(4);
    expect(client.published.map((p) => p.version)).toEqual([4]);
    expect(checked).toEqual([text(4)]); // one check, shared by the hover and the diagnostics
  });
});
