// Huge documents, in process: the server's off-thread mode with the real
// worker code behind gates, so every interleaving of checks and requests is chosen by the test
// (test/hostile/lsp-huge-document.test.ts runs real worker threads on a multi-MB spec). The
// threshold is lowered so the typical fixture counts as huge.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CancellationTokenSource,
  CompletionRequest,
  type Hover,
  HoverRequest,
  LSPErrorCodes,
  RenameRequest,
} from "vscode-languageserver-protocol";
import { PositionIndex } from "../../lsp/positions";
import { type GatedWorker, gatedWorkers } from "./support/gated-workers";
import { inProcessClient, type LspClient, SPEC_URI } from "./support/lsp-client";

const root = fileURLToPath(new URL("../..", import.meta.url));
const TEXT = readFileSync(join(root, "bench/fixtures/typical.stratum.yaml"), "utf8");
const MIN_LENGTH = 1000;

// v2 adds an unknown field and a line; every later position moves down one line.
const ENSURE = '      - "len(result.tasks) > 0"\n';
const AT = TEXT.indexOf(ENSURE);
const ADDED = '      - "len(result.tasks_extra) > 0"\n      - "len(result.risk) > 0"\n';
const SHIFT = ADDED.length - ENSURE.length;
const V2 = TEXT.slice(0, AT) + ADDED + TEXT.slice(AT + ENSURE.length);
const LEN = TEXT.indexOf("len(result.changed)");
const v1 = new PositionIndex(TEXT);
const v2 = new PositionIndex(V2);

let client: LspClient | undefined;
afterEach(async () => {
  await client?.dispose();
  client = undefined;
});

async function start() {
  const gated = gatedWorkers();
  client = await inProcessClient({ offThread: { minLength: MIN_LENGTH, workers: gated.factory } });
  return { c: client, workers: gated.started };
}

async function waitingFor(worker: () => GatedWorker | undefined, version: number): Promise<GatedWorker> {
  await vi.waitFor(() => expect(worker()?.waiting).toBe(version));
  return worker() as GatedWorker;
}

/**
 * The worker that checks `version`, releasing the checks of older versions first (whether the
 * other worker first catches up on the tree just checked depends on when the server saw the
 * newest version: both orders are correct).
 */
async function checkingVersion(workers: readonly GatedWorker[], version: number): Promise<GatedWorker> {
  for (;;) {
    await vi.waitFor(() => expect(workers.some((w) => w.waiting !== null)).toBe(true));
    const worker = workers.find((w) => w.waiting !== null) as GatedWorker;
    if (worker.waiting === version) return worker;
    expect(worker.waiting).toBeLessThan(version);
    worker.release();
  }
}

