// Random small valid specs for the interpreter properties: one flow `main` of 1–6 function,
// inline and gate steps with ensure, retries, on_fail / next, skip_if, gate routes and policies,
// max_rounds and iteration fields. The model is drawn first, then written as YAML; every text is
// run through checkSpec and the invalid ones are discarded (the generator aims at valid ones, the
// filter makes sure).
import fc from "fast-check";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";

type GenStepKind = "function" | "inline" | "gate";

interface GenStep {
  readonly id: string;
  readonly kind: GenStepKind;
  /** Attempt limit (function: on the function; inline: on the step). */
  readonly retries: number;
  readonly ensure: readonly string[];
  /** Inline steps: declares `output_contract: Out`. */
  readonly contract: boolean;
  readonly onFail: string | null;
  readonly next: string | null;
  readonly skipIf: string | null;
  readonly maxIterations: number | null;
  readonly exitCriterion: string | null;
  readonly policy: "gate" | "flag" | "skip" | null;
  readonly onApprove: string | null;
  readonly onRevise: string | null;
  readonly onKill: string | null;
  readonly timeout: number | null;
}

interface GenSpec {
  readonly steps: readonly GenStep[];
  readonly maxRounds: number | null;
  readonly text: string;
}

export interface ValidSpec extends GenSpec {
  readonly ir: CheckedSpec;
}

const ENSURES = ["result.ok == True", "len(result.v) > 0", "result.v != 'bad'"] as const;
/** `PREV` is replaced by the id of the step declared just before. */
const SKIP_IFS = [
  "$.input.flag == True",
  "False",
  "not $.input.flag and False",
  "$.steps.PREV.output.ok == True",
];

/** A result that satisfies every contract and ensure the generator writes. */
export const PASSING_RESULT = { v: "good", ok: true } as const;

interface RawStep {
  readonly kind: GenStepKind;
  readonly retries: number;
  readonly ensure: readonly string[];
  readonly contract: boolean;
  readonly onFail: number | null;
  readonly next: number | null;
  readonly skipIf: number | null;
  readonly maxIterations: number | null;
  readonly exit: boolean;
  readonly policy: "gate" | "flag" | "skip" | null;
  readonly onApprove: number | null;
  readonly onRevise: number;
  readonly onKill: number | null;
  readonly timeout: number | null;
}

const optionalNat = (max: number) => fc.option(fc.nat({ max }), { nil: null, freq: 2 });

function rawStep(first: boolean): fc.Arbitrary<RawStep> {
  return fc.record({
    kind: first
      ? fc.constantFrom<GenStepKind>("function", "inline")
      : fc.constantFrom<GenStepKind>("function", "inline", "gate"),
    retries: fc.integer({ min: 1, max: 3 }),
    ensure: fc.subarray([...ENSURES], { maxLength: 2 }),
    contract: fc.boolean(),
    onFail: optionalNat(100),
    next: fc.option(fc.nat({ max: 100 }), { nil: null, freq: 3 }),
    skipIf: fc.option(fc.nat({ max: SKIP_IFS.length - 1 }), { nil: null, freq: 3 }),
    maxIterations: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 3 }),
    exit: fc.boolean(),
    policy: fc.constantFrom<RawStep["policy"]>(null, null, "gate", "flag", "skip"),
    onApprove: optionalNat(100),
    onRevise: fc.nat({ max: 100 }),
    onKill: fc.option(fc.nat({ max: 100 }), { nil: null, freq: 4 }),
    timeout: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null, freq: 2 }),
  });
}

/**
 * A route from step `i` of `n` drawn as `raw`: never the step itself; with `forwardOnly`, a later
 * step (or no route when there is none).
 */
function target(raw: number | null, i: number, n: number, forwardOnly: boolean): number | null {
  if (raw === null) return null;
  if (forwardOnly) return i + 1 < n ? i + 1 + (raw % (n - i - 1)) : null;
  const t = raw % n;
  return t === i ? null : t;
}

