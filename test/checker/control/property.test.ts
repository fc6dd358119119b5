// The control model against the real interpreter: random control-only flows (inline steps with or
// without a check, next, on_fail, retries; gates with their routes and a policy; constant and
// non-constant skip_if; max_rounds), whose static verdicts must equal what driving the
// interpreter through every choice finds (ground-truth.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { groundTruth } from "./ground-truth";
import { CONTROL_CODES, verdict } from "./support";

interface StepGen {
  readonly gate: boolean;
  readonly ensure: boolean;
  readonly next: number | null;
  readonly onFail: number | null;
  readonly retries: 1 | 2;
  readonly skip: "none" | "true" | "false" | "file";
  readonly onApprove: number | null;
  readonly onRevise: number;
  readonly onKill: number | null;
  readonly policy: boolean;
}

const target = fc.option(fc.nat(4), { nil: null, freq: 2 });

const stepGen: fc.Arbitrary<StepGen> = fc.record({
  gate: fc.boolean(),
  ensure: fc.boolean(),
  next: target,
  onFail: target,
  retries: fc.constantFrom(1 as const, 2 as const),
  skip: fc.constantFrom("none" as const, "none" as const, "true" as const, "false" as const, "file" as const),
  onApprove: target,
  onRevise: fc.nat(4),
  onKill: target,
  policy: fc.boolean(),
});

const flowGen = fc.record({
  steps: fc.array(stepGen, { minLength: 2, maxLength: 4 }),
  maxRounds: fc.constantFrom(null, 1, 2),
});

function specText(flow: { steps: readonly StepGen[]; maxRounds: number | null }): {
  text: string;
  files: string[];
} {
  const n = flow.steps.length;
  const id = (i: number): string => `s${i % n}`;
  const files: string[] = [];
  const items = flow.steps.map((s, i) => {
    const keys = [`id: s${i}`];
    // The first step is never a gate: its on_revise would have nowhere earlier to go.
    const gate = s.gate && i > 0;
    if (gate) {
      keys.push("function: review");
      keys.push(`on_approve: ${s.onApprove === null ? "null" : id(s.onApprove)}`);
      keys.push(`on_revise: s${s.onRevise % i}`);
      keys.push(`on_kill: ${s.onKill === null ? "null" : id(s.onKill)}`);
      if (s.policy) keys.push("policy: flag");
    } else {
      keys.push("intent: x");
      if (s.ensure) keys.push('ensure: ["result.ok"]');
      if (s.next !== null) keys.push(`next: ${id(s.next)}`);
      if (s.ensure && s.onFail !== null) keys.push(`on_fail: ${id(s.onFail)}`);
      if (s.retries === 2) keys.push("retries: 2");
    }
    if (s.skip === "true") keys.push("skip_if: 'True'");
    if (s.skip === "false" && !gate) keys.push("skip_if: 'False'");
    if (s.skip === "file") {
      keys.push(`skip_if: "file_exists('s${i}')"`);
      files.push(`s${i}`);
    }
    return `      - {${keys.join(", ")}}`;
  });
  const lines = [
    'version: "0.2"',
    "functions:",
    "  review: {mode: gate}",
    "flows:",
    "  f:",
    "    input: {}",
    ...(flow.maxRounds === null ? [] : [`    max_rounds: ${flow.maxRounds}`]),
    "    steps:",
    ...items,
  ];
  return { text: `${lines.join("\n")}\n`, files };
}

describe("control model = the interpreter driven through every choice", () => {
  it("completes, option to complete and dead steps agree", { timeout: 60_000 }, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(flowGen, async (flow) => {
        const { text, files } = specText(flow);
        const checked = checkSpec(text, { suppressions: false });
        const others = checked.errors.filter((d) => !CONTROL_CODES.has(d.code));
        fc.pre(others.length === 0);
        const truth = await groundTruth(text, files, 80);
        fc.pre(truth !== null);
        if (truth === null) return;
        compared++;
        const v = verdict(text);
        const ids = flow.steps.map((_, i) => `s${i}`);
        const dead = ids.filter((s) => !truth.dispatched.has(s));
        expect(
          {
            completes: v.completes,
            optionToComplete: v.optionToComplete,
            dead: v.deadSteps.map((d) => d.step),
          },
          text,
        ).toEqual({ completes: truth.completes, optionToComplete: truth.optionToComplete, dead });
      }),
      { numRuns: 50, seed: 20_261_205 },
    );
    expect(compared).toBeGreaterThan(25);
  });
});
