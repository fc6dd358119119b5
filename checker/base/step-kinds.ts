// The step kinds as data. Every kind type and kind list in every layer is derived from this one
// table, so a new kind is a row here plus one descriptor file per layer (`…/kinds/<kind>.ts`).

/** What is known about a kind before any descriptor is consulted. */
interface StepKindFacts {
  /** A value `type:` accepts (every kind but gate, which a function's `mode: gate` decides). */
  readonly typeValue: boolean;
  /** Selected by a step's `type:` key (0.3 and stratumc's constructs), not by function/intent/flow. */
  readonly typed: boolean;
  /** Runs several agents on one question and judges their reports (quorum, race, debate). */
  readonly members: boolean;
  /** Runs tasks in parallel (parallel_dispatch and the member kinds). */
  readonly parallel: boolean;
}

export const STEP_KIND_TABLE = {
  function: { typeValue: true, typed: false, members: false, parallel: false },
  gate: { typeValue: false, typed: false, members: false, parallel: false },
  inline: { typeValue: true, typed: false, members: false, parallel: false },
  flow: { typeValue: true, typed: false, members: false, parallel: false },
  // Selected by its own key `judge:` (0.2, docs/reference/language.md §11.3); `type: judge` does not exist.
  judge: { typeValue: false, typed: false, members: false, parallel: false },
  decompose: { typeValue: true, typed: true, members: false, parallel: false },
  parallel_dispatch: { typeValue: true, typed: true, members: false, parallel: true },
  // Reference 0.2.69 (docs/reference/language.md §6.9): stages over every element of a list.
  pipeline: { typeValue: true, typed: true, members: false, parallel: true },
  // stratumc's extensions (docs/reference/language.md §6.5, docs/design/concurrency-constructs.md).
  quorum: { typeValue: true, typed: true, members: true, parallel: true },
  race: { typeValue: true, typed: true, members: true, parallel: true },
  debate: { typeValue: true, typed: true, members: true, parallel: true },
} as const satisfies Readonly<Record<string, StepKindFacts>>;

type Table = typeof STEP_KIND_TABLE;

/** Every step kind. */
export type StepKind = keyof Table;

/** The kinds that `type:` selects. */
export type TypedStepKind = { [K in StepKind]: Table[K]["typed"] extends true ? K : never }[StepKind];

/** The kinds whose members answer one question (quorum, race, debate). */
export type MemberStepKind = { [K in StepKind]: Table[K]["members"] extends true ? K : never }[StepKind];

/** Every step kind, in table order. */
export const STEP_KINDS: readonly StepKind[] = Object.keys(STEP_KIND_TABLE) as StepKind[];

/** A value of a step's `type` key, which is also a recorded `step_mode`. */
export type StepTypeValue = { [K in StepKind]: Table[K]["typeValue"] extends true ? K : never }[StepKind];

/**
 * A recorded `step_mode`: every value of `type`, and `judge`, which only its key selects. (A gate
 * runs as step_mode "function".)
 */
export type StepMode = StepTypeValue | "judge";

export const STEP_TYPE_VALUES: readonly StepTypeValue[] = STEP_KINDS.filter(
  (k): k is StepTypeValue => STEP_KIND_TABLE[k].typeValue,
);

/** Every recorded `step_mode`. */
export const STEP_MODES: readonly StepMode[] = [...STEP_TYPE_VALUES, "judge"];

function isStepKind(value: unknown): value is StepKind {
  return typeof value === "string" && Object.hasOwn(STEP_KIND_TABLE, value);
}

export function isTypedStepKind(value: unknown): value is TypedStepKind {
  return isStepKind(value) && STEP_KIND_TABLE[value].typed;
}
