// Reporting the problems of one `$` reference (docs/reference/language.md §9.5.5), in step inputs and inside
// expressions alike: the anchor is the offending segment inside the scalar, with a did-you-mean
// suggestion and, for a unique close match, a fix that renames the segment.
import { stepEntityRange } from "../anchors";
import type { SourceRange } from "../base/source-range";
import type { SpecRelated } from "../diagnostic";
import { suggest } from "../expr/did-you-mean";
import type { ExpressionKind } from "../expr/types";
import { didYouMean, renameFix } from "../messages";
import type { FlowDecl, StepDecl } from "../model/types";
import type { Reporter } from "../report";
import type { RuleInfo } from "../rule";
import type { SpecSource } from "../source";
import type { ScalarNode } from "../yaml/nodes";
import { mapEdit } from "./fixes";
import type { RefProblem } from "./path-types";
import {
  SPEC_REF_MAY_NOT_HAVE_RUN,
  SPEC_REF_UNDECLARED_INPUT,
  SPEC_REF_UNKNOWN_FIELD,
  SPEC_REF_UNKNOWN_STEP,
} from "./rules/index";

export interface RefSite {
  readonly src: SpecSource;
  readonly reporter: Reporter;
  /** The scalar holding the reference. */
  readonly node: ScalarNode;
  /** The reference text as written (`<ref>` in messages). */
  readonly text: string;
  /** The diagnostic path. */
  readonly path: string;
  /** The flow whose inputs and steps the reference reads. */
  readonly flow: FlowDecl;
  /** The anchor of a span of the loaded string (start-line rule applied by the caller's choice). */
  readonly range: (start: number, end: number) => SourceRange;
}

export function reportRefProblem(site: RefSite, problem: RefProblem): void {
  const seg = problem.segment;
  let rule: RuleInfo;
  let message: string;
  let candidates: Iterable<string>;
  switch (problem.kind) {
    case "unknown-step":
      rule = SPEC_REF_UNKNOWN_STEP;
      message =
        problem.notGate === true
          ? SPEC_REF_UNKNOWN_STEP.notGate(site.text, seg.name, site.flow.name, problem.candidates)
          : SPEC_REF_UNKNOWN_STEP.message(site.text, seg.name, site.flow.name);
      candidates = problem.candidates;
      break;
    case "undeclared-input":
      rule = SPEC_REF_UNDECLARED_INPUT;
      message = SPEC_REF_UNDECLARED_INPUT.message(site.text, seg.name, site.flow.name);
      candidates = problem.candidates;
      break;
    case "unknown-field":
      rule = SPEC_REF_UNKNOWN_FIELD;
      message =
        problem.state === true
          ? SPEC_REF_UNKNOWN_FIELD.state(site.text, problem.record.name, seg.name, [
              ...problem.record.fields.keys(),
            ])
          : SPEC_REF_UNKNOWN_FIELD.message(site.text, problem.record.name, seg.name);
      candidates = problem.record.fields.keys();
      break;
  }
  const s = suggest(seg.name, candidates);
  const edit = s?.unique === true ? mapEdit(site.src, site.node, seg.start, seg.end, s.candidate) : null;
  site.reporter.report(rule, {
    message,
    path: site.path,
    range: site.range(seg.start, seg.end),
    ...(s !== null ? { suggestion: didYouMean(s.candidate) } : {}),
    ...(edit !== null && s !== null
      ? { fix: { description: renameFix(seg.name, s.candidate), edits: [edit] } }
      : {}),
  });
}

/**
 * SPEC-REF-MAY-NOT-HAVE-RUN for a `$.steps.<id>` read inside an expression of `step`, when `target`
 * is the step itself or not one of its transitive dependencies.
 */
export function reportMayNotHaveRun(
  site: RefSite,
  span: { readonly start: number; readonly end: number },
  stepId: string,
  kind: ExpressionKind,
  target: StepDecl,
  targetId: string,
  dependsOn: (id: string) => boolean,
): void {
  const self = targetId === stepId;
  if (!self && dependsOn(targetId)) return;
  const rule = SPEC_REF_MAY_NOT_HAVE_RUN;
  const message = self ? rule.self(site.text, stepId, kind) : rule.message(site.text, stepId, kind, targetId);
  const related: SpecRelated = {
    message: rule.related(targetId),
    path: `flows.${site.flow.name}.steps.${targetId}`,
    range: declaredAt(site.src, site.flow, target),
  };
  site.reporter.report(rule, {
    message,
    path: site.path,
    range: site.range(span.start, span.end),
    related: [related],
  });
}

/** The step's E anchor (its id value on the item's first line, else the item start). */
function declaredAt(src: SpecSource, flow: FlowDecl, step: StepDecl): SourceRange {
  if (flow.stepsNode !== null) return stepEntityRange(src, flow.stepsNode, step.index);
  return step.entry("id")?.value.range ?? step.node.range;
}
