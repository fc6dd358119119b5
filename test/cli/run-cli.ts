// Runs the built CLI bundle (dist/stratumc.cjs) as a child process, building it once if missing.
import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dirname, "../..");
export const BUNDLE = join(REPO, "dist/stratumc.cjs");

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function ensureBundle(): void {
  if (existsSync(BUNDLE)) return;
  const r = spawnSync(process.execPath, [join(REPO, "scripts/build.mjs")], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
}

export interface RunOptions {
  readonly input?: string | Uint8Array;
  readonly cwd?: string;
  /** Variables added to (or, when undefined, removed from) the environment of the child. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function stratumc(args: readonly string[], options: RunOptions = {}): CliRun {
  const spawnOptions: SpawnSyncOptions = {
    cwd: options.cwd ?? REPO,
    encoding: "utf8",
    input: options.input ?? "",
    ...(options.env === undefined ? {} : { env: childEnv(options.env) }),
  };
  const r = spawnSync(process.execPath, [BUNDLE, ...args], spawnOptions);
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function childEnv(changes: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
