// `stratum_draft_pipeline(draft, project_dir)` (docs/reference/runtime.md §20): writes the draft as indented JSON
// to `<project_dir>/.stratum/pipeline-draft.json` for an external editor. Only `name` and `phases`
// get defaults; nothing else is validated.
import { dictGetStr, dictSet, makeDict } from "../../stdlib/values/dict";
import { isList, PyDict, type PyValue } from "../../stdlib/values/value";
import { toolError } from "../base/tool-errors";
import { encodeWire } from "../wire/encode";
import type { Response } from "../wire/wire";
import { joinPath, resolveAgainst } from "./paths";
import type { WorkspaceFs } from "./workspace";

const DRAFT_FILE = ".stratum/pipeline-draft.json";

export function draftPipeline(fs: WorkspaceFs, cwd: string, draft: PyValue, projectDir = "."): Response {
  const path = joinPath(fs.realpath(resolveAgainst(cwd, projectDir)), DRAFT_FILE);
  const written = fs.writeFile(path, encodeWire(withDefaults(draft), { indent: 2 }));
  // The reference fails with an internal error here; we say which file could not be written.
  if (!written.ok) return toolError("write_error", `Cannot write '${path}': ${written.reason}`);
  return { status: "saved", path };
}

/**
 * A copy of the draft (stored data is never mutated) with `name` set to "my-pipeline" unless it is a
 * non-empty string and `phases` set to [] unless it is a list; a replaced key keeps its place, a
 * missing one is added at the end. A draft that is not an object is taken as `{}`.
 */
function withDefaults(draft: PyValue): PyDict {
  const out = draft instanceof PyDict ? makeDict(draft.entries.values()) : new PyDict();
  const name = dictGetStr(out, "name");
  if (typeof name !== "string" || name === "") dictSet(out, "name", "my-pipeline");
  const phases = dictGetStr(out, "phases");
  if (phases === undefined || !isList(phases)) dictSet(out, "phases", []);
  return out;
}
