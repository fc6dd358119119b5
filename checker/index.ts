// The checker's public surface: what front ends (CLI, language server, MCP server), the fuzzer and
// host adapters may use. `npm run layers` refuses an import from those folders that reaches past
// this file into the checker's internals.
export { entityRange, keyRange, stepEntityRange, valueRange } from "./anchors";
export { JSON_FIELD_TYPES, type JsonObject, type JsonValue } from "./base/json";
export type { SourceRange } from "./base/source-range";
export { STEP_KIND_TABLE, STEP_KINDS, type StepKind } from "./base/step-kinds";
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
export { FUZZ_ACCUMULATE_FAILS } from "./fuzz/FUZZ-ACCUMULATE-FAILS";
export { FUZZ_DEAD_STEP } from "./fuzz/FUZZ-DEAD-STEP";
export { FUZZ_ENSURE_RAISES } from "./fuzz/FUZZ-ENSURE-RAISES";
export { FUZZ_ENSURE_UNSATISFIABLE } from "./fuzz/FUZZ-ENSURE-UNSATISFIABLE";
export { FUZZ_EXIT_CRITERION_RAISES } from "./fuzz/FUZZ-EXIT-CRITERION-RAISES";
export { FUZZ_EXIT_NEVER } from "./fuzz/FUZZ-EXIT-NEVER";
export { FUZZ_FLOW_OUTPUT } from "./fuzz/FUZZ-FLOW-OUTPUT";
export { FUZZ_GUARDRAIL_BLOCKS_ALL } from "./fuzz/FUZZ-GUARDRAIL-BLOCKS-ALL";
export { FUZZ_INPUT_READS_SKIPPED } from "./fuzz/FUZZ-INPUT-READS-SKIPPED";
export { FUZZ_INPUT_UNRESOLVED } from "./fuzz/FUZZ-INPUT-UNRESOLVED";
export { FUZZ_INTERNAL } from "./fuzz/FUZZ-INTERNAL";
export { FUZZ_NO_COMPLETION } from "./fuzz/FUZZ-NO-COMPLETION";
export { FUZZ_PROPERTY_VIOLATED } from "./fuzz/FUZZ-PROPERTY-VIOLATED";
export { FUZZ_SKIP_IF_RAISES } from "./fuzz/FUZZ-SKIP-IF-RAISES";
export { FUZZ_UNBOUNDED_LOOP } from "./fuzz/FUZZ-UNBOUNDED-LOOP";
export { FUZZ_WORKER_FAILED } from "./fuzz/FUZZ-WORKER-FAILED";
export { IncrementalChecker } from "./incremental/incremental-checker";
export { changeBetween, type TextChange } from "./incremental/text-change";
export { reachableFlows } from "./ir/reachable-flows";
export type {
  BudgetIR,
  CheckedSpec,
  ContractIR,
  ExpressionIR,
  FieldDefIR,
  FlowIR,
  PropertyIR,
  StepIR,
} from "./ir/types";
export { LineMap } from "./location";
export type { SpecModel } from "./model/types";
export { outlineSteps } from "./outline/steps-window";
export {
  DEFAULT_PORTABLE_VERSION,
  portableTarget,
  REFERENCE_VERSIONS,
  type ReferenceVersion,
} from "./portable/features";
export { defineRule, type RuleInfo } from "./rule";
export { ruleDocAnchor, ruleDocHref } from "./rule-docs";
export { checkScenario, type ScenarioCheck } from "./scenario/check";
export {
  type ExpectedStatus,
  SCENARIO_FILE,
  type ScenarioFiles,
  type ScenarioTest,
  type ScriptEntry,
  type StepStatus,
} from "./scenario/model";
export { nodeValue } from "./scenario/values";
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
export type { SpecNode } from "./yaml/nodes";
export { MAX_SPEC_BYTES, type SpecSize } from "./yaml/rules/YAML-TOO-LARGE";
