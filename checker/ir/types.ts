// The checked IR: an immutable, fully resolved representation of a valid spec. The
// interpreter, the MCP server and the language server consume it; nothing downstream re-reads
// YAML. Every entity keeps its source range (the source map). Expressions are parsed and typed
// here; the interpreter compiles the AST to closures once (it may cache by AST identity).
import type { Expr, PathRef } from "../../grammar/ast";
import type { RecordType, Type } from "../../stdlib/types/type";
import type { JsonObject, JsonValue } from "../base/json";
import type { SourceRange } from "../base/source-range";
import type { StepKind } from "../base/step-kinds";
import type { ExpressionKind } from "../expr/types";

export interface ExpressionIR {
  readonly kind: ExpressionKind;
  /** The expression text exactly as loaded from YAML. */
  readonly text: string;
  readonly ast: Expr;
  /** The static type of the whole expression. */
  readonly type: Type;
  /** The scalar's range in the file. */
  readonly range: SourceRange;
}

export type FieldKind = "string" | "number" | "integer" | "boolean" | "array" | "object" | "contract";

export interface FieldDefIR {
  /** `type` in canonical form (`string`, …, or a contract name); `type: enum` becomes the values' type. */
  readonly type: string;
  /** `type` as written when it differs from `type` (the shorthand `enum`): dispatch payloads show it. */
  readonly writtenType?: string;
  readonly kind: FieldKind;
  readonly values: readonly JsonValue[] | null;
  /** Only for arrays. */
  readonly items: FieldDefIR | null;
  readonly required: boolean;
}

export interface ContractIR {
  readonly name: string;
  readonly fields: ReadonlyMap<string, FieldDefIR>;
  /** The contract as a checker record type. */
  readonly record: RecordType;
  readonly range: SourceRange;
}

export interface BudgetIR {
  readonly ms: number | null;
  readonly usd: number | null;
  readonly max_agent_dispatches: number | null;
  readonly max_tokens: number | null;
}

export interface FunctionIR {
  readonly name: string;
  readonly mode: "infer" | "compute" | "gate";
  readonly intent: string;
  readonly input: JsonObject;
  /** Output contract name ("" when absent, as the reference). */
  readonly output: string;
  readonly ensure: readonly ExpressionIR[];
  /** Python `re` patterns searched in the JSON text of each result (docs/reference/runtime.md §25.1). */
  readonly guardrails: readonly string[];
  /** Maximum attempts (default 3). */
  readonly retries: number;
  readonly budget: BudgetIR | null;
  readonly model: string | null;
  readonly timeout: number | null;
  /** `cache: true`: its steps' validated results are served from the result cache (docs/reference/runtime.md §25.4). */
  readonly cache: boolean;
  readonly range: SourceRange;
}

interface StepInputIR {
  readonly name: string;
  /** The value as written (a string). */
  readonly raw: string;
  /** The parsed `$` reference, or null for a literal. */
  readonly ref: PathRef | null;
}

/** The IR names the kinds as the model does (checker/base/step-kinds.ts). */
type StepKindIR = StepKind;

/** A number as written in the spec: payloads echo `2.0` as a float, as the reference does. */
export interface WrittenNumberIR {
  readonly value: number;
  readonly float: boolean;
}

/**
 * The keys of a version 0.3 parallel_dispatch step (docs/reference/language.md §6.2), defaults applied
 * exactly as the reference's dispatch applies them (docs/reference/runtime.md, parallel steps).
 */
export interface ParallelDispatchIR {
  /** `source` as written: usually a `$` reference to the task list. */
  readonly source: string;
  /** The parsed `$` reference, or null when `source` is a literal. */
  readonly sourceRef: PathRef | null;
  readonly intentTemplate: string;
  /** Default 3. */
  readonly maxConcurrent: WrittenNumberIR;
  /** Default "worktree". */
  readonly isolation: "worktree" | "branch" | "none";
  /** Default "all"; an integer N (at least N tasks complete); an integral float counts as N. */
  readonly require: "all" | "any" | WrittenNumberIR;
  /** Default "sequential_apply". */
  readonly merge: "sequential_apply" | "manual";
  /** Seconds; default 1800 (absent or null). */
  readonly taskTimeout: number;
  readonly captureDiff: boolean;
  readonly deferAdvance: boolean;
  /** Per-task certificate, the reference's defaults applied; null when absent. */
  readonly taskReasoningTemplate: ReasoningTemplateIR | null;
  /** stratumc extension (docs/design/concurrency-constructs.md §2): the aggregate's validate expression. */
  readonly validate?: ExpressionIR | null;
  /** stratumc extension: the contract each completed task's result is checked against. */
  readonly memberContract?: string | null;
}

/** A stage's fanout (docs/reference/language.md §6.9): at most `max` lanes, `require` over the filled ones. */
export interface FanoutIR {
  readonly max: number;
  /** Default "all". */
  readonly require: "all" | "any" | number;
}

