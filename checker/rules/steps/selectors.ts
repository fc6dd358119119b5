// The kind-selecting keys of a step (docs/reference/language.md §6.1, docs/reference/language.md §11.3): exactly one of `function`,
// `intent`, `flow`, `judge` must be given; an empty string counts as absent. Mirrors the model's kind resolution
// (checker/model/build.ts), so that SPEC-STEP-MODE is reported exactly when the model has no kind
// because of the selectors, never when a selector is merely broken.
import type { SpecModel, StepDecl } from "../../model/types";
import { isTypedKind } from "../placement";

export type Selector = "function" | "intent" | "flow" | "judge";

export type Selection =
  | { readonly kind: "one"; readonly key: Selector }
  | { readonly kind: "none" }
  | { readonly kind: "several" }
  /** A selector has a structural error, or `type` selected a decompose or parallel_dispatch step. */
  | { readonly kind: "unknown" };

const V01: readonly Selector[] = ["function"];
const V02: readonly Selector[] = ["function", "intent", "flow", "judge"];

export function selectionOf(model: SpecModel, step: StepDecl): Selection {
  // `type: decompose | parallel_dispatch | quorum | race | debate` decided the kind; the selectors
  // are ignored (0.3).
  if (isTypedKind(step)) return { kind: "unknown" };
  const chosen: Selector[] = [];
  for (const key of model.version === "0.1" ? V01 : V02) {
    if (step.entry(key) === undefined) continue;
    if (key === "judge") {
      // A mapping, never empty text: a `judge` that is not a mapping is SCHEMA-TYPE.
      if (step.map(key) === null) return { kind: "unknown" };
      chosen.push(key);
      continue;
    }
    const value = step.string(key);
    if (value === null) return { kind: "unknown" };
    if (value.value !== "") chosen.push(key);
  }
  const [first] = chosen;
  if (chosen.length > 1) return { kind: "several" };
  if (first !== undefined) return { kind: "one", key: first };
  return { kind: "none" };
}

/** The step's only selector, or null. */
export function soleSelector(model: SpecModel, step: StepDecl): Selector | null {
  const s = selectionOf(model, step);
  return s.kind === "one" ? s.key : null;
}
