// The reasoning certificate a well-behaved agent writes for a step with a `reasoning_template`
// (docs/reference/runtime.md, interpreter/flow/reasoning.ts): every section as a `## <label>` heading and,
// with require_citations, a `[P<n>]` citation in the last one. The interpreter reads the
// certificate from `artifact`, or from `reasoning` when `artifact` is falsy; a list artifact passes
// when it holds each heading as an element. Where the certificate goes is chosen so that the result
// still passes the step's contract and output_schema.
import type { StepIR } from "../../checker/index";
import { certificateOf, certificateViolations } from "../../interpreter/index";
import { fromJsonValue, type PyValue } from "../../stdlib/index";

type Template = NonNullable<ReturnType<typeof certificateOf>>;

function label(v: unknown): string {
  return typeof v === "string" ? v : String(v);
}

/** The certificate as text: each section's heading, a premise in the first, citations after. */
export function certificateBody(template: Template): string {
  return template.sections
    .map((s, i) => `## ${label(s.label)}\n${i === 0 ? "[P1] the reported result" : "as [P1] states"}`)
    .join("\n\n");
}

/** The ways to carry the certificate in an object result, most natural first. */
function placements(template: Template, plain: Record<string, unknown>): Record<string, unknown>[] {
  const body = certificateBody(template);
  const headings = template.sections.map((s) => `## ${label(s.label)}`);
  const out: Record<string, unknown>[] = [];
  const artifact = plain.artifact;
  // Keep what the artifact already says (an ensure may test it), the certificate after it.
  if (typeof artifact === "string" && artifact !== "")
    out.push({ ...plain, artifact: `${artifact}\n\n${body}` });
  out.push({ ...plain, artifact: body });
  out.push({ ...plain, artifact: headings });
  if (Array.isArray(artifact)) out.push({ ...plain, artifact: [...artifact, ...headings] });
  // `artifact` declared as something else: it must be falsy for `reasoning` to be read.
  const { artifact: _dropped, ...rest } = plain;
  for (const falsy of [undefined, "", 0, false, [], {}, null]) {
    const base = falsy === undefined ? rest : { ...rest, artifact: falsy };
    const reasoning = plain.reasoning;
    if (typeof reasoning === "string" && reasoning !== "")
      out.push({ ...base, reasoning: `${reasoning}\n\n${body}` });
    out.push({ ...base, reasoning: body });
    out.push({ ...base, reasoning: headings });
  }
  return out;
}

/**
 * The result with the step's certificate in it, placed so that `conforms` still holds; the result
 * unchanged when the step needs no certificate (no template, or not a Claude agent), already
 * carries one, or no placement conforms (not an object, or a shape that leaves no room).
 */
export function certified(step: StepIR, plain: unknown, conforms: (v: PyValue) => boolean): unknown {
  const template = certificateOf(step);
  if (template === null || plain === null || typeof plain !== "object" || Array.isArray(plain)) return plain;
  if (certificateViolations(template, fromJsonValue(plain)).length === 0) return plain;
  for (const candidate of placements(template, plain as Record<string, unknown>)) {
    const value = fromJsonValue(candidate);
    if (certificateViolations(template, value).length === 0 && conforms(value)) return candidate;
  }
  return plain;
}

/** Whether a result carries the certificate its step needs (always true without a template). */
export function hasCertificate(step: StepIR, value: PyValue): boolean {
  const template = certificateOf(step);
  return template === null || certificateViolations(template, value).length === 0;
}
