// Resolution and typing of a well-formed `$` reference (docs/reference/language.md §8, docs/reference/language.md §10.12.4): the input or
// step it names, the problem to report (unknown step, undeclared input, unknown contract field —
// the first one stops the walk) and its static type. An unresolvable reference is `any`, so
// nothing cascades from it.
import type { PathRef, PathSegment } from "../../grammar/ast";
import { fieldType } from "../../stdlib/types/field-type";
import { ANY, NONE, type RecordType, type Type } from "../../stdlib/types/type";
import { members, union } from "../../stdlib/types/union";
import { JSON_FIELD_TYPES } from "../base/json";
import type { FlowDecl, StepDecl } from "../model/types";

export type RefProblem =
  | {
      readonly kind: "unknown-step";
      readonly segment: PathSegment;
      readonly candidates: readonly string[];
      /** `$.gates.<id>` of a step that is not a gate: the candidates are the flow's gates. */
      readonly notGate?: boolean;
    }
  | {
      readonly kind: "undeclared-input";
      readonly segment: PathSegment;
      readonly candidates: readonly string[];
    }
  | {
      readonly kind: "unknown-field";
      readonly segment: PathSegment;
      readonly record: RecordType;
      /** The record is part of a property's state (`$.flow`, `$.steps.<id>`), not a contract. */
      readonly state?: boolean;
    };

export interface ResolvedRef {
  readonly type: Type;
  /** The first problem, or null. */
  readonly problem: RefProblem | null;
  /** The step a `$.steps` reference names, when it exists. */
  readonly target: StepDecl | null;
}

/** The stored output type of a step (without `| none`; `none` for a gate). */
export type OutputTypeOf = (step: StepDecl) => Type;

export function resolveRef(ref: PathRef, flow: FlowDecl, outputType: OutputTypeOf): ResolvedRef {
  if (ref.scope === "input") {
    const declared = declaredInputs(flow);
    if (declared !== null && !declared.has(ref.name.name)) {
      const problem: RefProblem = {
        kind: "undeclared-input",
        segment: ref.name,
        candidates: flow.inputNames,
      };
      return { type: ANY, problem, target: null };
    }
    return walkFields(inputType(flow, ref.name.name), ref.fields, null);
  }
  const target = flow.stepById.get(ref.name.name);
  if (target === undefined) {
    const candidates = flow.steps.flatMap((s) => (s.id === null ? [] : [s.id]));
    return { type: ANY, problem: { kind: "unknown-step", segment: ref.name, candidates }, target: null };
  }
  return walkFields(union(outputType(target), NONE), ref.fields, target);
}

const declaredCache = new WeakMap<FlowDecl, ReadonlySet<string> | null>();

/** The declared input names, or null when `input` is not a mapping (then nothing is checked). */
function declaredInputs(flow: FlowDecl): ReadonlySet<string> | null {
  let declared = declaredCache.get(flow);
  if (declared === undefined) {
    declared = flow.entry("input")?.value.kind === "map" ? new Set(flow.inputNames) : null;
    declaredCache.set(flow, declared);
  }
  return declared;
}

/** `T | none` for an input declared `{type: <one of the six JSON types>}`, else `any` (docs/reference/language.md §10.12.4). */
export function inputType(flow: FlowDecl, name: string): Type {
  const input = flow.entry("input")?.value;
  const decl = input?.kind === "map" ? input.get(name)?.value : undefined;
  const type = decl?.kind === "map" ? decl.get("type")?.value : undefined;
  if (type?.kind !== "scalar" || typeof type.value !== "string" || !JSON_FIELD_TYPES.has(type.value))
    return ANY;
  return union(
    fieldType({ type: type.value }, () => undefined),
    NONE,
  );
}

export function walkFields(
  start: Type,
  fields: readonly PathSegment[],
  target: StepDecl | null,
): ResolvedRef {
  let t = start;
  for (const segment of fields) {
    const next = fieldOf(t, segment.name);
    if ("missing" in next) {
      return { type: ANY, problem: { kind: "unknown-field", segment, record: next.missing }, target };
    }
    t = next.type;
  }
  return { type: t, problem: null, target };
}

const DIGITS = /^[0-9]+$/;

/** One `.SEG` below a value of type `t` (docs/reference/language.md §10.12.4; null-propagating: never raises at run time). */
function fieldOf(t: Type, seg: string): { readonly type: Type } | { readonly missing: RecordType } {
  const out: Type[] = [];
  let missing: RecordType | null = null;
  for (const m of members(t)) {
    switch (m.k) {
      case "any":
        return { type: ANY };
      case "record": {
        const field = m.record.fields.get(seg);
        if (field === undefined) missing ??= m.record;
        else out.push(union(field.type, NONE));
        break;
      }
      case "ns": {
        const inner = fieldOf(m.of, seg);
        if ("missing" in inner) missing ??= inner.missing;
        else out.push(inner.type);
        break;
      }
      case "dict":
        out.push(ANY);
        break;
      case "list":
      case "tupleOf":
        out.push(DIGITS.test(seg) ? union(m.elem, NONE) : NONE);
        break;
      case "tuple":
        out.push(DIGITS.test(seg) ? union(m.elems[Number(seg)] ?? NONE, NONE) : NONE);
        break;
      default:
        out.push(NONE);
    }
  }
  if (missing !== null) return { missing };
  return { type: out.length === 0 ? NONE : union(...out) };
}
