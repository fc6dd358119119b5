// The files of the built CLI, found from the bundle that runs (every bundle lives in dist/).
// From the sources (tests), they are those of the repository's dist/.
import { fileURLToPath } from "node:url";

declare const STRATUMC_BUNDLED: boolean | undefined;

function distFile(name: string): string {
  const bundled = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
  return fileURLToPath(new URL(bundled ? `./${name}` : `../../dist/${name}`, import.meta.url));
}

export const daemonScript = (): string => distFile("stratumc-daemon.cjs");
export const launcherScript = (): string => distFile("../bin/stratumc.cjs");
