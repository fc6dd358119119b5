// `depends_on` of each task (docs/reference/runtime.md §19.3): a parallel task depends on the last sequential
// task and joins the open group; a sequential task depends on the whole open group (closing it),
// else on the last sequential task.

export interface DependencyInput {
  readonly id: string;
  readonly parallel: boolean;
}

/** The dependencies of each task, in task order (ids must be distinct). */
export function dependencies(tasks: readonly DependencyInput[]): string[][] {
  let last: string | null = null;
  let group: string[] = [];
  return tasks.map((task) => {
    if (task.parallel) {
      group.push(task.id);
      return last === null ? [] : [last];
    }
    const deps: string[] = group.length > 0 ? group : last === null ? [] : [last];
    group = [];
    last = task.id;
    return [...deps];
  });
}
