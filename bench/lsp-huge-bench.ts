// The language server on a huge document: a ~4.7 MB spec of realistic
// repeated contracts, functions and flows, checked by the server's worker threads (the built
// dist/lsp.cjs). Per round: a bare checkSpec of the text (the baseline), open → first diagnostics,
// a one-word edit once the second worker has caught up, and hovers sent one after another while
// that edit is re-checked, until its diagnostics arrive. The hover baseline is a hover on the
// 2,000-line spec (checked in the server's own thread) in the same run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createConnection } from "vscode-languageserver/node";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  type Position,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { checkSpec } from "../checker/check-spec";
import { PositionIndex } from "../lsp/positions";
import { startLanguageServer } from "../lsp/server";
import { threadWorkers } from "../lsp/workers";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const HUGE_SPEC_CHARS = 4_700_000;
const ROUNDS = 3;
/** Hover answers during a re-check must come well under this. */
const TARGET_HUGE_HOVER_MS = 200;

/**
 * The typical fixture's contracts, functions and flow, copied with numbered names (`Plan_7`,
 * `implement_7`, `feature-build_7`; copy 0 keeps the names, so the workflow has its entry flow)
 * until the text has `chars` characters. It checks without a diagnostic.
 */
export function hugeSpec(repoDir: string, chars: number = HUGE_SPEC_CHARS): string {
  const typical = readFileSync(join(repoDir, "bench/fixtures/typical.stratum.yaml"), "utf8");
  const contractsAt = typical.indexOf("\ncontracts:\n");
  const functionsAt = typical.indexOf("\nfunctions:\n");
  const flowsAt = typical.indexOf("\nflows:\n");
  const contracts = typical.slice(contractsAt + "\ncontracts:\n".length, functionsAt);
  const functions = typical.slice(functionsAt + "\nfunctions:\n".length, flowsAt);
  const flow = typical.slice(flowsAt + "\nflows:\n".length);
  const names =
    /\b(Task|Plan|Finding|Review|Patch|plan_feature|implement|review_patch|merge_gate)\b(?![-\w])/g;
  const parts = { contracts: [] as string[], functions: [] as string[], flows: [] as string[] };
  const copies = Math.ceil(chars / (contracts.length + functions.length + flow.length));
  for (let i = 0; i < copies; i++) {
    const suffix = i === 0 ? "" : `_${i}`;
    const rename = (text: string) => text.replace(names, (name) => `${name}${suffix}`);
    parts.contracts.push(rename(contracts));
    parts.functions.push(rename(functions));
    parts.flows.push(
      flow
        .replace("  feature-build:", `  feature-build${suffix}:`)
        .replace(/function: (\w+)/g, `function: $1${suffix}`)
        .replace("output: Review", `output: Review${suffix}`),
    );
  }
  return [
    typical.slice(0, contractsAt + 1),
    `contracts:\n${parts.contracts.join("")}`,
    `\nfunctions:\n${parts.functions.join("")}`,
    `\nflows:\n${parts.flows.join("")}`,
  ].join("");
}

export interface HugeLspBench {
  readonly rows: Row[];
  readonly chars: number;
  readonly hovers: number;
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const sleep = (delayMs: number) => new Promise((resolve) => setTimeout(resolve, delayMs));

/** `smallSpec`: the 2,000-line spec of the hover baseline. Needs the built dist/lsp.cjs (the workers). */
export async function benchHugeLsp(repoDir: string, smallSpec: string): Promise<HugeLspBench> {
  const text = hugeSpec(repoDir);
  const positions = new PositionIndex(text);
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  const handle = startLanguageServer(server, {
    debounceMs: 0,
    offThread: { workers: threadWorkers(join(repoDir, "dist/lsp.cjs")) },
  });
  const client = createProtocolConnection(
    new StreamMessageReader(toClient),
    new StreamMessageWriter(toServer),
  );
  const waiting = new Map<string, () => void>();
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    waiting.get(`${p.uri}#${p.version}`)?.();
  });
  client.listen();
  const published = (uri: string, version: number) =>
    new Promise<void>((resolve) => waiting.set(`${uri}#${version}`, resolve));
  try {
    await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
    await client.sendNotification(InitializedNotification.type, {});
    const baselineHover = await smallHovers(client, smallSpec);

    // The edit: "smallest" → "simplest" in a flow in the middle; hovers on `len` in the same step.
    const word = text.indexOf("smallest", text.length >> 1);
    const range = { start: positions.positionAt(word), end: positions.positionAt(word + 8) };
    const hoverAt = positions.positionAt(text.indexOf("len(result.get(", word) + 1);
    const firstTimes: number[] = [];
    const checkTimes: number[] = [];
    const editTimes: number[] = [];
    const hoverTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const uri = `file:///bench/huge-${round}.stratum.yaml`;
      const checkStart = process.hrtime.bigint();
      checkSpec(text);
      checkTimes.push(ms(checkStart));

      const opened = published(uri, 1);
      const openStart = process.hrtime.bigint();
      await client.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "yaml", version: 1, text },
      });
      await opened;
      const first = ms(openStart);
      firstTimes.push(first);
      await sleep(first); // the second worker re-checks the same text meanwhile (off-thread-document.ts)

      let done = false;
      const edited = published(uri, 2).then(() => {
        done = true;
      });
      const editStart = process.hrtime.bigint();
      await client.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range, text: "simplest" }],
      });
      while (!done) {
        await sleep(50);
        if (done) break;
        const start = process.hrtime.bigint();
        await client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: hoverAt });
        if (!done) hoverTimes.push(ms(start));
      }
      await edited;
      editTimes.push(ms(editStart));
      await client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    }
    const checkMs = median(checkTimes);
    const hoverMs = median(hoverTimes);
    const mb = (text.length / 1e6).toFixed(1);
    return {
      chars: text.length,
      hovers: hoverTimes.length,
      rows: [
        {
          metric: `lsp: ms to first diagnostics, ${mb} MB spec (baseline: checkSpec)`,
          median: median(firstTimes),
          baseline: checkMs,
          ratio: median(firstTimes) / checkMs,
          target: null,
        },
        {
          metric: `lsp: ms to diagnostics after an edit, ${mb} MB spec (baseline: checkSpec)`,
          median: median(editTimes),
          baseline: checkMs,
          ratio: median(editTimes) / checkMs,
          target: null,
        },
        {
          metric: `lsp: hover ms during a re-check, ${mb} MB spec (baseline: hover, 2,000-line spec)`,
          median: hoverMs,
          baseline: baselineHover,
          ratio: hoverMs / baselineHover,
          target: TARGET_HUGE_HOVER_MS,
        },
      ],
    };
  } finally {
    handle.dispose();
    client.dispose();
    server.dispose();
    toServer.end();
    toClient.end();
  }
}

/** Median latency of hovers on `len` in the 2,000-line spec (checked in the server's thread). */
async function smallHovers(client: ProtocolConnection, text: string): Promise<number> {
  const uri = "file:///bench/hover-baseline.stratum.yaml";
  const positions = new PositionIndex(text);
  const at: Position = positions.positionAt(text.indexOf("len(result.tasks)") + 1);
  await client.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "yaml", version: 1, text },
  });
  const times: number[] = [];
  for (let i = 0; i <= 100; i++) {
    const start = process.hrtime.bigint();
    await client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at });
    if (i > 0) times.push(ms(start)); // the first hover checks the document
  }
  await client.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  return median(times);
}
