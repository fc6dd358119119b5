// The interpreter's public surface: the programmatic API of the flow tools (issue 4) and the
// expression evaluator. Front ends (CLI, MCP server, language server) and embedders import from
// here; Node implementations of the injected interfaces (file store, workspace, file system) are
// in host/.
export type {
  FlowArgs,
  GateResolveArgs,
  IterationAbortArgs,
  IterationReportArgs,
  LabelArgs,
  PlanArgs,
  SkipStepArgs,
  StepArgs,
  StepDoneArgs,
  StratumApi,
} from "./api";
export { checkContract, checkOutputSchema } from "./checks/checks";
export { createApi } from "./engine/create-api";
export type { EngineOptions } from "./engine/options";
export { compileExpression } from "./eval/compile";
export type { CompiledExpression, EvalContext, PathSource } from "./eval/context";
export { type EvaluateOptions, evaluate } from "./eval/evaluate";
export type { Clock, IdSource } from "./flow/ports";
export { decodeFlowState, encodeFlowState } from "./store/codec";
export { MemoryStore } from "./store/memory-store";
export {
  type ChangeToken,
  FlowCorruptError,
  type FlowStore,
  StaleStateError,
  type StoreBatch,
  type StoredFlow,
  StoreLockedError,
  StoreUnwritableError,
} from "./store/store";
export { decodeStoredFlow } from "./store/stored-state";
export { encodeWire, wireToPlain } from "./wire/encode";
export type { Response, Wire } from "./wire/wire";
export type { WorkspaceFs } from "./workspace/workspace";
