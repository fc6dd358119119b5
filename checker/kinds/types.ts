// What the checker knows of one step kind, as data (checker/kinds/<kind>.ts, one descriptor per
// kind; the registry is checker/kinds/index.ts). The code that used to branch on a kind name asks
// the descriptor instead: the two table-driven key rules (checker/rules/kinds/), the result type
// and the extra expressions of checker/spec-expr, the default retries and the kind's part of the
// IR (checker/ir/build.ts), the dependency edges (checker/graph/edges.ts), key completion
// (checker/services/completion-yaml.ts) and the portability features (checker/portable/).
import type { RecordType, Type } from "../../stdlib/types/type";
import type { SourceRange } from "../base/source-range";
import type { SpecModel, StepDecl } from "../model/types";
import type { RuleInfo } from "../rule";

/** A step that takes part in id-based rules (the rules' NamedStep). */
export type IdStep = StepDecl & { readonly id: string };

/** The contract records of a spec, by name. */
export type Records = ReadonlyMap<string, RecordType>;

/** A code of the table-driven key rules: its message names the step and the key. */
interface KeyRuleInfo extends RuleInfo {
  readonly message: (step: string, key: string) => string;
}

/** One key a step lacks, as SPEC-<KIND>-MISSING-KEY reports it. */
export interface MissingKey {
  /** The key the message names. */
  readonly key: string;
  /** The path below the step; `key` when absent. */
  readonly path?: string;
  /** Where it is reported; by default the key's value when present, else the step's `E` anchor. */
  readonly range?: SourceRange;
  /** Appended to the message (which member lacks the key). */
  readonly detail?: string;
  readonly suggestion: string;
}

/** The keys a step of the kind cannot run without (SPEC-<KIND>-MISSING-KEY). */
export interface RequiredKeys {
  readonly rule: KeyRuleInfo;
  /** What the step lacks, in the order it is reported. */
  missing(step: IdStep, model: SpecModel): readonly MissingKey[];
}

/** One key of this kind found on a step of another kind. */
export interface ForeignKey {
  readonly key: string;
  /** The message, when not the rule's `message(step, key)`. */
  readonly message?: string;
}

/** The keys only this kind reads, reported on every other known kind (SPEC-<KIND>-ONLY-KEY). */
export interface ExclusiveKeys {
  readonly rule: KeyRuleInfo;
  /** The keys of this kind that a step of another kind carries, in the order they are reported. */
  found(step: IdStep): readonly ForeignKey[];
}

/**
 * How many attempts a step of the kind gets by default: the step's own `retries` (with this
 * default), its function's `retries`, or a fixed number.
 */
export type KindRetries =
  | { readonly from: "step"; readonly default: number }
  | { readonly from: "function" }
  | { readonly fixed: number };

/**
 * The expressions a step of the kind has besides the common ones (skip_if, ensure, the iteration
 * keys): `source` (a `$` path that is also a dependency edge), `validate` (over the members'
 * results), `converge` (over a debate's rounds), `agree_on` (over one run's result) and `stages`
 * (a pipeline's `when` / `exit_when` predicates, over one element's chain).
 */
export type KindExpression = "source" | "validate" | "converge" | "agree_on" | "stages";

/** The part of StepIR only steps of the kind have (`StepIR[part]`; every other part is null). */
export type KindIRPart = "parallel" | "pipeline" | "quorum" | "race" | "debate" | "judge";

/** A kind only stratumc accepts (`check --portable`): what to do instead. */
interface StratumcOnlyKind {
  readonly suggestion: string;
}

export interface CheckerKind {
  /**
   * The step keys only this kind takes: completion offers them on no other kind, and a kind only
   * stratumc accepts lists them as stratumc-only keys.
   */
  readonly ownKeys: readonly string[];
  /** Keys completion does not offer on this kind although other kinds take them. */
  readonly notOffered: readonly string[];
  readonly requiredKeys: RequiredKeys | null;
  readonly exclusiveKeys: ExclusiveKeys | null;
  /** The key that lists the members, each with an id (null: none, or a count only). */
  readonly memberList: "candidates" | "debaters" | null;
  readonly expressions: readonly KindExpression[];
  /** R(s) before the output_schema extension (docs/reference/language.md §10.12.2). */
  resultType(step: StepDecl, records: Records): Type;
  /** The contract named by the IR's `outputContract`. */
  outputContract(step: StepDecl): string | null;
  readonly retries: KindRetries;
  readonly irPart: KindIRPart | null;
  readonly stratumcOnly: StratumcOnlyKind | null;
  /**
   * A kind of the reference that an older release of it rejects: the first release with it and what
   * to write for the older one (`check --portable=0.2.50`); absent when every release has it.
   */
  readonly referenceSince?: { readonly version: "0.2.69"; readonly suggestion: string };
}
