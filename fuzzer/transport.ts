// The in-process transport for one spec, as the fuzzer drives it: a fresh engine whose virtual
// files hold the spec's string literals. Replaying a counterexample through it gives the
// responses the fuzzer saw.
import { checkSpec } from "../checker/index";
import { MemoryResultCache, type SpecCache } from "../interpreter/index";
import type { FileAccess } from "../stdlib/index";
import { EventLog, fuzzEngine, virtualFiles } from "./engine";
import { apiTransport, type Transport } from "./run/session";
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
  const transport = apiTransport(
    fuzzEngine(files, {
      observer: log.observer,
      resultCache: cache,
      ...(specs === undefined ? {} : { specs }),
    }),
    log,
  );
  return Object.assign(transport, { newRun: () => cache.entries.clear() });
}
