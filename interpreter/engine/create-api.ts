// The programmatic API over the state machine: queue, registry, loading and committing (A1).
import type { StratumApi } from "../api";
import type { EngineOptions } from "./options";

export function createApi(options: EngineOptions): StratumApi {
  void options;
  throw new Error("createApi: not implemented yet (A1)");
}
