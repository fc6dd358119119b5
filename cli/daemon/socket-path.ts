// Where the daemon of `stratumc check` listens: a Unix socket in a directory private to the user,
// $XDG_RUNTIME_DIR/stratumc or else <tmpdir>/stratumc-<uid>, named after the build
// (check-<build id>.sock), so that different builds never answer for each other. Imported by the
// tiny client: node built-ins only.
import { lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD_ID } from "./build-id";

/** The directory the sockets live in (STRATUMC_DAEMON_DIR overrides it, for tests). */
export function socketDir(env: Readonly<Record<string, string | undefined>>): string {
  const override = env.STRATUMC_DAEMON_DIR;
  if (override !== undefined && override !== "") return override;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime?.startsWith("/")) return join(runtime, "stratumc");
  return join(tmpdir(), `stratumc-${uid()}`);
}

export function socketPath(dir: string, build = BUILD_ID): string {
  return join(dir, `check-${build}.sock`);
}

/**
 * Why `dir` must not be used for the daemon's socket, or null when it is safe: it must be a real
 * directory (not a symbolic link), owned by this user, with no access for group or others.
 */
export function unsafeDirReason(dir: string): string | null {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch (e) {
    return `${dir}: ${(e as NodeJS.ErrnoException).code ?? "cannot be read"}`;
  }
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid()) return `${dir} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** Creates the private directory when it is missing; the reason it is unsafe, or null. */
export function ensurePrivateDir(dir: string): string | null {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return `${dir}: ${(e as Error).message}`;
  }
  return unsafeDirReason(dir);
}

/** Whether `path` is a socket owned by this user (not a stale regular file, not another user's). */
export function isOwnSocket(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isSocket() && st.uid === uid();
  } catch {
    return false;
  }
}

function uid(): number {
  return process.getuid?.() ?? -1;
}
