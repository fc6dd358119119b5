// The fuzzer's public surface: property-based exploration of what a spec does at run
// time, over the interpreter's public API. Front ends (CLI, MCP server, language server) import
// from here.

export { callWord } from "./call-word";
export { conversionHint } from "./conversion-hint";
export { EventLog, fuzzEngine, virtualFiles } from "./engine";
export { findingJson } from "./finding-json";
export {
  DEFAULT_MAX_CALLS,
  DEFAULT_RUNS,
  DEFAULT_SEED,
  type FuzzOptions,
  type FuzzProgress,
  type FuzzResult,
  fuzzChecked,
  fuzzSpec,
  UnknownFlowError,
} from "./fuzz-spec";
export { type ReplayResult, type ReplayStep, replayCounterexample } from "./replay";
export { eventsFromJson } from "./replay-events";
export type { Divergence, DivergenceKind } from "./replay-flow/compare";
export {
  childFlowIds,
  type FlowReplayReport,
  flowsOfSpec,
  replayFlow,
  replayTarget,
} from "./replay-flow/replay-flow";
export type {
  Counterexample,
  FlowSoundness,
  FuzzFinding,
  FuzzReport,
  Verdict,
} from "./report";
export {
  type Answer,
  apiTransport,
  type EventSource,
  type Plain,
  type ToolName,
  type Transport,
  type WireCall,
} from "./run/session";
export { engineTransport, fuzzTransport } from "./transport";
