// The language server's latency over the protocol: a client and the server in this
// process over streams, on a generated 2,000-line spec. Time to diagnostics after an edit (a
// one-word incremental change, debounce 0: the time the server needs, not the debounce it waits)
// against a bare checkSpec of the same text measured in the same run; completion latency p95 on
// the checked document at positions inside expressions, `$` paths and depends_on. Then the rows of
// a ~4.7 MB spec checked by worker threads (lsp-huge-bench.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createConnection } from "vscode-languageserver/node";
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  type Position,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { checkSpec } from "../checker/check-spec";
import { PositionIndex } from "../lsp/positions";
import { startLanguageServer } from "../lsp/server";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { benchHugeLsp } from "./lsp-huge-bench";

const TARGET_DIAGNOSTICS_MS = 25;
const TARGET_COMPLETION_P95_MS = 10;
const SPEC_LINES = 2000;
const EDITS = 41;
const COMPLETIONS = 300;
const URI = "file:///bench/large.stratum.yaml";

export interface LspBench {
  readonly rows: Row[];
  readonly lines: number;
  readonly diagnostics: number;
  /** Size of the huge spec and the hovers timed during its re-checks. */
  readonly huge: { readonly chars: number; readonly hovers: number };
}

/** The typical fixture's contracts and functions, then copies of its flow until the spec has ~2,000 lines. */
function largeSpec(repoDir: string): string {
  const typical = readFileSync(join(repoDir, "bench/fixtures/typical.stratum.yaml"), "utf8");
  const flowsAt = typical.indexOf("\nflows:\n");
  const head = typical.slice(0, flowsAt + "\nflows:\n".length);
  const flow = typical.slice(flowsAt + "\nflows:\n".length);
  const parts = [head];
  let lines = head.split("\n").length;
  for (let i = 0; lines < SPEC_LINES; i++) {
    const copy = flow.replace("  feature-build:", `  feature-build-${i}:`);
    parts.push(copy);
    lines += copy.split("\n").length - 1;
  }
  return parts.join("");
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function benchLsp(repoDir: string): Promise<LspBench> {
  const text = largeSpec(repoDir);
  const positions = new PositionIndex(text);
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startLanguageServer(server, { debounceMs: 0 });
  const client = createProtocolConnection(
    new StreamMessageReader(toClient),
    new StreamMessageWriter(toServer),
  );
  const waiting = new Map<number, (count: number) => void>();
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    if (p.version !== undefined) waiting.get(p.version)?.(p.diagnostics.length);
  });
  client.listen();
  try {
    await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
    await client.sendNotification(InitializedNotification.type, {});
    const published = (version: number) => new Promise<number>((resolve) => waiting.set(version, resolve));

    const opened = published(1);
    await client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: "yaml", version: 1, text },
    });
    const diagnosticCount = await opened;

    // Edits: "smallest" ↔ "simplest" in the middle flow's triage intent (same length, still valid).
    const word = text.indexOf("smallest", text.length >> 1);
    const range = { start: positions.positionAt(word), end: positions.positionAt(word + 8) };
    // Interleaved with the baseline (a bare checkSpec of the same text), so both see the same
    // JIT and GC state; the first round of each warms up and is not counted.
    const editTimes: number[] = [];
    const checkTimes: number[] = [];
    for (let i = 0; i <= EDITS; i++) {
      const version = i + 2;
      const done = published(version);
      const replacement = i % 2 === 0 ? "simplest" : "smallest";
      const start = process.hrtime.bigint();
      await client.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: URI, version },
        contentChanges: [{ range, text: replacement }],
      });
      await done;
      const edited = ms(start);
      const baselineStart = process.hrtime.bigint();
      checkSpec(`${text.slice(0, word)}${replacement}${text.slice(word + 8)}`);
      const checked = ms(baselineStart);
      if (i === 0) continue;
      editTimes.push(edited);
      checkTimes.push(checked);
    }

    // Completion on the checked document: after `result.`, inside a `$.steps.` path, in depends_on.
    const at = (needle: string, shift: number): Position =>
      positions.positionAt(text.indexOf(needle, text.length >> 1) + shift);
    const spots = [
      at('exit_criterion: "result.', 'exit_criterion: "result.'.length),
      at('"$.steps.', '"$.steps.'.length),
      at("depends_on: [review]", "depends_on: [".length),
      at('skip_if: "$.input.', 'skip_if: "$.input.'.length),
    ];
    const completionTimes: number[] = [];
    let failed = 0;
    for (let i = 0; i < COMPLETIONS; i++) {
      const start = process.hrtime.bigint();
      try {
        await client.sendRequest(CompletionRequest.type, {
          textDocument: { uri: URI },
          position: spots[i % spots.length]!,
        });
      } catch {
        failed++;
      }
      completionTimes.push(ms(start));
    }
    const checkMs = median(checkTimes);
    const diagnosticsMs = median(editTimes);
    const huge = await benchHugeLsp(repoDir, text);
    return {
      lines: text.split("\n").length,
      diagnostics: diagnosticCount,
      huge: { chars: huge.chars, hovers: huge.hovers },
      rows: [
        {
          metric: `lsp: ms to diagnostics after an edit, ${SPEC_LINES}-line spec (baseline: checkSpec)`,
          median: diagnosticsMs,
          baseline: checkMs,
          ratio: diagnosticsMs / checkMs,
          target: TARGET_DIAGNOSTICS_MS,
        },
        {
          metric: `lsp: completion p95 ms, ${SPEC_LINES}-line spec${failed > 0 ? ` (${failed} requests failed)` : ""}`,
          median: failed > 0 ? Number.NaN : percentile(completionTimes, 95),
          baseline: null,
          ratio: null,
          target: TARGET_COMPLETION_P95_MS,
        },
        ...huge.rows,
      ],
    };
  } finally {
    client.dispose();
    server.dispose();
    toServer.end();
    toClient.end();
  }
}
