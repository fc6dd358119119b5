// Loads the web page's server only when `stratumc ui` runs: in the shipped CLI it is a bundle of
// its own (dist/ui.cjs, with the page's files inside), so no other command carries it.
import { loadSeparateBundle } from "../host/index";

export type UiModule = typeof import("./run-ui");

export function loadUi(): Promise<UiModule> {
  return loadSeparateBundle("ui.cjs", () => import("./run-ui"));
}
