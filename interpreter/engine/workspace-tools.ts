// list_workflows, compile_speckit and draft_pipeline (runtime.md §18–20): helper E's functions
// over the injected WorkspaceFs and the server's working directory, with the documented defaults.
import type { PyValue } from "../../stdlib/values/value";
import { compileSpeckit } from "../speckit/compile";
import type { Response } from "../wire/wire";
import { draftPipeline } from "../workspace/draft-pipeline";
import { listWorkflows } from "../workspace/list-workflows";
import type { EngineOptions } from "./options";

export interface WorkspaceTools {
  listWorkflows(args: { readonly workflows_dir?: string }): Response;
  compileSpeckit(args: { readonly tasks_dir: string; readonly flow_name?: string }): Response;
  draftPipeline(args: { readonly draft: PyValue; readonly project_dir?: string }): Response;
}

export function workspaceTools(options: Pick<EngineOptions, "workspace" | "cwd">): WorkspaceTools {
  const { workspace, cwd } = options;
  return {
    listWorkflows: (args) => listWorkflows(workspace, cwd, args.workflows_dir ?? "."),
    compileSpeckit: (args) => compileSpeckit(workspace, cwd, args.tasks_dir, args.flow_name ?? "tasks"),
    draftPipeline: (args) => draftPipeline(workspace, cwd, args.draft, args.project_dir ?? "."),
  };
}
