// Where the flow resources come from: the server's store, and what turns a stored flow back into a
// run (the host's restore and clock, host/compose.ts). Reads only; nothing here writes the store.
import {
  type Clock,
  FlowCorruptError,
  type FlowRun,
  type FlowState,
  type FlowStore,
  type LoadedFlow,
  loadFlow,
} from "../../interpreter/index";

export interface FlowSource {
  readonly store: FlowStore;
  restore(state: FlowState): FlowRun | null;
  readonly clock: Clock;
}

/** A stored flow as the resources see it: restored, corrupt (with the problem), or absent (null). */
export type FlowLookup =
  | { readonly kind: "run"; readonly loaded: LoadedFlow }
  | { readonly kind: "corrupt"; readonly problem: string };

export async function lookUpFlow(source: FlowSource, flowId: string): Promise<FlowLookup | null> {
  try {
    const loaded = await loadFlow(source.store, flowId, (state) => source.restore(state));
    return loaded === null ? null : { kind: "run", loaded };
  } catch (e) {
    if (e instanceof FlowCorruptError) return { kind: "corrupt", problem: e.message };
    throw e;
  }
}
