// A huge document in the language server: the built `stratumc lsp` over stdio
// opens a ~3 MB spec (realistic repeated contracts, functions and flows). Checking it takes
// seconds, and the server used to check in the thread that answers requests, so a hover waited
// for the whole check. Now huge documents are checked by worker threads: a hover during the first
// check and during a re-check after an edit is answered at once (from the last checked tree, its
// positions mapped to the current text, withheld inside the edited region), and only the final
// version's diagnostics are published. Needs the build (`npm run build`).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CompletionRequest, type Hover, HoverRequest, type Position } from "vscode-languageserver-protocol";
import { hugeSpec } from "../../bench/lsp-huge-bench";
import { PositionIndex } from "../../lsp/positions";
import { type LspClient, spawnedClient } from "../lsp/support/lsp-client";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "bin/stratumc.cjs");
const URI = "file:///work/huge.stratum.yaml";
/** Generous for a loaded 2-core CI machine; before the fix a hover waited many seconds. */
const PROMPT_MS = 1_000;

const TEXT = hugeSpec(root, 3_000_000);
const original = new PositionIndex(TEXT);
// The edits: in a copy of plan_feature in the middle, `len(result.tasks) > 0` becomes
// `len(result.taskz) > 0` (v2, outdated at once), then an unknown field on one line and a new
// ensure line below it (v3: every later line moves down by one).
const ENSURE = '      - "len(result.tasks) > 0"\n';
const at = TEXT.indexOf(ENSURE, TEXT.length >> 1);
const V2 = '      - "len(result.taskz) > 0"\n';
const V3 = '      - "len(result.tasks_extra) > 0"\n      - "len(result.risk) > 0"\n';
const TEXT3 = TEXT.slice(0, at) + V3 + TEXT.slice(at + ENSURE.length);
const after = new PositionIndex(TEXT3);
const lineOf = (offset: number) => original.positionAt(offset).line;
// After the edit: `len` of the next function (implement), and `result.` two lines below the edit.
const lenAt = TEXT.indexOf("len(result.changed)", at);
const riskAt = TEXT.indexOf("result.risk in", at) + "result.".length;
const shift = V3.length - ENSURE.length;

let client: (LspClient & { exited: Promise<number | null> }) | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("stratumc lsp on a multi-MB document (built binary, stdio)", () => {
  it("answers hover and completion during checks, maps positions, publishes only the final version", async () => {
    const c = await spawnedClient(bin);
    client = c;
    const hover = (position: Position) =>
      timed(() => c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position }));

    const openedAt = performance.now();
    await c.open(URI, TEXT);
    // During the first check there is no tree yet: an immediate empty answer, not a wait.
    await sleep(300);
    const early = await hover(original.positionAt(lenAt + 1));
    expect(early.ms).toBeLessThan(PROMPT_MS);
    expect(early.value).toBeNull();

    const first = await c.diagnostics(URI, 1);
    const firstMs = performance.now() - openedAt;
    expect(first.diagnostics).toEqual([]);
    // Let the second worker catch up (it re-checks the same text after the first check).
    await sleep(firstMs);

    await c.change(URI, [
      { range: { start: original.positionAt(at), end: original.positionAt(at + ENSURE.length) }, text: V2 },
    ]);
    await sleep(300); // v2's check is under way
    await c.change(URI, [
      { range: { start: original.positionAt(at), end: original.positionAt(at + V2.length) }, text: V3 },
    ]);
    await sleep(200);

    // During the re-check: answered at once from the last tree, positions mapped to v3's text.
    const expectedLen = { start: after.positionAt(lenAt + shift), end: after.positionAt(lenAt + shift + 3) };
    expect(expectedLen.start.line).toBe(lineOf(lenAt) + 1);
    for (let i = 0; i < 3; i++) {
      const h = await hover(after.positionAt(lenAt + shift + 1));
      expect(
        c.published.some((p) => p.version === 3),
        "the re-check was already over",
      ).toBe(false);
      expect(h.ms).toBeLessThan(PROMPT_MS);
      const value = h.value as Hover;
      expect(JSON.stringify(value.contents)).toContain("len(x, /) -> int");
      expect(value.range).toEqual(expectedLen);
      await sleep(100);
    }
    // Inside the edited region the old tree knows nothing: withheld, not guessed.
    const inside = await hover(after.positionAt(at + V3.indexOf("tasks_extra") + 2));
    expect(inside.ms).toBeLessThan(PROMPT_MS);
    expect(inside.value).toBeNull();
    const completion = await timed(() =>
      c.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri: URI },
        position: after.positionAt(riskAt + shift),
      }),
    );
    expect(completion.ms).toBeLessThan(PROMPT_MS);
    const items = completion.value !== null && "items" in completion.value ? completion.value.items : [];
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(["summary", "tasks", "risk"]));

    // The final version's diagnostics, exactly; never the outdated v2's.
    const final = await c.diagnostics(URI, 3);
    const field = after.positionAt(at + V3.indexOf("tasks_extra"));
    expect(final.diagnostics.map((d) => [d.code, d.range])).toEqual([
      ["EXPR-UNKNOWN-FIELD", { start: field, end: { line: field.line, character: field.character + 11 } }],
    ]);
    expect(final.diagnostics[0]?.message).toContain("'tasks_extra'");
    expect(c.published.map((p) => p.version)).toEqual([1, 3]);

    // From the current tree now: the edited text itself is known.
    const fresh = await hover(after.positionAt(at + V3.indexOf("tasks_extra") + 2));
    expect(JSON.stringify((fresh.value as Hover).contents)).toContain("tasks_extra");
  }, 300_000);
});
