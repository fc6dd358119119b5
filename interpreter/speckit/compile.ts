// `stratum_compile_speckit(tasks_dir, flow_name)` (docs/reference/runtime.md §19.1): a directory of spec-kit task
// files → a version 0.1 spec, or one of the tool errors directory_not_found, no_tasks,
// step_id_collision, compile_error. Files are read through the injected WorkspaceFs.

import { checkSpec } from "../../checker/check-spec";
import { MAX_SPEC_BYTES } from "../../checker/yaml/rules/YAML-TOO-LARGE";
import { compareCodePoints } from "../../stdlib/values/strings";
import { toolError } from "../base/tool-errors";
import type { Response, Wire, WireObject } from "../wire/wire";
import { joinPath, pathlibText, resolveAgainst } from "../workspace/paths";
import { decodeUtf8 } from "../workspace/utf8";
import type { WorkspaceFs } from "../workspace/workspace";
import { buildSpecDocument, type CompiledTask } from "./build-spec";
import { compileCriteria } from "./criteria";
import { dependencies } from "./dependencies";
import { emitYaml } from "./emit-yaml";
import { readTaskText } from "./read-tasks";
import { findIdCollision, stepIdOf, type Task } from "./step-id";

type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Response };

export function compileSpeckit(fs: WorkspaceFs, cwd: string, tasksDir: string, flowName = "tasks"): Response {
  const dir = resolveAgainst(cwd, tasksDir);
  if (!fs.isDirectory(dir)) {
    return toolError("directory_not_found", `tasks_dir '${tasksDir}' is not a directory`);
  }
  const listing = fs.readDir(dir);
  if (!listing.ok) {
    return toolError("compile_error", `Cannot list tasks_dir '${tasksDir}': ${listing.reason}`);
  }
  // Every entry named *.md (dot-files too); a directory so named fails when it is read.
  const names = listing.value
    .map((entry) => entry.name)
    .filter((name) => name.endsWith(".md"))
    .sort(compareCodePoints);
  if (names.length === 0) {
    return toolError("no_tasks", `No task files (*.md) found in ${pathlibText(tasksDir)}`);
  }
  // All files are read before ids are compared, so a read failure wins over a collision.
  const tasks: Task[] = [];
  for (const name of names) {
    const read = readTask(fs, dir, name);
    if (!read.ok) return read.error;
    tasks.push(read.value);
  }
  const collision = findIdCollision(tasks);
  if (collision !== null) return toolError("step_id_collision", collision);
  return compiledResponse(tasks, flowName);
}

function readTask(fs: WorkspaceFs, dir: string, name: string): Read<Task> {
  // A task file is held to the spec size limit: anything larger is not read.
  const bytes = fs.readFile(joinPath(dir, name), MAX_SPEC_BYTES);
  const decoded = bytes.ok ? decodeUtf8(bytes.value) : { ok: false as const, reason: bytes.reason };
  if (!decoded.ok) {
    return {
      ok: false,
      error: toolError("compile_error", `Cannot read task file '${name}': ${decoded.reason}`),
    };
  }
  return { ok: true, value: { ...readTaskText(decoded.text), fileName: name, id: stepIdOf(name) } };
}

function compiledResponse(tasks: readonly Task[], flowName: string): Response {
  const deps = dependencies(tasks);
  const compiled: CompiledTask[] = tasks.map((task, i) => ({
    ...compileCriteria(task.criteria),
    id: task.id,
    title: task.title,
    description: task.description,
    dependsOn: deps[i] ?? [],
  }));
  const yaml = emitYaml(buildSpecDocument(compiled, flowName));
  const steps: WireObject[] = compiled.map((task, i) => ({
    id: task.id,
    title: task.title,
    parallel: tasks[i]?.parallel ?? false,
    ensures: [...task.ensures],
    judgment: [...task.judgment],
  }));
  const response: Record<string, Wire> = { status: "ok", yaml, flow_name: flowName, steps };
  // The reference answers `ok` even when its spec does not validate (a path or needle with `"` or
  // `\` breaks the ensure's string literal); we keep `ok` and say why it will not plan.
  const problems = validationProblems(yaml);
  if (problems.length > 0) response.warnings = problems;
  return response;
}

function validationProblems(yaml: string): string[] {
  return checkSpec(yaml).errors.map((d) => `compiled spec: ${d.path}: ${d.message}`);
}
