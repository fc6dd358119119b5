// Shared helpers of the semantic rules: SPEC-family paths (docs/reference/language.md §9.1, named by ids), the step `E`
// anchor, did-you-mean suggestions with their rename fix, and field-presence tests that follow the
// cascade rules of docs/reference/language.md §9.3 (a field that is present but structurally invalid is "unknown").
import { entityRange, stepEntityRange } from "../anchors";
import type { SourceRange } from "../base/source-range";
import type { SourceEdit, SpecFix } from "../diagnostic";
import { suggest } from "../expr/did-you-mean";
import type { Fields, FunctionDecl, SpecModel, StepDecl } from "../model/types";
import type { MapEntry, SpecNode } from "../yaml/nodes";
import { didYouMean, renameFix } from "./suggestions";

/** A step that takes part in id-based rules: its messages and paths need `<s>`. */
export interface NamedStep extends StepDecl {
  readonly id: string;
}

/** Every step with a valid id, flow by flow, in declaration order. */
export function* namedSteps(model: SpecModel): Generator<NamedStep> {
  for (const flow of model.flows) {
    for (const step of flow.steps) {
      if (step.id !== null) yield step as NamedStep;
    }
  }
}

/** `flows.<f>.steps.<s>` plus an optional field suffix. */
export function stepPath(step: NamedStep, field?: string): string {
  const base = `flows.${step.flow.name}.steps.${step.id}`;
  return field === undefined ? base : `${base}.${field}`;
}

export function functionPath(fn: FunctionDecl, field?: string): string {
  return field === undefined ? `functions.${fn.name}` : `functions.${fn.name}.${field}`;
}

/** `E` for a step: its id value when on the step's first line, else the item's start (docs/reference/language.md §9.2). */
export function stepEntity(model: SpecModel, step: StepDecl): SourceRange {
  const steps = step.flow.stepsNode;
  if (steps !== null) return stepEntityRange(model.source, steps, step.index);
  // No valid `steps` node to anchor on: fall back to the step mapping's first key.
  const first = step.node.entries[0];
  return first !== undefined ? entityRange(first) : step.node.range;
}

/** A valid field: present and structurally sound (0.1 documents never have the 0.2 keys as valid). */
export function has(fields: Fields, key: string): boolean {
  return fields.valid(key);
}

/** The key is absent; a present but invalid value is unknown and is not "absent". */
export function lacks(fields: Fields, key: string): boolean {
  return fields.entry(key) === undefined;
}

/** The `K:<key>` range of a field known to be present. */
export function keyOf(fields: Fields, key: string): SourceRange {
  const entry = fields.entry(key);
  return entry === undefined ? fields.node.range : entry.key.range;
}

/** A valid, non-null string field of a step (a route target, a name). */
export function stringValue(fields: Fields, key: string): { value: string; entry: MapEntry } | null {
  const f = fields.nullableString(key) ?? fields.string(key);
  if (f === null || f.value === null) return null;
  return { value: f.value, entry: f.entry };
}

export interface NameSuggestion {
  readonly suggestion?: string;
  readonly fix?: SpecFix;
}

/**
 * Did-you-mean for an unknown name written as the value of `entry` (docs/reference/language.md §9.1): the suggestion, and a
 * fix that renames the value when the match is unique.
 */
export function suggestName(entry: MapEntry, name: string, candidates: Iterable<string>): NameSuggestion {
  const s = suggest(name, candidates);
  if (s === null) return {};
  const suggestion = didYouMean(s.candidate);
  if (!s.unique) return { suggestion };
  return {
    suggestion,
    fix: { description: renameFix(name, s.candidate), edits: [replaceScalar(entry.value, s.candidate)] },
  };
}

// Plain scalars that PyYAML would not load as a string (YAML 1.1 booleans, nulls, numbers…).
const NOT_PLAIN_STRING =
  /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|[-+.0-9].*|<<|=)$/;

/** Replaces a scalar value by `text` as a string: bare when safe, else double-quoted. */
export function replaceScalar(node: SpecNode, text: string): SourceEdit {
  const safePlain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(text) && !NOT_PLAIN_STRING.test(text);
  if (node.kind === "scalar" && (node.style === "single" || node.style === "double") && safePlain) {
    // Keep the author's quotes: replace only what lies between them.
    return { range: { start: node.range.start + 1, end: node.range.end - 1 }, newText: text };
  }
  return { range: node.range, newText: safePlain ? text : JSON.stringify(text) };
}

/** Python's order of strings (code points), for the sorted lists in messages. */
export function comparePython(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