/** One stage of a pipeline step (docs/reference/language.md §6.9). */
export interface StageIR {
  readonly index: number;
  readonly intentTemplate: string;
  /** The stage's own agent, null when it has none (the step's applies). */
  readonly agent: string | null;
  /** The stage's own task_timeout in seconds, null when it has none. */
  readonly taskTimeout: number | null;
  /** The stage's certificate, the reference's defaults applied; null when absent. */
  readonly taskReasoningTemplate: ReasoningTemplateIR | null;
  /** The stage as written (JSON), its task_reasoning_template with the defaults filled in: the payload's `stages` entry. */
  readonly written: JsonObject;
  /** Evaluated before the stage runs for an element (names: item, and prev / prev_raw after stage 0). */
  readonly when: ExpressionIR | null;
  /** Evaluated after the stage completed for an element (names: item, result, result_raw). */
  readonly exitWhen: ExpressionIR | null;
  readonly fanout: FanoutIR | null;
  readonly join: boolean;
}

/**
 * The keys of a pipeline step (reference 0.2.69, docs/reference/language.md §6.9): a parallel
 * step's keys with the reference's defaults, without a step-level intent_template, plus the stages.
 */
export interface PipelineIR {
  readonly source: string;
  readonly sourceRef: PathRef | null;
  readonly maxConcurrent: WrittenNumberIR;
  readonly isolation: "worktree" | "branch" | "none";
  readonly require: "all" | "any" | WrittenNumberIR;
  readonly merge: "sequential_apply" | "manual";
  /** Seconds; default 1800. */
  readonly taskTimeout: number;
  /** The step's per-task certificate (for claude agents only), defaults applied; null when absent. */
  readonly taskReasoningTemplate: ReasoningTemplateIR | null;
  readonly stages: readonly StageIR[];
  /** Whether a stage has fanout or join (such a pipeline is server-dispatched only). */
  readonly fansOut: boolean;
}

/** What the server-run tasks of every member step share (docs/reference/runtime.md §23.16); no key sets it. */
interface MemberTasksIR {
  /** Seconds one member task's agent may run: always the default task timeout (1800). */
  readonly taskTimeout: number;
}

/** The keys of a quorum step (docs/reference/language.md §6.5): `runs` copies of the step vote with `agreeOn`. */
export interface QuorumIR extends MemberTasksIR {
  readonly runs: number;
  /** Evaluated on each run's passing result (`result`); equal values are one group. */
  readonly agreeOn: ExpressionIR;
  /** An integer count, or a fraction in (0, 1] (`float`) of `runs`, rounded up. */
  readonly threshold: WrittenNumberIR;
}

/** A member of a race or a debate, the step's agent and intent applied where it has none. */
export interface MemberIR {
  readonly id: string;
  readonly agent: string | null;
  readonly intent: string;
}

/** The keys of a race step (docs/design/concurrency-constructs.md §3): the candidates, in member order. */
export interface RaceIR extends MemberTasksIR {
  /** `candidates: N` gives c1 … cN with the step's agent and intent. */
  readonly candidates: readonly MemberIR[];
}

/** A debate's synthesis (docs/design/concurrency-constructs.md §5). */
export interface SynthesisIR {
  readonly agent: string | null;
  readonly intent: string;
  readonly outputContract: string | null;
  /** Default 1. */
  readonly retries: number;
}

/** The keys of a debate step (docs/design/concurrency-constructs.md §5). */
export interface DebateIR extends MemberTasksIR {
  readonly debaters: readonly MemberIR[];
  readonly rounds: number;
  readonly argumentContract: string | null;
  /** Evaluated after each round with `round`, `history` and `round_number`; null: every round runs. */
  readonly converge: ExpressionIR | null;
  readonly synthesis: SynthesisIR;
}

/** The `judge` block of a judge step (docs/reference/language.md §11.3), as written. */
export interface JudgeIR {
  /** Each predicate as written, other keys included (stratum_judge compares them for equality). */
  readonly predicates: readonly JsonObject[];
  /** Default "default". */
  readonly stakes: "cheap" | "default" | "paranoid";
  /** As written; null when absent. */
  readonly budget: JsonObject | null;
}

