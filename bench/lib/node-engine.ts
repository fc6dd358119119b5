// The engine as the benchmarks run it in process: a given store, the system clock, random flow ids,
// the Node file system and workspace (what the CLI's flow host builds, without its store choice).
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { nodeFileSystem } from "../../host/node-fs";
import { nodeWorkspace } from "../../host/node-workspace";
import type { StratumApi } from "../../interpreter/api";
import { createApi } from "../../interpreter/engine/create-api";
import type { FlowStore } from "../../interpreter/store/store";

export function nodeEngine(store: FlowStore, cwd: string): StratumApi {
  return createApi({
    store,
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => randomUUID() },
    cwd,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
  });
}
