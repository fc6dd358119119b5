// A workspace with no files, for tests whose flows never read or write project files.
import type { WorkspaceFs } from "../../interpreter/index";

export const NO_WORKSPACE: WorkspaceFs = {
  readDir: () => ({ ok: false, reason: "no files" }),
  isDirectory: () => false,
  readFile: () => ({ ok: false, reason: "no files" }),
  writeFile: () => ({ ok: false, reason: "no files" }),
  realpath: (path) => path,
};
