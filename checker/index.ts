// The checker's public surface: what front ends (CLI, language server, MCP server), the fuzzer and
// host adapters may use. `npm run layers` refuses an import from those folders that reaches past
// this file into the checker's internals.
export { entityRange, keyRange, stepEntityRange, valueRange } from "./anchors";
export { JSON_FIELD_TYPES, type JsonObject, type JsonValue } from "./base/json";
export type { SourceRange } from "./base/source-range";
export { STEP_KIND_TABLE, STEP_KINDS } from "./base/step-kinds";
export { CATALOGUE, ruleInfo } from "./catalogue";
export {
  type CheckOptions,
  type CheckResult,
  checkSpec,
  compareDiagnostics,
  isOversized,
  oversizedSpec,
  present,
} from "./check-spec";
export { controlSoundness } from "./control/soundness";
export type { FlowVerdict } from "./control/types";
export type { Diagnostic, LocatedRange, Severity, SpecDiagnostic, SpecRelated } from "./diagnostic";
export {
  checkExpression,
  type ExprCheckResult,
  type ExprDiagnostic,
  type ExprEnvironment,
} from "./expr/check-expression";
export { suggest } from "./expr/did-you-mean";
export { type FixOutcome, fixSpec, isMachineApplicable } from "./fix";
export { flowGraphs, type GraphFlow, type GraphNode, type NodeKind } from "./flow-graphs";
export {
  FUZZ_ACCUMULATE_FAILS,
  FUZZ_DEAD_STEP,
  FUZZ_ENSURE_RAISES,
  FUZZ_ENSURE_UNSATISFIABLE,
  FUZZ_EXIT_CRITERION_RAISES,
  FUZZ_EXIT_NEVER,
  FUZZ_FLOW_OUTPUT,
  FUZZ_INPUT_READS_SKIPPED,
  FUZZ_INPUT_UNRESOLVED,
  FUZZ_INTERNAL,
  FUZZ_NO_COMPLETION,
  FUZZ_SKIP_IF_RAISES,
  FUZZ_UNBOUNDED_LOOP,
} from "./fuzz/rules";
export { IncrementalChecker } from "./incremental/incremental-checker";
export { changeBetween, type TextChange } from "./incremental/text-change";
export type { CheckedSpec, ContractIR, ExpressionIR, FieldDefIR, FlowIR, StepIR } from "./ir/types";
export { LineMap } from "./location";
export type { SpecModel } from "./model/types";
export { defineRule, type RuleInfo } from "./rule";
export { ruleDocHref } from "./rule-docs";
export { specJsonSchema } from "./schema/json-schema";
export {
  completionsAt,
  definitionAt,
  documentSymbols,
  foldingRanges,
  hoverAt,
  prepareRename,
  referencesAt,
  renameAt,
  semanticTokens,
  signatureHelpAt,
  TOKEN_TYPES,
} from "./services/index";
export type {
  CompletionItemInfo,
  CompletionKind,
  DocumentSymbolInfo,
  FoldingRangeInfo,
  HoverInfo,
  OffsetEdit,
  OffsetRange,
  RenameResult,
  SemanticTokenInfo,
  SignatureHelpInfo,
  SpecDocument,
  SymbolKind,
  TokenType,
} from "./services/types";
export type { SpecSource } from "./source";
export { applySuppressions } from "./suppressions";
export { MAX_SPEC_BYTES, type SpecSize } from "./yaml/rules/too-large";
