// The result cache's files (docs/reference/runtime.md §25.4): one JSON file per key under
// `$STRATUM_HOME/cache/results`, shared by every flow and process of the user, as the reference
// keeps them under ~/.stratum/cache/results. Best effort, never wrong: whatever is unreadable,
// damaged, too large, too deep or from another format version is a miss (and the engine checks a
// hit against the step's current contract, schema and ensure before using it); a write goes to a
// temporary file renamed over the entry, so a reader never sees half of one.
import * as fs from "node:fs";
import { join } from "node:path";
import {
  encodeWire,
  RESULT_CACHE_VERSION,
  type ResultCacheEntry,
  type ResultCacheStore,
} from "../../interpreter/index";
import { PyDict, type PyValue, parseJson } from "../../stdlib/index";
import { readRegularFileWithin } from "../regular-file";

/** The limits of the cache (STRATUM_CACHE_MAX_AGE_DAYS, STRATUM_CACHE_MAX_ENTRIES; host/compose.ts). */
export interface ResultCacheLimits {
  readonly maxAgeDays: number;
  readonly maxEntries: number;
  /** Entries larger than this are neither written nor read (bytes). */
  readonly maxEntryBytes: number;
  /** Entries nested deeper than this are neither written nor read. */
  readonly maxDepth: number;
}

export const DEFAULT_RESULT_CACHE_LIMITS: ResultCacheLimits = {
  maxAgeDays: 30,
  maxEntries: 2000,
  maxEntryBytes: 8 * 1024 * 1024,
  maxDepth: 512,
};

/** One write in this many sweeps the directory (age, then count), as the reference does. */
const SWEEP_EVERY = 50;
const KEY = /^[0-9a-f]{64}$/;

export class FileResultCache implements ResultCacheStore {
  private writes = 0;

  constructor(
    readonly dir: string,
    private readonly limits: ResultCacheLimits = DEFAULT_RESULT_CACHE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): PyValue | null {
    if (!KEY.test(key)) return null;
    try {
      const read = readRegularFileWithin(join(this.dir, `${key}.json`), this.limits.maxEntryBytes);
      if (!read.ok) return null;
      const record = parseJson(read.bytes.toString("utf8"), { maxDepth: this.limits.maxDepth + 1 });
      return outputOf(record, key);
    } catch {
      return null;
    }
  }

  put(entry: ResultCacheEntry): void {
    if (!KEY.test(entry.key)) return;
    let text: string;
    try {
      text = encodeWire(
        {
          key: entry.key,
          cache_version: RESULT_CACHE_VERSION,
          flow_name: entry.flowName,
          step_id: entry.stepId,
          output: entry.output,
          created_at: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
          source_flow_id: entry.sourceFlowId,
        },
        { indent: 2, maxDepth: this.limits.maxDepth + 1 },
      );
    } catch {
      return; // too deep to read back: not worth keeping
    }
    if (Buffer.byteLength(text, "utf8") > this.limits.maxEntryBytes) return;
    const path = join(this.dir, `${entry.key}.json`);
    const tmp = join(this.dir, `.${entry.key}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
      fs.renameSync(tmp, path);
    } catch {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // nothing was written
      }
      return;
    }
    this.writes += 1;
    if (this.writes % SWEEP_EVERY === 0) this.sweep();
  }

  /**
   * Removes entries older than maxAgeDays (by modification time), then the oldest until at most
   * maxEntries remain. A removed entry is at worst a later miss.
   */
  sweep(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith(".json") && KEY.test(n.slice(0, -5)));
    } catch {
      return;
    }
    const cutoff = this.now() - this.limits.maxAgeDays * 86_400_000;
    const kept: { name: string; mtime: number }[] = [];
    for (const name of names) {
      const mtime = mtimeOf(join(this.dir, name));
      if (mtime === null) continue;
      if (mtime < cutoff) remove(join(this.dir, name));
      else kept.push({ name, mtime });
    }
    if (kept.length <= this.limits.maxEntries) return;
    kept.sort((a, b) => a.mtime - b.mtime);
    for (const { name } of kept.slice(0, kept.length - this.limits.maxEntries)) remove(join(this.dir, name));
  }
}

/** The output of a well-formed record of this format version for this key, else null. */
function outputOf(record: PyValue, key: string): PyValue | null {
  if (!(record instanceof PyDict)) return null;
  const field = (name: string): readonly [PyValue, PyValue] | undefined =>
    [...record.entries.values()].find(([k]) => k === name);
  const version = field("cache_version")?.[1];
  if (!(version === RESULT_CACHE_VERSION || version === BigInt(RESULT_CACHE_VERSION))) return null;
  if (field("key")?.[1] !== key) return null;
  const output = field("output");
  return output === undefined ? null : output[1];
}

function mtimeOf(path: string): number | null {
  try {
    return fs.statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function remove(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // already gone
  }
}
