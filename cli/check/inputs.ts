// `stratumc check` arguments → the inputs to check, sorted and without repeats.
//   -            standard input, shown as `<stdin>`
//   a directory  every *.stratum.yaml / *.stratum.yml below it (recursive; node_modules and
//                directories whose name starts with `.` are skipped; symlinked directories are not
//                followed)
//   a glob       the files it matches (tinyglobby; `node_modules` is skipped unless the pattern
//                names it); a glob that matches nothing is a usage error
//   anything else a file (one that does not exist is reported as IO-READ)
// An argument that exists on disk is never taken as a glob. No argument means `.`.
import { type Dirent, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { globSync, isDynamicPattern } from "tinyglobby";
import { UsageError } from "../exit-codes";
import { ioReason } from "./read-spec";

export type Input =
  | { readonly kind: "stdin"; readonly display: "<stdin>" }
  | { readonly kind: "file"; readonly display: string; readonly path: string }
  /** A directory that could not be listed. */
  | { readonly kind: "unreadable"; readonly display: string; readonly reason: string };

export const STDIN_NAME = "<stdin>";
const SPEC_FILE = /\.stratum\.ya?ml$/;

/**
 * `files` is the name pattern a directory is searched for (`check`: specs; `test`: scenario test
 * files, `*.stratum-test.yaml`).
 */
export function resolveInputs(args: readonly string[], cwd: string, files: RegExp = SPEC_FILE): Input[] {
  const found = new Map<string, Input>();
  const add = (input: Input) => {
    const key = input.kind === "file" ? input.path : `${input.kind}:${input.display}`;
    if (!found.has(key)) found.set(key, input);
  };
  for (const arg of args.length === 0 ? ["."] : args) {
    if (arg === "-") {
      add({ kind: "stdin", display: STDIN_NAME });
      continue;
    }
    const path = resolve(cwd, arg);
    const kind = statKind(path);
    if (kind === "directory") walk(path, cwd, add, files);
    else if (kind === "missing" && isDynamicPattern(arg)) {
      const matches = globSync(arg, {
        cwd,
        absolute: true,
        onlyFiles: true,
        expandDirectories: false,
        ...(arg.includes("node_modules") ? {} : { ignore: ["**/node_modules/**"] }),
      });
      if (matches.length === 0) throw new UsageError(`no files match '${arg}'`);
      for (const m of matches) add({ kind: "file", display: display(m, cwd), path: m });
    } else add({ kind: "file", display: display(path, cwd), path });
  }
  return [...found.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
}

function statKind(path: string): "directory" | "other" | "missing" {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "other";
  }
}

function walk(dir: string, cwd: string, add: (input: Input) => void, files: RegExp): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    add({ kind: "unreadable", display: display(dir, cwd), reason: ioReason(e) });
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(path, cwd, add, files);
    } else if (files.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && isFile(path)))) {
      add({ kind: "file", display: display(path, cwd), path });
    }
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path relative to the working directory (absolute only when no relative path exists). */
function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : isAbsolute(rel) ? path : rel;
}
