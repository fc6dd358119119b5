// Loads the web page's server only when `stratumc ui` runs: in the shipped CLI it is a bundle of
// its own (dist/ui.cjs, with the page's files inside), so no other command carries it; from the
// sources (tests) it is a plain import. createRequire, as cli/serve/load-server.ts explains.
import { createRequire } from "node:module";

declare const STRATUMC_BUNDLED: boolean | undefined;

export type UiModule = typeof import("./run-ui");

export async function loadUi(): Promise<UiModule> {
  if (typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED) {
    return createRequire(import.meta.url)("./ui.cjs") as UiModule;
  }
  return import("./run-ui");
}
