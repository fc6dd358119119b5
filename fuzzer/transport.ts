// The in-process transport for one spec, as the fuzzer drives it: a fresh engine whose virtual
// files hold the spec's string literals. Replaying a counterexample through it gives the
// responses the fuzzer saw.
import { checkSpec } from "../checker/index";
import { type IdSource, MemoryResultCache, MemoryStore, type SpecCache } from "../interpreter/index";
import type { FileAccess } from "../stdlib/index";
import { EventLog, fuzzEngine, NumberedIds, virtualFiles } from "./engine";
import { apiTransport, type EngineFork, type Transport } from "./run/session";
import { fuzzTarget } from "./target";

export function fuzzTransport(specText: string): Transport {
  const target = fuzzTarget(checkSpec(specText));
  return engineTransport(virtualFiles(target?.literals.strings ?? []));
}

/**
 * A fresh fuzzing engine over `files`, answering each call with its events. Its result cache
 * (docs/reference/runtime.md §25.4) lives in memory and is emptied as each run starts: a run's
 * second plan of the same inputs finds what the run stored, and no run sees another's.
 */
export function engineTransport(files: FileAccess | null, specs?: SpecCache): Transport {
  const log = new EventLog();
  const cache = new MemoryResultCache();
  const store = new MemoryStore();
  const numbered = new NumberedIds();
  /** The flows the current run created (all a fork needs: a run sees no other run's flows). */
  let runFlows: string[] = [];
  const ids: IdSource = {
    newFlowId: () => {
      const id = numbered.newFlowId();
      runFlows.push(id);
      return id;
    },
  };
  const engine = fuzzEngine(files, {
    observer: log.observer,
    resultCache: cache,
    store,
    ids,
    ...(specs === undefined ? {} : { specs }),
  });
  const transport = apiTransport(engine, log);
  // The flows of the run before go with it: no run sees another's, and kept they would be copied
  // by the garbage collector's young-generation passes until promoted, a cost growing with the runs.
  const newRun = (): void => {
    cache.clear();
    store.drop(runFlows);
    engine.forgetFlows(runFlows);
    runFlows = [];
  };
  const fork = (): EngineFork => {
    const flows = runFlows.slice();
    const stored = store.snapshot(flows);
    // The engine's runs in memory too: held again with the store's tokens, they need no reload
    // (decoding the stored text), which would cost about what the calls shared save.
    const held = engine.snapshotFlows(flows);
    const cached = [...cache.entries];
    return {
      restore: () => {
        // What the run created after the fork goes too: kept, it would be held to the end.
        const kept = new Set(flows);
        const later = runFlows.filter((id) => !kept.has(id));
        store.drop(later);
        engine.forgetFlows(later);
        store.restore(stored);
        engine.restoreFlows(held);
        cache.clear();
        for (const [k, v] of cached) cache.entries.set(k, v);
        runFlows = flows.slice();
      },
    };
  };
  return Object.assign(transport, { newRun, fork });
}
