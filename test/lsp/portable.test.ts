// The language server's `portable` initialization option (also `"stratumc.portable"`): diagnostics
// then include SPEC-NOT-PORTABLE, exactly as `stratumc check --portable`, both for documents
// checked in the server's thread and for huge ones checked by workers; without it, none.
import { afterEach, describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { inThreadWorkers } from "../../lsp/workers";
import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

const QUORUM = `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        intent: "Classify the ticket"
        output_contract: Classification
        runs: 3
        agree_on: "result.severity"
`;

let client: LspClient | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

/** Published codes with their 0-based ranges. */
async function published(init: unknown, huge = false, text = QUORUM): Promise<string[]> {
  const offThread = huge ? { offThread: { minLength: 10, workers: inThreadWorkers() } } : {};
  client = await inProcessClient(offThread, init);
  await client.open(SPEC_URI, text);
  const p = await client.diagnostics(SPEC_URI, 1);
  return p.diagnostics.map(
    (d) =>
      `${String(d.code)} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
  );
}

/** What `stratumc check --portable` reports, in the protocol's 0-based positions (ASCII text). */
const EXPECTED = checkSpec(QUORUM, { portable: true }).diagnostics.map(
  (d) => `${d.code} ${d.line - 1}:${d.column - 1}-${d.end_line - 1}:${d.end_column - 1}`,
);

describe("initializationOptions.portable", () => {
  it("is what check --portable reports: the type value and the two quorum keys", () => {
    expect(EXPECTED).toEqual([
      "SPEC-NOT-PORTABLE 9:14-9:20",
      "SPEC-NOT-PORTABLE 12:8-12:12",
      "SPEC-NOT-PORTABLE 13:8-13:16",
    ]);
  });

  it.each([
    ["in the server's thread", false],
    ["by check workers (huge documents)", true],
  ])("reports SPEC-NOT-PORTABLE %s", async (_where, huge) => {
    expect(await published({ portable: true }, huge)).toEqual(EXPECTED);
  });

  it.each([
    ["in the server's thread", false],
    ["by check workers (huge documents)", true],
  ])(
    "checks against the version it names %s: any() is a builtin of 0.2.69, not of 0.2.50",
    async (_where, huge) => {
      const usesAny = QUORUM.replace(
        'agree_on: "result.severity"',
        'agree_on: "result.severity"\n        ensure: ["any([True])"]',
      );
      const [anyAt] = checkSpec(usesAny, { portable: "0.2.50" })
        .diagnostics.filter((d) => d.message.startsWith("the builtin 'any'"))
        .map((d) => `${d.code} ${d.line - 1}:${d.column - 1}-${d.end_line - 1}:${d.end_column - 1}`);
      expect(anyAt).toBeDefined();
      expect(await published({ portable: "0.2.50" }, huge, usesAny)).toContain(anyAt);
      await client?.dispose();
      expect(await published({ portable: "0.2.69" }, huge, usesAny)).not.toContain(anyAt);
      await client?.dispose();
      expect(await published({ portable: true }, huge, usesAny)).toEqual(
        await published({ portable: "0.2.69" }, huge, usesAny),
      );
    },
  );

  it('accepts the settings name "stratumc.portable"', async () => {
    expect(await published({ "stratumc.portable": true })).toEqual(EXPECTED);
  });

  it.each([
    ["no options", undefined],
    ["portable: false", { portable: false }],
    ["a value that is not a boolean nor a version", { portable: "yes" }],
    ["a version it does not know", { portable: "0.3.0" }],
  ])("reports nothing with %s", async (_name, init) => {
    expect(await published(init)).toEqual([]);
    await client?.dispose();
    expect(await published(init, true)).toEqual([]);
  });
});
