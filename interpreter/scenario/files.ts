// A test's `files:` as the file system the spec's file builtins see: in memory, rooted at a fixed
// directory, so a test never depends on what is on the disk where it runs.

import type { ScenarioFiles } from "../../checker/index";
import type { FileAccess } from "../../stdlib/index";

const ROOT = "/scenario";

/** `a/./b/../c` → `a/c` (no `..` above the root). */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

export function scenarioFiles(files: ScenarioFiles): { readonly access: FileAccess; readonly cwd: string } {
  const byPath = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  for (const [path, text] of files) {
    const abs = path.startsWith("/") ? normalise(path) : normalise(`${ROOT}/${path}`);
    byPath.set(abs, encoder.encode(text));
  }
  return {
    cwd: ROOT,
    access: {
      root: ROOT,
      fs: {
        realpath: (path) => (byPath.has(path) || path === ROOT ? path : null),
        stat: (path) => {
          const bytes = byPath.get(path);
          return bytes === undefined ? null : { isFile: true, size: bytes.length };
        },
        readFile: (path, maxBytes) => byPath.get(path)?.subarray(0, maxBytes) ?? null,
      },
    },
  };
}
