// The dependency graph of a parallel step's task list, checked at dispatch (a decision of ours:
// the reference finds a cycle only when the server runs the tasks, and an unknown dependency only
// when the task waits for it). Tasks are the objects of the list that have an `id`; anything else
// in the list is left to the consumer. `depends_on` is a list of ids, a string is one id, null is
// none.
import { dictGetStr } from "../../stdlib/values/dict";
import { str } from "../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../stdlib/values/value";

export interface TaskGraphNode {
  readonly id: string;
  readonly dependsOn: readonly string[];
}

/** A task's id as a string (Python `str` of a non-string id); null without `id`. */
function taskIdOf(task: PyValue): string | null {
  if (!(task instanceof PyDict)) return null;
  const id = dictGetStr(task, "id");
  return id === undefined ? null : typeof id === "string" ? id : str(id);
}

/** The ids a task depends on, as written (see the header for the accepted shapes). */
export function dependenciesOf(task: PyDict): string[] {
  const deps = dictGetStr(task, "depends_on");
  if (deps === undefined || deps === null) return [];
  if (typeof deps === "string") return [deps];
  if (Array.isArray(deps))
    return (deps as readonly PyValue[]).map((d) => (typeof d === "string" ? d : str(d)));
  return [];
}

/** The nodes of a task list: every object with an `id`, in list order. */
export function taskGraphOf(tasks: PyValue): TaskGraphNode[] {
  if (!Array.isArray(tasks)) return [];
  const nodes: TaskGraphNode[] = [];
  for (const task of tasks as readonly PyValue[]) {
    const id = taskIdOf(task);
    if (id !== null && task instanceof PyDict) nodes.push({ id, dependsOn: dependenciesOf(task) });
  }
  return nodes;
}

/**
 * The first problem of a task graph, or null: a duplicate id, then a dependency on an id that is
 * not in the list, then a cycle (`task dependency cycle: a -> b -> a`, the path of the first cycle
 * a depth-first search in list order meets, its first task repeated at the end).
 */
export function taskGraphProblem(nodes: readonly TaskGraphNode[]): string | null {
  const byId = new Map<string, TaskGraphNode>();
  for (const node of nodes) {
    if (byId.has(node.id)) return `duplicate task id '${node.id}'`;
    byId.set(node.id, node);
  }
  for (const node of nodes) {
    for (const dep of node.dependsOn) {
      if (!byId.has(dep)) return `task '${node.id}' depends_on unknown task '${dep}'`;
    }
  }
  const cycle = firstCycle(nodes, byId);
  return cycle === null ? null : `task dependency cycle: ${cycle.join(" -> ")}`;
}

/** Iterative white/grey/black depth-first search (task lists are data: no recursion on them). */
function firstCycle(
  nodes: readonly TaskGraphNode[],
  byId: ReadonlyMap<string, TaskGraphNode>,
): string[] | null {
  const done = new Set<string>();
  for (const root of nodes) {
    if (done.has(root.id)) continue;
    const path: string[] = [];
    const onPath = new Set<string>();
    const stack: { node: TaskGraphNode; next: number }[] = [{ node: root, next: 0 }];
    path.push(root.id);
    onPath.add(root.id);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const dep = top.node.dependsOn[top.next];
      if (dep === undefined) {
        stack.pop();
        path.pop();
        onPath.delete(top.node.id);
        done.add(top.node.id);
        continue;
      }
      top.next += 1;
      if (onPath.has(dep)) return [...path.slice(path.indexOf(dep)), dep];
      const child = byId.get(dep);
      if (child === undefined || done.has(dep)) continue;
      stack.push({ node: child, next: 0 });
      path.push(dep);
      onPath.add(dep);
    }
  }
  return null;
}
