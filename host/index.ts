// The Node adapters of the core's injected interfaces (file store, workspace, file system, safe
// file reads), as the CLI uses them.
export { FileFlowStore, stratumHome } from "./file-store/file-store";
export { nodeFileSystem } from "./node-fs";
export { nodeWorkspace } from "./node-workspace";
export { agentEnvSetting } from "./parallel/agent-env";
export { type AgentRunnerOptions, type AgentTaskRequest, runAgentTask } from "./parallel/agent-runner";
export { createExecutorOwners, executorOwnersDir } from "./parallel/executor-owners";
export { MAX_AGENTS_VARIABLE, type MaxAgents, maxAgentsOf } from "./parallel/max-agents";
export {
  createProcessParallelRunner,
  type ProcessParallelRunnerOptions,
  worktreeRootFor,
} from "./parallel/process-parallel-runner";
export { captureWorktreeDiff, createWorktree, removeWorktree, WorktreeError } from "./parallel/worktree";
export { removeDeadWorktrees } from "./parallel/worktree-leftovers";
export { PgFlowStore, type PgStoreOptions } from "./pg-store/pg-store";
export { SchemaTooNewError } from "./pg-store/schema";
export { checkStoreLocation, isPostgresUrl } from "./pg-store/store-url";
export { entryName, redactUrl } from "./redact";
export { notRegularReason, readRegularFile, readRegularFileWithin } from "./regular-file";
export { loadSeparateBundle } from "./separate-bundle";
export { createTracer, SHUTDOWN_WAIT_MS, type Tracer, type TracerOptions } from "./tracing/tracer";
