// `$` references in step inputs (docs/reference/language.md §8, docs/reference/language.md §9.5.5): malformed references, unknown steps,
// undeclared inputs and unknown contract fields. Anchors are ranges inside the value scalar, moved
// to the input's key line when the value is written below its key (docs/reference/language.md §9.2 start line). These
// references are dependency edges, so they never get SPEC-REF-MAY-NOT-HAVE-RUN.
import { fromKeyLine } from "../anchors";
import { MESSAGES } from "../messages";
import type { SpecModel, StepDecl } from "../model/types";
import type { Reporter } from "../report";
import { exprRule } from "./expr-rules";
import { isReference, parseInputReference } from "./input-refs";
import { type OutputTypeOf, resolveRef } from "./path-types";
import { type RefSite, reportRefProblem } from "./ref-report";
import type { CheckedInput } from "./types";

/** Checks and parses the string values of a step's `inputs` (the step has a valid id). */
export function checkInputs(
  model: SpecModel,
  reporter: Reporter,
  step: StepDecl & { readonly id: string },
  outputType: OutputTypeOf,
): CheckedInput[] {
  const inputs = step.entry("inputs")?.value;
  if (inputs?.kind !== "map") return [];
  const out: CheckedInput[] = [];
  for (const entry of inputs.entries) {
    const node = entry.value;
    if (entry.name === null || node.kind !== "scalar" || typeof node.value !== "string") continue;
    if (model.invalid.has(node)) continue;
    const raw = node.value;
    if (!isReference(raw)) {
      out.push({ name: entry.name, raw, ref: null });
      continue;
    }
    const site: RefSite = {
      src: model.source,
      reporter,
      node,
      text: raw,
      path: `flows.${step.flow.name}.steps.${step.id}.inputs.${entry.name}`,
      flow: step.flow,
      range: (start, end) => fromKeyLine(model.source, entry, node.mapRange(start, end)),
    };
    const ref = parseInputReference(raw);
    out.push({ name: entry.name, raw, ref });
    if (ref === null) {
      reporter.report(exprRule("SPEC-REF-MALFORMED"), {
        message: MESSAGES["SPEC-REF-MALFORMED"].message(raw),
        path: site.path,
        range: site.range(0, raw.length),
      });
      continue;
    }
    const problem = resolveRef(ref, step.flow, outputType).problem;
    if (problem !== null) reportRefProblem(site, problem);
  }
  return out;
}
