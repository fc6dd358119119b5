// The ids of the tasks or members a payload fans out to, as every kind that fans out reports them.
import type { Plain } from "../session";

function isObject(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The task ids of a dispatched task list: an object's `id` as Python `str()` would print it, else `task-<i>`. */
export function taskIds(tasks: unknown): string[] {
  if (!Array.isArray(tasks)) return [];
  return tasks.map((t, i) => {
    const id = isObject(t) ? t.id : undefined;
    return typeof id === "string" ? id : typeof id === "number" ? String(id) : `task-${i + 1}`;
  });
}
