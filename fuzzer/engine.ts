// The interpreter as the fuzzer drives it: the real engine (createApi, the same one the MCP server
// uses) over an in-memory store, a clock that never moves and numbered flow ids, so that a seed
// gives the same responses on every machine. The file builtins see an accommodating virtual file
// system: every path is a file whose text is every string literal of the spec, so ensures such as
// `file_exists(result.path)` and `file_contains(result.path, 'BEGIN')` behave as if the agent had
// written what it reported.
import {
  type Clock,
  createEngine,
  type EngineApi,
  type FlowEvent,
  type FlowObserver,
  type IdSource,
  MemoryStore,
  type ResultCacheStore,
  type SpecCache,
  type WorkspaceFs,
} from "../interpreter/index";
import type { FileAccess, HostFileSystem } from "../stdlib/index";

/** A fixed instant: durations are 0 and gate timeouts never expire. */
const FIXED_CLOCK: Clock = { wallMs: () => 1_700_000_000_000, monoMs: () => 1_000 };

/** Flow ids `00000000-0000-4000-8000-<serial>` in order of creation. */
export class NumberedIds implements IdSource {
  private next = 1;
  newFlowId(): string {
    return `00000000-0000-4000-8000-${(this.next++).toString(16).padStart(12, "0")}`;
  }
}

/** Every path is a file holding `text`. */
function everythingExists(text: string): HostFileSystem {
  const bytes = new TextEncoder().encode(text);
  return {
    realpath: (path) => path,
    stat: () => ({ isFile: true, size: bytes.length }),
    readFile: () => bytes,
  };
}

/** The workspace tools (list_workflows, compile, draft) are not fuzzed: they see an empty project. */
const NO_WORKSPACE: WorkspaceFs = {
  readDir: () => ({ ok: false, reason: "not available while fuzzing" }),
  isDirectory: () => false,
  readFile: () => ({ ok: false, reason: "not available while fuzzing" }),
  writeFile: () => ({ ok: false, reason: "not available while fuzzing" }),
  realpath: (path) => path,
};

const FUZZ_ROOT = "/fuzz";

/** The virtual files: every file's text is the spec's string literals, one per line. */
export function virtualFiles(literals: readonly string[]): FileAccess {
  return { root: FUZZ_ROOT, fs: everythingExists(literals.join("\n")) };
}

/**
 * The events of the engine's calls (EngineOptions.observer), taken call by call: the engine calls
 * its observer before it answers, so after each awaited call `take` holds exactly that call's.
 */
export class EventLog {
  private batch: FlowEvent[] = [];
  readonly observer: FlowObserver = (events) => {
    this.batch.push(...events);
  };
  take(): FlowEvent[] {
    const out = this.batch;
    this.batch = [];
    return out;
  }
}

/**
 * A fresh engine for one fuzzing session. `verifyEdits` (tests) checks every call's in-place
 * edits against full copies of the flows (EngineOptions.verifyEdits); `observer` gets its events.
 */
export function fuzzEngine(
  files: FileAccess | null,
  options: {
    readonly verifyEdits?: boolean;
    readonly observer?: FlowObserver;
    /** Checked specs shared with other engines (EngineOptions.specs). */
    readonly specs?: SpecCache;
    /** The result cache (EngineOptions.resultCache); none by default. */
    readonly resultCache?: ResultCacheStore;
    /** The store (a fresh one by default): given, its holder can snapshot and restore it. */
    readonly store?: MemoryStore;
    /** The flow ids (NumberedIds by default). */
    readonly ids?: IdSource;
  } = {},
): EngineApi {
  return createEngine({
    store: options.store ?? new MemoryStore(),
    clock: FIXED_CLOCK,
    ids: options.ids ?? new NumberedIds(),
    cwd: FUZZ_ROOT,
    files: () => files,
    workspace: NO_WORKSPACE,
    verifyEdits: options.verifyEdits === true,
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.specs === undefined ? {} : { specs: options.specs }),
    ...(options.resultCache === undefined ? {} : { resultCache: options.resultCache }),
  });
}
