// The in-process transport for one spec, as the fuzzer drives it: a fresh engine whose virtual
// files hold the spec's string literals. Replaying a counterexample through it gives the
// responses the fuzzer saw.
import { checkSpec } from "../checker/index";
import { fuzzEngine, virtualFiles } from "./engine";
import { apiTransport, type Transport } from "./run/session";
import { fuzzTarget } from "./target";

export function fuzzTransport(specText: string): Transport {
  const target = fuzzTarget(checkSpec(specText));
  return apiTransport(fuzzEngine(virtualFiles(target?.literals.strings ?? [])));
}
