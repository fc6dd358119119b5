// The one walk of the model for every visiting rule (checker/rules/types.ts): the rules' callbacks
// are collected once per rule list into tables by what they visit (steps also by kind), then each
// check walks flows, steps, functions and contract fields once and calls the callbacks that asked.
// Each rule's reports are held back and handed on rule by rule, in list order, so the reporter
// receives exactly the sequence it would get from running the rules one after another.

import type { FlowDecl, FunctionDecl, SpecModel, StepKind } from "../model/types";
import type { Reporter, ReportInput } from "../report";
import type { RuleInfo } from "../rule";
import { type FieldDefinitionSite, fieldDefinitions } from "./contracts/definitions";
import type { NamedStep } from "./support";
import type { RuleContext, RuleVisitor, Visit, VisitingRule } from "./types";

interface Registered<T> {
  /** The rule's position in the list (its reports are handed on in that order). */
  readonly rule: number;
  readonly visit: Visit<T>;
}

interface Dispatch {
  readonly spec: Registered<undefined>[];
  readonly flows: Registered<FlowDecl>[];
  readonly steps: Registered<NamedStep>[];
  readonly stepsByKind: Map<StepKind, Registered<NamedStep>[]>;
  readonly functions: Registered<FunctionDecl>[];
  readonly fields: Registered<FieldDefinitionSite>[];
}

const NONE: readonly Registered<NamedStep>[] = [];
const DISPATCH = new WeakMap<readonly VisitingRule[], Dispatch>();

/** The callback tables of a rule list (built on its first check, then reused). */
function dispatchOf(rules: readonly VisitingRule[]): Dispatch {
  const known = DISPATCH.get(rules);
  if (known !== undefined) return known;
  const d: Dispatch = { spec: [], flows: [], steps: [], stepsByKind: new Map(), functions: [], fields: [] };
  rules.forEach((rule, index) => {
    const on: RuleVisitor = {
      onSpec: (visit) => d.spec.push({ rule: index, visit: (_, context) => visit(context) }),
      onFlow: (visit) => d.flows.push({ rule: index, visit }),
      onStep: (kindsOrVisit: readonly StepKind[] | Visit<NamedStep>, maybeVisit?: Visit<NamedStep>): void => {
        if (typeof kindsOrVisit === "function") {
          d.steps.push({ rule: index, visit: kindsOrVisit });
          return;
        }
        if (maybeVisit === undefined) throw new Error(`${rule.code}: onStep(kinds) without a callback`);
        for (const kind of new Set(kindsOrVisit)) {
          const list = d.stepsByKind.get(kind) ?? [];
          list.push({ rule: index, visit: maybeVisit });
          d.stepsByKind.set(kind, list);
        }
      },
      onFunction: (visit) => d.functions.push({ rule: index, visit }),
      onContractField: (visit) => d.fields.push({ rule: index, visit }),
    };
    rule.visit(on);
  });
  DISPATCH.set(rules, d);
  return d;
}

interface HeldReport {
  readonly rule: RuleInfo;
  readonly input: ReportInput;
}

/** Runs the rules over the model in one walk; reports reach `reporter` grouped by rule, in list order. */
export function runVisitingRules(rules: readonly VisitingRule[], model: SpecModel, reporter: Reporter): void {
  const d = dispatchOf(rules);
  const held: HeldReport[][] = rules.map(() => []);
  const contexts: RuleContext[] = held.map((own) => ({
    model,
    reporter: { report: (rule, input) => own.push({ rule, input }) },
  }));
  for (const r of d.spec) r.visit(undefined, contexts[r.rule]!);
  for (const flow of model.flows) {
    for (const r of d.flows) r.visit(flow, contexts[r.rule]!);
    for (const step of flow.steps) {
      // A step without a valid id takes part in no id-based rule (its paths need the id).
      if (step.id === null) continue;
      const named = step as NamedStep;
      for (const r of d.steps) r.visit(named, contexts[r.rule]!);
      if (step.kind === null) continue;
      for (const r of d.stepsByKind.get(step.kind) ?? NONE) r.visit(named, contexts[r.rule]!);
    }
  }
  for (const fn of model.functions) for (const r of d.functions) r.visit(fn, contexts[r.rule]!);
  if (d.fields.length > 0) {
    for (const site of fieldDefinitions(model)) for (const r of d.fields) r.visit(site, contexts[r.rule]!);
  }
  for (const own of held) for (const { rule, input } of own) reporter.report(rule, input);
}
