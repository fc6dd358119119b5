// Loads the web page's server only when `stratumc ui` runs: in the shipped CLI it is a bundle of
// its own (dist/ui.cjs, with the page's files inside), so no other command carries it. Its reader
// worker (dist/ui-reader.cjs) can be started before that load (startUiReader).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { loadSeparateBundle } from "../host/index";
import { type ReaderWorkerData, readerData, startReaderWorker } from "./reader-start";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type UiModule = typeof import("./run-ui");

export function loadUi(): Promise<UiModule> {
  return loadSeparateBundle("ui.cjs", () => import("./run-ui"));
}

/**
 * In the shipped CLI, the reader worker of a server over `host`'s store, started now, to be given
 * to runUi (UiOptions.reader); from the sources, where flows are read in place, undefined.
 */
export function startUiReader(host: ReaderWorkerData): Worker | undefined {
  if (typeof STRATUMC_BUNDLED === "undefined" || !STRATUMC_BUNDLED) return undefined;
  return startReaderWorker(join(dirname(fileURLToPath(import.meta.url)), "ui-reader.cjs"), readerData(host));
}
