// The in-process transport for one spec, as the fuzzer drives it: a fresh engine whose virtual
// files hold the spec's string literals. Replaying a counterexample through it gives the
// responses the fuzzer saw.
import { checkSpec } from "../checker/index";
import type { SpecCache } from "../interpreter/index";
import type { FileAccess } from "../stdlib/index";
import { EventLog, fuzzEngine, virtualFiles } from "./engine";
import { apiTransport, type Transport } from "./run/session";
import { fuzzTarget } from "./target";

export function fuzzTransport(specText: string): Transport {
  const target = fuzzTarget(checkSpec(specText));
  return engineTransport(virtualFiles(target?.literals.strings ?? []));
}

/** A fresh fuzzing engine over `files`, answering each call with its events. */
export function engineTransport(files: FileAccess | null, specs?: SpecCache): Transport {
  const log = new EventLog();
  return apiTransport(
    fuzzEngine(files, { observer: log.observer, ...(specs === undefined ? {} : { specs }) }),
    log,
  );
}
