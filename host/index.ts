// The Node adapters of the core's injected interfaces (file store, workspace, file system, safe
// file reads), as the CLI uses them.
export { FileFlowStore, stratumHome } from "./file-store/file-store";
export { nodeFileSystem } from "./node-fs";
export { nodeWorkspace } from "./node-workspace";
export { agentEnvSetting } from "./parallel/agent-env";
export { createExecutorOwners, executorOwnersDir } from "./parallel/executor-owners";
export { maxAgentsOf } from "./parallel/max-agents";
export {
  createProcessParallelRunner,
  worktreeRootFor,
} from "./parallel/process-parallel-runner";
export { removeDeadWorktrees } from "./parallel/worktree-leftovers";
export { PgFlowStore } from "./pg-store/pg-store";
export { checkStoreLocation, isPostgresUrl } from "./pg-store/store-url";
export { notRegularReason, readRegularFile, readRegularFileWithin } from "./regular-file";
export { loadSeparateBundle } from "./separate-bundle";
export { createTracer, SHUTDOWN_WAIT_MS } from "./tracing/tracer";