export interface StepIR {
  readonly id: string;
  /** Declaration index in `steps`. */
  readonly index: number;
  readonly kind: StepKindIR;
  readonly function: string | null;
  readonly intent: string | null;
  readonly flow: string | null;
  readonly agent: string | null;
  readonly inputs: readonly StepInputIR[];
  readonly dependsOn: readonly string[];
  /** depends_on ∪ steps read by `$.steps.<id>` input references, in declaration order. */
  readonly dependencies: readonly string[];
  readonly outputSchema: JsonObject | null;
  /** Gate routes; `undefined` only on non-gates (gates always declare on_approve/on_kill). */
  readonly onApprove: string | null;
  readonly onRevise: string | null;
  readonly onKill: string | null;
  readonly onFail: string | null;
  readonly next: string | null;
  readonly skipIf: ExpressionIR | null;
  readonly skipReason: string | null;
  /** A gate's policy, default "gate" (docs/reference/language.md §6.2); null exactly on steps that are not gates. */
  readonly policy: "gate" | "flag" | "skip" | null;
  readonly policyFallback: "gate" | "flag" | "skip" | null;
  /** Step-level ensure (inline and sub-flow steps); function steps use their function's. */
  readonly ensure: readonly ExpressionIR[];
  /** Step-level guardrails (every kind but function, gate and sub-flow steps); function steps use their function's. */
  readonly guardrails: readonly string[];
  /** Maximum attempts: inline default 1, sub-flow always 1, function steps: the function's. */
  readonly retries: number;
  readonly outputContract: string | null;
  readonly model: string | null;
  readonly budget: BudgetIR | null;
  readonly maxIterations: number | null;
  readonly exitCriterion: ExpressionIR | null;
  readonly accumulate: ExpressionIR | null;
  readonly accumulateKey: ExpressionIR | null;
  /** `score_expr` (docs/reference/language.md §11.2): null when absent or not checked. */
  readonly scoreExpr: ExpressionIR | null;
  /** The step's own `cache` (default false); the effective flag also reads its function's. */
  readonly cache: boolean;
  /**
   * 0.3 `pre_merge_verify` as written: a list of commands, or one string (a `$` reference to
   * resolve at dispatch, or one command); null when absent.
   */
  readonly preMergeVerify: string | readonly string[] | null;
  /**
   * `reasoning_template` of an inline step with the reference's defaults applied (absent or null:
   * none). Claude agents (no agent, or one starting with `claude`) get the sections in their intent
   * and their artifact is checked for them (runtime: reasoning.ts).
   */
  readonly reasoningTemplate?: ReasoningTemplateIR | null;
  /** Version 0.3: present exactly on a parallel_dispatch step (checker/kinds/<kind>.ts, `irPart`). */
  readonly parallel?: ParallelDispatchIR | null;
  /** Reference 0.2.69: present exactly on a pipeline step. */
  readonly pipeline?: PipelineIR | null;
  /** Present exactly on a quorum step. */
  readonly quorum?: QuorumIR | null;
  /** Present exactly on a race step. */
  readonly race?: RaceIR | null;
  /** Present exactly on a debate step. */
  readonly debate?: DebateIR | null;
  /** Present exactly on a judge step. */
  readonly judge?: JudgeIR | null;
  /** The static result type R(s) of docs/reference/language.md §10.12.2. */
  readonly resultType: Type;
  readonly range: SourceRange;
}

export interface ReasoningSectionIR {
  readonly id: JsonValue;
  readonly label: JsonValue;
  readonly description: JsonValue;
}

export interface ReasoningTemplateIR {
  readonly sections: readonly ReasoningSectionIR[];
  /** `require_citations` as written (Python truthiness decides); default false. */
  readonly requireCitations: JsonValue;
}

export interface FlowIR {
  readonly name: string;
  readonly input: JsonObject;
  readonly inputNames: readonly string[];
  readonly output: string;
  readonly budget: BudgetIR | null;
  readonly maxRounds: number | null;
  /** Steps in execution order (stable topological order, docs/reference/runtime.md §2). */
  readonly steps: readonly StepIR[];
  readonly stepById: ReadonlyMap<string, StepIR>;
  readonly range: SourceRange;
}

export interface WorkflowIR {
  readonly name: string;
  readonly description: string;
  readonly input: JsonObject;
  /** The entry flow's name. */
  readonly entry: string;
}

export interface CheckedSpec {
  readonly version: "0.1" | "0.2" | "0.3";
  /** Declaration order. */
  readonly contracts: ReadonlyMap<string, ContractIR>;
  readonly functions: ReadonlyMap<string, FunctionIR>;
  readonly flows: ReadonlyMap<string, FlowIR>;
  readonly workflow: WorkflowIR | null;
  /** The `properties` block (stratumc's extension), by name in declaration order. */
  readonly properties: ReadonlyMap<string, PropertyIR>;
}

/** One property (docs/guides/testing-a-spec.md "Properties"): what must hold on every run of `flow`. */
export interface PropertyIR {
  readonly name: string;
  readonly flow: string;
  readonly kind: "always" | "never" | "eventually" | "leads_to";
  /** always / never / eventually: the condition; leads_to: `from`. */
  readonly condition: ExpressionIR;
  /** leads_to: `to`; null for the other kinds. */
  readonly to: ExpressionIR | null;
  /** The property's name (its key in `properties`): where its findings point. */
  readonly range: SourceRange;
}
