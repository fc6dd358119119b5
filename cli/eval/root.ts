// The working root of the file builtins for `stratumc eval` (`--root`, default: the current
// directory). The root is resolved to its real path once, so that confinement checks compare real
// paths on both sides.
import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { nodeFileSystem } from "../../host/index";
import type { FileAccess } from "../../stdlib/index";
import { UsageError } from "../exit-codes";

export function fileAccessFor(dir: string | undefined): FileAccess {
  const wanted = resolve(dir ?? ".");
  let root: string;
  try {
    root = realpathSync(wanted);
  } catch {
    throw new UsageError(`--root: no such directory: ${wanted}`);
  }
  if (!statSync(root).isDirectory()) throw new UsageError(`--root: not a directory: ${wanted}`);
  return { root, fs: nodeFileSystem };
}
