// `check --watch`: check, then check again whenever a spec below the given paths changes, until
// SIGINT or SIGTERM (the exit code is that of the last check). What is watched: a directory
// argument recursively (a new spec file in it is checked from then on), a file argument through its
// directory (editors save by renaming a new file over the old one), a glob through the working
// directory. A change is a file event whose name is a `*.stratum.yaml` / `*.stratum.yml` file or
// one of the file arguments; events within 100 ms are one change; a check never overlaps another
// (a change during a check runs one more). On a terminal the screen is cleared before each check.
import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isDynamicPattern } from "tinyglobby";
import type { CommandContext } from "../command-context";

const DEBOUNCE_MS = 100;
const SPEC_FILE = /\.stratum\.ya?ml$/;
const CLEAR = "\x1b[2J\x1b[3J\x1b[H";

interface Target {
  readonly dir: string;
  readonly recursive: boolean;
  /** For a file argument: the only name in `dir` that counts. */
  readonly file?: string;
}

export function watchTargets(args: readonly string[], cwd: string): Target[] {
  const targets: Target[] = [];
  for (const arg of args.length === 0 ? ["."] : args) {
    const path = resolve(cwd, arg);
    const kind = statKind(path);
    if (kind === "directory") targets.push({ dir: path, recursive: true });
    else if (kind === "missing" && isDynamicPattern(arg)) targets.push({ dir: cwd, recursive: true });
    else targets.push({ dir: dirname(path), recursive: false, file: basename(path) });
  }
  return targets;
}

/** Runs `check` now and after every change; resolves with its last exit code when stopped. */
export async function watchChecks(
  args: readonly string[],
  check: () => Promise<number>,
  ctx: CommandContext,
  stop: AbortSignal,
): Promise<number> {
  let exitCode = 0;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    do {
      again = false;
      if (ctx.host.stdoutIsTTY) ctx.io.out(CLEAR);
      exitCode = await check();
      if (!stop.aborted) ctx.io.err(`${ctx.programName}: watching for changes (Ctrl-C to stop)\n`);
    } while (again && !stop.aborted);
    running = false;
  };
  const changed = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void run(), DEBOUNCE_MS);
  };
  const watchers: FSWatcher[] = [];
  for (const t of watchTargets(args, ctx.host.cwd)) {
    try {
      const w = watch(t.dir, { recursive: t.recursive }, (_event, name) => {
        if (name === null) return changed();
        const file = basename(name.toString());
        if (t.file !== undefined ? file === t.file : SPEC_FILE.test(file) && !ignored(name.toString()))
          changed();
      });
      w.on("error", () => undefined); // a watched directory removed: the next check reports it
      watchers.push(w);
    } catch (e) {
      ctx.io.err(
        `${ctx.programName}: cannot watch ${join(t.dir, t.file ?? "")}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
    }
  }
  await run();
  await new Promise<void>((done) => {
    if (stop.aborted) done();
    else stop.addEventListener("abort", () => done(), { once: true });
  });
  if (timer !== undefined) clearTimeout(timer);
  for (const w of watchers) w.close();
  return exitCode;
}

/** A path below node_modules or a dot-directory (not checked when a directory is walked). */
function ignored(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/).slice(0, -1);
  return parts.some((p) => p === "node_modules" || p.startsWith("."));
}

function statKind(path: string): "directory" | "other" | "missing" {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "other";
  }
}

/** An AbortSignal that fires on the first SIGINT or SIGTERM of this process. */
export function signalStop(): AbortSignal {
  const controller = new AbortController();
  const onSignal = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}
