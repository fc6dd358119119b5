// Step ids from task file names (docs/reference/runtime.md §19.3): `01-research.md` → `t01_research`.
import type { TaskText } from "./read-tasks";

/** pathlib's `stem`: the name without its last suffix; a leading dot does not start a suffix. */
export function fileStem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(0, dot) : name;
}

/** Lowercase, every code point outside a-z0-9 → `_`, `_` stripped, `t` before a digit, else `task`. */
function stepIdFromStem(stem: string): string {
  const slug = stem
    .toLowerCase()
    .replace(/[^a-z0-9]/gu, "_")
    .replace(/^_+|_+$/g, "");
  if (slug === "") return "task";
  return /^[0-9]/.test(slug) ? `t${slug}` : slug;
}

export function stepIdOf(fileName: string): string {
  return stepIdFromStem(fileStem(fileName));
}

/** A parsed task file with its id. */
export interface Task extends TaskText {
  readonly fileName: string;
  readonly id: string;
}

/** The message of the first file whose id an earlier file already produced, or null. */
export function findIdCollision(tasks: readonly Task[]): string | null {
  const firstFile = new Map<string, string>();
  for (const task of tasks) {
    const first = firstFile.get(task.id);
    if (first !== undefined) {
      return `Step ID collision: '${task.id}' from '${task.fileName}' conflicts with '${first}'. Rename one of the files to produce a distinct step ID.`;
    }
    firstFile.set(task.id, task.fileName);
  }
  return null;
}
