// A result cache in memory (flow/result-cache.ts), for tests and the fuzzer: each entry is kept as
// its JSON text, so a hit is a fresh value, as when it is read back from a file.
import { parseJson } from "../../stdlib/values/json-parse";
import type { PyValue } from "../../stdlib/values/value";
import type { ResultCacheEntry, ResultCacheStore } from "../flow/result-cache";
import { encodeWire } from "../wire/encode";

export class MemoryResultCache implements ResultCacheStore {
  private held = new Map<string, string>();
  /** How many reads found an entry. */
  hits = 0;

  /** Key → the stored output's JSON text. */
  get entries(): Map<string, string> {
    return this.held;
  }

  /** Forgets every entry: a fresh map, not `Map.clear` (../base/forget-keys.ts says why). */
  clear(): void {
    this.held = new Map();
  }

  get(key: string): PyValue | null {
    const text = this.entries.get(key);
    if (text === undefined) return null;
    this.hits += 1;
    return parseJson(text);
  }

  put(entry: ResultCacheEntry): void {
    this.entries.set(entry.key, encodeWire(entry.output));
  }
}
