// The undo log of one working copy. A working run's state is a shallow copy of the
// committed one (clone.ts): its maps and lists ARE the committed containers until a field is
// reassigned. In-place changes of those shared containers go through edits.ts, which records here,
// per container, how to undo them (when the call does not commit) and what changed (the call's
// state delta). Everything is O(the change), except the first delete of a committed key of a map,
// which saves that map's committed entries once (a JS Map cannot put a key back at its place).
import type { FlowRun } from "./run";

type EntryMap = Map<string, unknown>;

/** What a touched key held in the committed container. */
interface Touch {
  readonly had: boolean;
  readonly old: unknown;
  /** A committed key deleted during the call (present again only if put again, then last). */
  removed: boolean;
}

class MapLog {
  /**
   * The touched keys. A key inserted at the end of the map (new, or put again after a delete)
   * moves to the end here too, so these keys are in the map's own order; a new key deleted again
   * is forgotten (absent before and after).
   */
  readonly touched = new Map<string, Touch>();
  /** The committed entries in order, saved before the first delete of a committed key. */
  saved: (readonly [string, unknown])[] | null = null;
}

/** A map's change since the call began: delete `deleted`, then put `put` (new keys go last). */
export interface MapEdit {
  readonly put: Map<string, unknown>;
  readonly deleted: readonly string[];
}

export class EditLog {
  /**
   * The committed run, whose containers (state fields and timing maps) are the ones changes are
   * logged for; null once closed. Never changed itself (the working copy is another object), so
   * asking it answers as a set of its containers taken now would, without building one per call.
   */
  private committed: FlowRun | null;
  // Both made on the first change logged: a working copy is made for every flow a call edits,
  // and many calls change no shared map, or no shared list, of it.
  private maps: Map<EntryMap, MapLog> | null = null;
  /** Shared list → its committed length. */
  private lists: Map<unknown[], number> | null = null;

  constructor(committed: FlowRun) {
    this.committed = committed;
  }

  /** Whether `container` belongs to the committed run (so changing it must be logged). */
  shares(container: unknown): boolean {
    const run = this.committed;
    if (run === null || !(container instanceof Map || Array.isArray(container))) return false;
    if (container === run.timing.stepDispatchedAt || container === run.timing.gateDispatchedAt) return true;
    const fields = run.state as unknown as Readonly<Record<string, unknown>>;
    for (const key in fields) if (fields[key] === container) return true;
    return false;
  }

  put(map: EntryMap, key: string, value: unknown): void {
    const log = this.mapLog(map);
    const present = map.has(key);
    const touch = log.touched.get(key);
    if (touch === undefined) log.touched.set(key, { had: present, old: map.get(key), removed: false });
    else if (!present) {
      // A committed key put again after its delete: it goes last in the map, so last here too.
      log.touched.delete(key);
      log.touched.set(key, touch);
    }
    map.set(key, value);
  }

  delete(map: EntryMap, key: string): void {
    if (!map.has(key)) return;
    const log = this.mapLog(map);
    const touch = log.touched.get(key);
    if (touch !== undefined && !touch.had) {
      log.touched.delete(key); // new in this call: as if never put
    } else {
      log.saved ??= committedEntries(map, log.touched);
      if (touch === undefined) log.touched.set(key, { had: true, old: map.get(key), removed: true });
      else touch.removed = true;
    }
    map.delete(key);
  }

  push(list: unknown[], item: unknown): void {
    this.lists ??= new Map();
    if (!this.lists.has(list)) this.lists.set(list, list.length);
    list.push(item);
  }

  /** The change of a shared map made through this log, or null when there was none. */
  mapEdit(map: ReadonlyMap<string, unknown>): MapEdit | null {
    const log = this.maps?.get(map as EntryMap);
    if (log === undefined) return null;
    const put = new Map<string, unknown>();
    const deleted: string[] = [];
    for (const [key, touch] of log.touched) {
      if (touch.removed) deleted.push(key);
      if (!map.has(key)) continue;
      const value = map.get(key);
      if (!touch.had || touch.removed || value !== touch.old) put.set(key, value);
    }
    return { put, deleted };
  }

  /** The items pushed onto a shared list through this log, or null when there were none. */
  appended(list: readonly unknown[]): readonly unknown[] | null {
    const length = this.lists?.get(list as unknown[]);
    return length === undefined ? null : list.slice(length);
  }

  /** Whether a shared container was changed through this log. */
  changed(container: unknown): boolean {
    return this.maps?.has(container as EntryMap) === true || this.lists?.has(container as unknown[]) === true;
  }

  /** Undoes every change: each shared container holds its committed entries in their order again. */
  rollback(): void {
    if (this.maps !== null)
      for (const [map, log] of this.maps) {
        if (log.saved !== null) {
          map.clear();
          for (const [key, value] of log.saved) map.set(key, value);
          continue;
        }
        // No committed key was deleted: they are all in place; new keys were added at the end.
        for (const [key, touch] of log.touched) {
          if (touch.had) map.set(key, touch.old);
          else map.delete(key);
        }
      }
    if (this.lists !== null) for (const [list, length] of this.lists) list.length = length;
    this.close();
  }

  /** Forgets everything (after a commit): later changes are no longer logged. */
  close(): void {
    this.maps = null;
    this.lists = null;
    this.committed = null;
  }

  private mapLog(map: EntryMap): MapLog {
    this.maps ??= new Map();
    let log = this.maps.get(map);
    if (log === undefined) {
      log = new MapLog();
      this.maps.set(map, log);
    }
    return log;
  }
}

/** The committed entries of a shared map, in order, from its current entries and the touched keys. */
function committedEntries(
  map: EntryMap,
  touched: ReadonlyMap<string, Touch>,
): (readonly [string, unknown])[] {
  const out: (readonly [string, unknown])[] = [];
  for (const [key, value] of map) {
    const touch = touched.get(key);
    if (touch === undefined) out.push([key, value]);
    else if (touch.had) out.push([key, touch.old]);
  }
  return out;
}