function buildStep(raw: RawStep, i: number, n: number, forwardOnly: boolean): GenStep {
  const id = `s${i}`;
  const at = (t: number | null) => (t === null ? null : `s${t}`);
  const skipIf =
    raw.skipIf === null
      ? null
      : i === 0 && SKIP_IFS[raw.skipIf]!.includes("PREV")
        ? "False"
        : SKIP_IFS[raw.skipIf]!.replace("PREV", `s${i - 1}`);
  if (raw.kind === "gate") {
    return {
      id,
      kind: "gate",
      retries: 1,
      ensure: [],
      contract: false,
      onFail: null,
      next: null,
      skipIf,
      maxIterations: null,
      exitCriterion: null,
      policy: raw.policy,
      // A gate auto-approved by skip_if whose on_approve leads back can make dispatch run forever
      // (docs/reference/runtime.md §3.1 has no cycle guard; reported to the lead), so that route points forward.
      onApprove: at(target(raw.onApprove, i, n, forwardOnly || skipIf !== null)),
      onRevise: `s${raw.onRevise % i}`,
      onKill: at(target(raw.onKill, i, n, forwardOnly)),
      timeout: raw.timeout,
    };
  }
  return {
    id,
    kind: raw.kind,
    retries: raw.retries,
    ensure: raw.ensure,
    contract: raw.kind === "function" || raw.contract,
    // on_fail needs something to fail on.
    onFail: raw.ensure.length > 0 ? at(target(raw.onFail, i, n, forwardOnly)) : null,
    next: at(target(raw.next, i, n, forwardOnly)),
    skipIf,
    maxIterations: raw.maxIterations,
    exitCriterion: raw.maxIterations !== null && raw.exit ? "result.ok == True" : null,
    policy: null,
    onApprove: null,
    onRevise: null,
    onKill: null,
    timeout: null,
  };
}

function json(v: unknown): string {
  return JSON.stringify(v);
}

function stepYaml(s: GenStep): string {
  const m: Record<string, unknown> = { id: s.id };
  if (s.kind === "function") {
    m.function = `fn_${s.id}`;
    m.inputs = {};
  } else if (s.kind === "gate") {
    m.function = `gate_${s.id}`;
    m.on_approve = s.onApprove;
    m.on_revise = s.onRevise;
    m.on_kill = s.onKill;
    if (s.policy !== null) m.policy = s.policy;
  } else {
    m.intent = `Do ${s.id}`;
    if (s.contract) m.output_contract = "Out";
    if (s.ensure.length > 0) m.ensure = s.ensure;
    m.retries = s.retries;
  }
  if (s.onFail !== null) m.on_fail = s.onFail;
  if (s.next !== null) m.next = s.next;
  if (s.skipIf !== null) m.skip_if = s.skipIf;
  if (s.maxIterations !== null) m.max_iterations = s.maxIterations;
  if (s.exitCriterion !== null) m.exit_criterion = s.exitCriterion;
  return `      - ${json(m)}`;
}

function functionYaml(s: GenStep): string[] {
  if (s.kind === "gate") {
    return [
      `  gate_${s.id}:`,
      "    mode: gate",
      ...(s.timeout === null ? [] : [`    timeout: ${s.timeout}`]),
    ];
  }
  if (s.kind !== "function") return [];
  return [
    `  fn_${s.id}:`,
    "    mode: compute",
    `    intent: ${json(`Compute ${s.id}`)}`,
    "    input: {}",
    "    output: Out",
    ...(s.ensure.length > 0 ? [`    ensure: ${json(s.ensure)}`] : []),
    `    retries: ${s.retries}`,
  ];
}

function specText(steps: readonly GenStep[], maxRounds: number | null): string {
  const functions = steps.flatMap(functionYaml);
  return [
    'version: "0.2"',
    "contracts:",
    "  Out:",
    "    v: {type: string}",
    "    ok: {type: boolean}",
    ...(functions.length > 0 ? ["functions:", ...functions] : []),
    "flows:",
    "  main:",
    "    input: {flag: {type: boolean}}",
    ...(maxRounds === null ? [] : [`    max_rounds: ${maxRounds}`]),
    "    steps:",
    ...steps.map(stepYaml),
    "",
  ].join("\n");
}

/** Specs as drawn, valid or not. */
function genSpec(options: { readonly forwardOnly: boolean }): fc.Arbitrary<GenSpec> {
  return fc.integer({ min: 1, max: 6 }).chain((n) =>
    fc
      .tuple(
        fc.tuple(...Array.from({ length: n }, (_, i) => rawStep(i === 0))),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      )
      .map(([raws, maxRounds]) => {
        const steps = raws.map((r, i) => buildStep(r, i, n, options.forwardOnly));
        return { steps, maxRounds, text: specText(steps, maxRounds) };
      }),
  );
}

/** Only the specs that check clean (errors only: warnings such as unreachable steps are fine). */
export function validSpec(options: { readonly forwardOnly: boolean }): fc.Arbitrary<ValidSpec> {
  return genSpec(options)
    .map((g) => {
      const r = checkSpec(g.text);
      return r.valid && r.ir ? { ...g, ir: r.ir } : null;
    })
    .filter((g): g is ValidSpec => g !== null);
}
