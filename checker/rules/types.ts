// The two shapes of a semantic rule (docs/reference/language.md §9.5.3–docs/reference/language.md §9.5.4). Most rules
// look at one declaration at a time: they say what they visit (`visit`, through a RuleVisitor) and
// the checker walks the model once for all of them (checker/rules/walk.ts), in the manner of
// Biome's analyzer and actionlint. Rules over the whole dependency graph (checker/graph) keep a
// `check` of the whole model.

import type { FlowDecl, FunctionDecl, SpecModel, StepKind } from "../model/types";
import type { Reporter } from "../report";
import type { RuleInfo } from "../rule";
import type { FieldDefinitionSite } from "./contracts/definitions";
import type { NamedStep } from "./support";

/** A rule that reads the whole model at once (the graph rules). */
export interface SemanticRule extends RuleInfo {
  check(model: SpecModel, reporter: Reporter): void;
}

/** What a visiting rule's callbacks are handed besides the visited declaration. */
export interface RuleContext {
  readonly model: SpecModel;
  readonly reporter: Reporter;
}

export type Visit<T> = (node: T, context: RuleContext) => void;

/**
 * Where a rule registers its callbacks. Each callback is called once per declaration, in
 * declaration order (flows, then their steps, flow by flow; functions; contracts, then their field
 * definitions), so a rule sees what its own loop would have seen, in the same order.
 */
export interface RuleVisitor {
  /** Once per checked spec (rules about the workflow or the document as a whole). */
  onSpec(visit: (context: RuleContext) => void): void;
  onFlow(visit: Visit<FlowDecl>): void;
  /** Every step with a valid id; with `kinds`, only the steps of those kinds (never a step of unknown kind). */
  onStep(visit: Visit<NamedStep>): void;
  onStep(kinds: readonly StepKind[], visit: Visit<NamedStep>): void;
  onFunction(visit: Visit<FunctionDecl>): void;
  /** Every contract field definition, its nested `items` definitions included. */
  onContractField(visit: Visit<FieldDefinitionSite>): void;
}

/** A rule that declares what it visits; the checker dispatches to it during its one walk. */
export interface VisitingRule extends RuleInfo {
  visit(on: RuleVisitor): void;
}
