// Builds the store tests' child process (store-child.ts) into a temporary directory with esbuild,
// the way scripts/build.mjs bundles the front ends, and spawns it.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { build } from "esbuild";

export type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** Bundles a child entry (a .ts file) into a temporary directory; its path and the directory. */
export async function bundleChild(entry: string): Promise<{ readonly bundle: string; readonly dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "stratum-child-"));
  const bundle = join(dir, `${basename(entry, ".ts")}.cjs`);
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    define: { STRATUMC_BUNDLED: "true" },
  });
  return { bundle, dir };
}

/** The store tests' child (store-child.ts). */
export function buildStoreChild(): Promise<{ readonly bundle: string; readonly dir: string }> {
  return bundleChild(join(__dirname, "store-child.ts"));
}

export function spawnChild(bundle: string, args: readonly string[]): Child {
  return spawn(process.execPath, [bundle, ...args], { stdio: ["pipe", "pipe", "pipe"] });
}

/** Calls `onLine` for every complete line the child writes on stdout. */
export function onLines(child: Child, onLine: (line: string) => void): void {
  let pending = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      onLine(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf("\n");
    }
  });
}

/** Resolves with the exit code (null) and signal once the child has exited and its output ended. */
export function exited(
  child: Child,
): Promise<{ readonly code: number | null; readonly signal: string | null }> {
  return new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
}

export function stderrOf(child: Child): () => string {
  let text = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}
