// Random control-only flows for property tests: inline steps with or without a check, next,
// on_fail, retries; gates with their routes and a policy; constant and non-constant skip_if;
// max_rounds. As spec text (the flow is `f`), with the files a `file_exists` skip_if reads.
import fc from "fast-check";

export interface StepGen {
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

/** Random control-only flows; `fileSkips: false` leaves out the skip_if that reads a file. */
export function flowGenOf(fileSkips: boolean) {
  const step = fileSkips
    ? stepGen
    : stepGen.map((s) => (s.skip === "file" ? { ...s, skip: "none" as const } : s));
  return fc.record({
    steps: fc.array(step, { minLength: 2, maxLength: 4 }),
    maxRounds: fc.constantFrom(null, 1, 2),
  });
}

export const flowGen = flowGenOf(true);

export function specText(flow: { steps: readonly StepGen[]; maxRounds: number | null }): {
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
