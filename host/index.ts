// The Node adapters of the core's injected interfaces (file store, workspace, file system, safe
// file reads) and the one composition root that wires them for every Node program.
export type { AgentRunBudget, AgentRuns } from "./agent-run/agent-runs";
export { createJudgeVerifier } from "./agent-run/judge-verifier";
export type { HostOptions, NodeHost } from "./compose";
export { composeHostLazily } from "./compose-lazily";
export { FileFlowStore, stratumHome } from "./file-store/file-store";
export {
  DEFAULT_GATE_ASK_TIMEOUT_S,
  type GateMode,
  type GateSetting,
  gateSettingOf,
} from "./gate-setting";
export { nodeFileSystem } from "./node-fs";
export { nodeWorkspace } from "./node-workspace";
export { agentEnvSetting } from "./parallel/agent-env";
export { PgFlowStore } from "./pg-store/pg-store";
export { checkStoreLocation, isPostgresUrl } from "./pg-store/store-url";
export { notRegularReason, readRegularFile, readRegularFileWithin } from "./regular-file";
export { resolveGate } from "./resolve-gate";
export { loadSeparateBundle } from "./separate-bundle";
export { type LocatedStore, storeAt } from "./store-at";
export { SHUTDOWN_WAIT_MS } from "./tracing/tracer";
