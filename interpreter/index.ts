// The interpreter's public surface: the programmatic API of the flow tools and the
// expression evaluator. Front ends (CLI, MCP server, language server) and embedders import from
// here; Node implementations of the injected interfaces (file store, workspace, file system) are
// in host/.
export type { PlanArgs, StratumApi, VerifierStart } from "./api";
export type { FlowState, TraceRecord } from "./base/flow-state";
export { toolError } from "./base/tool-errors";
export {
  checkContract,
  checkOutputSchema,
  conformsToContract,
  conformsToOutputSchema,
} from "./checks/checks";
export { createApi, createEngine, type EngineApi } from "./engine/create-api";
export { eventFromJson, eventToJson } from "./engine/event-json";
export { MemoryResultCache } from "./engine/memory-result-cache";
export type {
  FlowEvent,
  FlowEventBase,
  FlowObserver,
  StepPlace,
} from "./engine/observer";
export type { EngineOptions } from "./engine/options";
export type { ExecutorOwnerState, ParallelExecutorOwners } from "./engine/parallel-owners";
export { restoreRun } from "./engine/restore";
export { SpecCache } from "./engine/spec-cache";
export { compileExpression } from "./eval/compile";
export type { CompiledExpression, PathSource } from "./eval/context";
export { evaluate } from "./eval/evaluate";
export { auditOf } from "./flow/audit";
export type { JudgeVerifier, VerifierAnswer, VerifierRequest } from "./flow/judge/t2";
export type {
  GateBounce,
  ParallelAgentRunner,
  ParallelTaskOutcome,
  ParallelTaskRequest,
} from "./flow/parallel-runner";
export { taskGraphOf, taskGraphProblem } from "./flow/parallel-task-graph";
export type { Clock, IdSource } from "./flow/ports";
export { BUILT_IN_PRICING, pricingOverride } from "./flow/pricing";
export { certificateOf, certificateViolations } from "./flow/reasoning";
export {
  RESULT_CACHE_VERSION,
  type ResultCacheEntry,
  type ResultCacheStore,
} from "./flow/result-cache";
export type { FlowRun } from "./flow/run";
export { validate as validateSpec } from "./flow/validate";
export {
  contractViolations,
  type MemberViolation,
  type RaisedError,
  type Violation,
} from "./flow/violations";
export {
  argumentsLimitProblem,
  grouped,
  jsonTextDepth,
  MAX_VALUE_DEPTH,
  tooDeep,
  valueLimitProblem,
  valueShape,
} from "./limits";
export {
  corruptFlowSummary,
  flowDetail,
  flowNotFoundError,
  flowSummary,
  listedByDefault,
  pendingGate,
} from "./query/flow-queries";
export {
  checkGateTarget,
  GATE_ACTION_OUTCOMES,
  type GateAnswer,
  gateAnswer,
  gateConflict,
  gateError,
  gateFlowNotFound,
  RESOLVERS,
} from "./query/gate-resolution";
export { type CorruptFlow, type LoadedFlow, loadAllFlows, loadFlow } from "./query/load-runs";
export { DEFAULT_PRUNE_AGE, type PruneOptions, parsePruneAge, pruneStatus } from "./query/prune";
export type { TestFailure, TestOutcome } from "./scenario/outcome";
export { runScenarioFile } from "./scenario/run-file";
export { compileSpeckit } from "./speckit/compile";
export { batchFlowIds, checkRevisions } from "./store/batch";
export { encodeFlowState, FlowTooLargeError } from "./store/codec";
export { sequenceGap } from "./store/delta-sequence";
export { assertSafeFlowId, isSafeFlowId } from "./store/flow-id";
export { MemoryStore } from "./store/memory-store";
export { applyEntriesToPlain, plainJson } from "./store/plain-delta";
export { RecentFlows } from "./store/recent-flows";
export { deltaRevisionOf, revisionOf } from "./store/revision";
export { deltaToAppend, MIN_SNAPSHOT_SIZE, mayAppend } from "./store/snapshot-policy";
export type { StoredFlowInfo, StoreWrite } from "./store/store";
export {
  type ChangeToken,
  FlowCorruptError,
  FlowRemovedError,
  type FlowStore,
  StaleStateError,
  type StoreBatch,
  type StoreChange,
  type StoredFlow,
  StoreLockedError,
  StorePermissionError,
  StoreUnavailableError,
  StoreUnusableError,
  StoreUnwritableError,
  textWrite,
} from "./store/store";
export { corruptError, decodeStoredFlow } from "./store/stored-state";
export { encodeWire, wireToPlain } from "./wire/encode";
export type { Response, Wire } from "./wire/wire";
export type { DirEntry, FsResult, WorkspaceFs } from "./workspace/workspace";
