// list_workflows, compile_speckit and draft_pipeline (docs/reference/runtime.md §18–20): helper E's functions
// over the injected WorkspaceFs and the server's working directory, with the documented defaults,
// confined to the workspace root: a directory
// argument that resolves outside the root is refused before anything is listed, read or written,
// and every file under it is read through the confined file system (a `*.md` symbolic link out of
// the root is a compile_error, a `*.stratum.yaml` one an entry of `errors`).
import type { PyValue } from "../../stdlib/values/value";
import { toolError } from "../base/tool-errors";
import { compileSpeckit } from "../speckit/compile";
import type { Response } from "../wire/wire";
import { confineWorkspace, resolveInWorkspace } from "../workspace/confine";
import { draftPipeline } from "../workspace/draft-pipeline";
import { listWorkflows } from "../workspace/list-workflows";
import { resolveAgainst } from "../workspace/paths";
import type { EngineOptions } from "./options";

export interface WorkspaceTools {
  listWorkflows(args: { readonly workflows_dir?: string }): Response;
  compileSpeckit(args: { readonly tasks_dir: string; readonly flow_name?: string }): Response;
  draftPipeline(args: { readonly draft: PyValue; readonly project_dir?: string }): Response;
}

/** The error_type of a tool argument that resolves outside the workspace root. */
const OUTSIDE_ROOT = "outside_workspace_root";

export function workspaceTools(
  options: Pick<EngineOptions, "workspace" | "cwd" | "workspaceRoot">,
): WorkspaceTools {
  const { cwd } = options;
  const root = options.workspaceRoot ?? cwd;
  const workspace = confineWorkspace(options.workspace, root);
  /** Null when `dir` (as given) resolves inside the root, else the message refusing it. */
  const refusal = (argument: string, dir: string): string | null =>
    resolveInWorkspace(options.workspace, root, resolveAgainst(cwd, dir)) === null
      ? `${argument} '${dir}' is outside the workspace root '${root}'`
      : null;
  return {
    listWorkflows: (args) => {
      const dir = args.workflows_dir ?? ".";
      const refused = refusal("workflows_dir", dir);
      // The tool's own error shape: no workflows, one error string.
      if (refused !== null) return { workflows: [], errors: [refused] };
      return listWorkflows(workspace, cwd, dir);
    },
    compileSpeckit: (args) => {
      const refused = refusal("tasks_dir", args.tasks_dir);
      if (refused !== null) return toolError(OUTSIDE_ROOT, refused);
      return compileSpeckit(workspace, cwd, args.tasks_dir, args.flow_name ?? "tasks");
    },
    draftPipeline: (args) => {
      const dir = args.project_dir ?? ".";
      const refused = refusal("project_dir", dir);
      if (refused !== null) return toolError(OUTSIDE_ROOT, refused);
      return draftPipeline(workspace, cwd, args.draft, dir);
    },
  };
}