describe("the language server on a huge document (workers behind gates)", () => {
  it("answers from the last tree during a check, maps positions, publishes only current versions", async () => {
    const { c, workers } = await start();
    await c.open(SPEC_URI, TEXT);
    const first = await waitingFor(() => workers[0], 1);
    const hover = (offset: number, index: PositionIndex) =>
      c.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: SPEC_URI },
        position: index.positionAt(offset),
      });
    // No tree yet: answered at once, with nothing.
    expect(await hover(LEN + 1, v1)).toBeNull();
    first.release();
    expect((await c.diagnostics(SPEC_URI, 1)).diagnostics).toEqual([]);
    // The other worker catches up on the same text.
    (await waitingFor(() => workers[1], 1)).release();

    await c.change(SPEC_URI, [
      {
        range: { start: v1.positionAt(AT), end: v1.positionAt(AT + ENSURE.length) },
        text: ADDED,
      },
    ]);
    const checking = await waitingFor(() => workers.find((w) => w.waiting !== null), 2);
    // v1's tree answers for v2, one line further down.
    const h = (await hover(LEN + SHIFT + 1, v2)) as Hover;
    expect(JSON.stringify(h.contents)).toContain("len(x, /) -> int");
    expect(h.range).toEqual({ start: v2.positionAt(LEN + SHIFT), end: v2.positionAt(LEN + SHIFT + 3) });
    // Inside the edit, and touching it: withheld.
    expect(await hover(AT + ADDED.indexOf("tasks_extra") + 2, v2)).toBeNull();
    expect(await hover(AT + ADDED.indexOf("len(result.risk)") + 1, v2)).toBeNull();
    const completion = await c.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: SPEC_URI },
      position: v2.positionAt(V2.indexOf("result.risk in") + "result.".length),
    });
    const list = completion as { isIncomplete: boolean; items: { label: string }[] };
    expect(list.isIncomplete).toBe(true); // from an older tree: the client asks again
    expect(list.items.map((i) => i.label)).toEqual(expect.arrayContaining(["summary", "tasks", "risk"]));

    // v3 arrives while v2 is checked: v2 finishes, is never published, and v3 follows.
    const V3 = V2.replace("tasks_extra", "tasks_other");
    await c.change(SPEC_URI, V3);
    // (Answered after the server took v3 in: messages are handled in order.) v1's tree still
    // answers, now for v3 (a same-length change after v2's: nothing else moves).
    expect(((await hover(LEN + SHIFT + 1, v2)) as Hover).range).toEqual(h.range);
    checking.release();
    const next = await checkingVersion(workers, 3);
    next.release();
    const final = await c.diagnostics(SPEC_URI, 3);
    expect(final.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["EXPR-UNKNOWN-FIELD", "contract 'Plan' has no field 'tasks_other'"],
    ]);
    expect(c.published.map((p) => p.version)).toEqual([1, 3]);
    expect(JSON.stringify((await hover(V3.indexOf("tasks_other") + 2, v2))?.contents)).toContain(
      "tasks_other",
    );
  });

  it("makes edits wait for the current tree: ContentModified when it moves on, and cancellable", async () => {
    const { c, workers } = await start();
    await c.open(SPEC_URI, TEXT);
    (await waitingFor(() => workers[0], 1)).release();
    (await waitingFor(() => workers[1], 1)).release();
    await c.diagnostics(SPEC_URI, 1);
    const rename = (text: string, newName: string, token?: CancellationTokenSource) =>
      c.connection.sendRequest(
        RenameRequest.type,
        {
          textDocument: { uri: SPEC_URI },
          position: new PositionIndex(text).positionAt(text.indexOf("function: plan_feature") + 12),
          newName,
        },
        token?.token,
      );

    let text = TEXT.replace("retries: 2", "retries: 3");
    await c.change(SPEC_URI, text);
    const checking = await waitingFor(() => workers.find((w) => w.waiting !== null), 2);
    let answered = false;
    const renamed = rename(text, "plan_it").then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    checking.release();
    const edits = (await renamed)?.changes?.[SPEC_URI] ?? [];
    expect(edits.map((e) => e.newText)).toEqual(["plan_it", "plan_it"]);

    text = text.replace("retries: 3", "retries: 4");
    await c.change(SPEC_URI, text);
    const outdated = rename(text, "plan_x");
    await c.change(SPEC_URI, text.replace("retries: 4", "retries: 5"));
    await expect(outdated).rejects.toMatchObject({ code: LSPErrorCodes.ContentModified });

    const source = new CancellationTokenSource();
    const cancelled = rename(text.replace("retries: 4", "retries: 5"), "plan_y", source);
    await new Promise((resolve) => setTimeout(resolve, 20));
    source.cancel();
    await expect(cancelled).rejects.toMatchObject({ code: LSPErrorCodes.RequestCancelled });
  });

  it("checks a document in the server's thread below the threshold, by workers from it on", async () => {
    const { c, workers } = await start();
    const small =
      'version: "0.2"\nflows:\n  main:\n    input: {}\n    steps:\n      - id: a\n        intent: "A"\n';
    await c.open(SPEC_URI, small);
    expect((await c.diagnostics(SPEC_URI, 1)).diagnostics).toEqual([]);
    expect(workers).toHaveLength(0);
    await c.change(SPEC_URI, TEXT);
    (await waitingFor(() => workers[0], 2)).release();
    expect((await c.diagnostics(SPEC_URI, 2)).diagnostics).toEqual([]);
    await c.change(SPEC_URI, small.replace('"A"', '"B"'));
    expect((await c.diagnostics(SPEC_URI, 3)).diagnostics).toEqual([]);
    expect(workers.every((w) => w.terminated)).toBe(true);
  });

  it("replaces a crashed worker and checks the version again", async () => {
    const { c, workers } = await start();
    await c.open(SPEC_URI, TEXT);
    const first = await waitingFor(() => workers[0], 1);
    first.crash();
    expect(first.terminated).toBe(true);
    (await waitingFor(() => workers[2], 1)).release();
    expect((await c.diagnostics(SPEC_URI, 1)).diagnostics).toEqual([]);
  });

  it("gives up on a version that crashed a worker twice, until a newer one comes", async () => {
    const { c, workers } = await start();
    await c.open(SPEC_URI, TEXT);
    (await waitingFor(() => workers[0], 1)).crash();
    (await waitingFor(() => workers[2], 1)).crash();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers.map((w) => w.waiting)).toEqual([null, null, null, null]);
    await c.change(SPEC_URI, TEXT.replace("retries: 2", "retries: 3"));
    (await checkingVersion(workers, 2)).release();
    expect((await c.diagnostics(SPEC_URI, 2)).diagnostics).toEqual([]);
  });
});
