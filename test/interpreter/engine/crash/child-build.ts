// Bundles crash-child.ts into a temporary directory with esbuild, as the store tests bundle theirs
// (test/interpreter/store/child-bundle.ts, whose spawn and output helpers these tests reuse).
import { join } from "node:path";
import { bundleChild } from "../../store/child-bundle";

/** Bundles the child; returns the bundle's path and the temporary directory holding it. */
export function buildCrashChild(): Promise<{ readonly bundle: string; readonly dir: string }> {
  return bundleChild(join(__dirname, "crash-child.ts"));
}
