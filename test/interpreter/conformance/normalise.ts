// Normalisation of product responses (test/conformance/recorded/README.md §2.2): timing values → 0 at any depth,
// the working directory → `<CWD>` in strings, and flow ids → the recorded `FLOW_n` names through a
// one-to-one renaming built while walking the recorded and product responses side by side.

const TIMING_KEYS: ReadonlySet<string> = new Set([
  "duration_ms",
  "total_duration_ms",
  "remaining_seconds",
  "timestamp",
  "started_at",
]);

const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
const FLOW_NAME = /FLOW_[0-9]+/g;
const HAS_FLOW_NAME = /FLOW_[0-9]+/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function mapDeep(v: unknown, onString: (s: string) => string, key?: string): unknown {
  if (typeof v === "string") return onString(v);
  if ((typeof v === "number" || typeof v === "bigint") && key !== undefined && TIMING_KEYS.has(key)) return 0;
  if (Array.isArray(v)) return v.map((x) => mapDeep(x, onString));
  if (isRecord(v)) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, x] of Object.entries(v)) out[k] = mapDeep(x, onString, k);
    return out;
  }
  return v;
}

/** Timing keys → 0 and the working directory (if given) → `<CWD>` (plain data in, new plain data out). */
export function normaliseResponse(plain: unknown, cwd?: string): unknown {
  return mapDeep(plain, (s) => (cwd === undefined ? s : s.split(cwd).join("<CWD>")));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The consistent one-to-one renaming of product flow ids to recorded `FLOW_n` names. */
export class FlowIdNames {
  private readonly nameOfId = new Map<string, string>();
  private readonly idOfName = new Map<string, string>();
  /** Pairs that contradict the renaming (reported by the runner as a failure of their own). */
  readonly conflicts: string[] = [];

  private bind(name: string, id: string): void {
    const knownName = this.nameOfId.get(id);
    const knownId = this.idOfName.get(name);
    if (knownName === undefined && knownId === undefined) {
      this.nameOfId.set(id, name);
      this.idOfName.set(name, id);
    } else if (knownName !== name || knownId !== id) {
      this.conflicts.push(`${name} ↔ ${id} (already ${knownName ?? "unnamed"} ↔ ${knownId ?? "unbound"})`);
    }
  }

  /** Binds the ids of `actual` found where `recorded` has FLOW_n names (same structure, side by side). */
  learn(recorded: unknown, actual: unknown): void {
    if (typeof recorded === "string" && typeof actual === "string") {
      if (!HAS_FLOW_NAME.test(recorded)) return;
      const names = recorded.match(FLOW_NAME) ?? [];
      const pattern = new RegExp(`^${recorded.split(FLOW_NAME).map(escapeRegExp).join(`(${UUID.source})`)}$`);
      const m = pattern.exec(actual);
      if (m) {
        names.forEach((name, i) => {
          this.bind(name, m[i + 1]!.toLowerCase());
        });
      }
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(actual)) {
      recorded.forEach((r, i) => {
        if (i < actual.length) this.learn(r, actual[i]);
      });
      return;
    }
    if (isRecord(recorded) && isRecord(actual)) {
      for (const [k, r] of Object.entries(recorded)) if (Object.hasOwn(actual, k)) this.learn(r, actual[k]);
    }
  }

  /** Replaces every flow id in the strings of `actual` by its name; unknown ids get fresh names. */
  rename(actual: unknown): unknown {
    return mapDeep(actual, (s) =>
      s.replace(UUID, (id) => {
        const lower = id.toLowerCase();
        let name = this.nameOfId.get(lower);
        if (name === undefined) {
          name = `FLOW_${this.idOfName.size + 1}`;
          while (this.idOfName.has(name)) name = `${name}'`;
          this.bind(name, lower);
        }
        return name;
      }),
    );
  }
}

/**
 * Result cache keys (`cache_key` values) → `CACHE_KEY_n`, numbered in order of first appearance
 * over a whole run, as the recorder numbers the reference's (test/conformance/recorded/README.md §5): our keys are
 * not the reference's hashes, but equal keys must be equal and different ones different.
 */
export class CacheKeyNames {
  private readonly names = new Map<string, string>();

  rename(v: unknown, key?: string): unknown {
    if (typeof v === "string" && key === "cache_key") {
      let name = this.names.get(v);
      if (name === undefined) {
        name = `CACHE_KEY_${this.names.size + 1}`;
        this.names.set(v, name);
      }
      return name;
    }
    if (Array.isArray(v)) return v.map((x) => this.rename(x));
    if (isRecord(v)) {
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, x] of Object.entries(v)) out[k] = this.rename(x, k);
      return out;
    }
    return v;
  }
}
