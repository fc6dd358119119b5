// The task lists a decompose step reports, as the fuzzer's agent varies them: the list a later
// parallel_dispatch step of the same flow reads through its `source` (`$.steps.<id>.output.<field>`)
// is replaced by one of 0, 1 or several tasks, with dependencies that are sometimes cyclic or
// dangling, ids that are sometimes repeated, and `files_owned` that are sometimes shared (so
// `no_file_conflicts` ensures and the dispatch-time task-graph check, docs/reference/runtime.md §23.1, run).
import type { Plain } from "../../session";

export type TaskListShape =
  | "as-generated"
  | "empty"
  | "one"
  | "several"
  | "shared-files"
  | "cycle"
  | "dangling"
  | "duplicate-id";

function isObject(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The tasks of the new list: the generated ones as templates, ids `t1`, `t2`, … (numbers if the
 * template's id is one). A decompose agent reports task objects (the payload asks for them): items
 * of a generated list that are not objects are replaced by task objects, the list keeping its size
 * when it is reported as generated.
 */
function tasks(shape: TaskListShape, generated: readonly unknown[]): unknown[] {
  if (shape === "empty") return [];
  const objects = generated.every(isObject);
  const n = shape === "one" ? 1 : shape === "as-generated" ? generated.length : 3;
  const list: Plain[] = [];
  for (let i = 0; i < n; i++) {
    const template = objects
      ? ((generated[i % Math.max(1, generated.length)] as Plain | undefined) ?? {})
      : {};
    const id: unknown = typeof template.id === "number" ? i + 1 : `t${i + 1}`;
    list.push({
      ...template,
      id,
      depends_on: i === 0 ? [] : [list[i - 1]!.id],
      files_owned: [`src/t${i + 1}.ts`],
    });
  }
  const last = list[list.length - 1]!;
  switch (shape) {
    case "shared-files":
      // no_file_conflicts compares only independent tasks: no dependencies here.
      for (const t of list) t.depends_on = [];
      last.files_owned = [...(last.files_owned as string[]), "src/t1.ts"];
      break;
    case "cycle":
      list[0]!.depends_on = [last.id];
      break;
    case "dangling":
      last.depends_on = ["no-such-task"];
      break;
    case "duplicate-id":
      last.id = list[0]!.id;
      last.depends_on = [];
      break;
    default:
  }
  return list;
}

/** `result` with the list at `path` replaced (unchanged when the path does not lead to a list). */
function replaceAt(result: unknown, path: readonly string[], shape: TaskListShape): unknown {
  if (path.length === 0) return Array.isArray(result) ? tasks(shape, result) : result;
  if (!isObject(result)) return result;
  const [head, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(result, head)) return result;
  return { ...result, [head]: replaceAt(result[head], rest, shape) };
}

export function shapeTaskLists(result: unknown, paths: readonly string[][], shape: TaskListShape): unknown {
  return paths.reduce(
    (r, p) => (shape === "as-generated" && !holdsNonObjects(r, p) ? r : replaceAt(r, p, shape)),
    result,
  );
}

/** Whether the list at `path` of `result` has an item that is not an object. */
function holdsNonObjects(result: unknown, path: readonly string[]): boolean {
  let v: unknown = result;
  for (const key of path) v = isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
  return Array.isArray(v) && !v.every(isObject);
}
