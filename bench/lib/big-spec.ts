// Generated big specs for the size bench (bench/size-bench.ts): valid specs of a given size in
// bytes (ASCII), in two shapes — many small contracts (the most nodes per byte), and one flow of
// many steps with `$` references, an iteration and expressions in every step.

export type BigShape = "contracts" | "steps";

const CONTRACTS_TAIL = `functions:
  f:
    mode: infer
    intent: "x"
    input: {}
    output: C0
flows:
  main:
    input: {}
    steps:
      - id: s
        function: f
        inputs: {}
`;

const STEPS_HEAD = `version: "0.2"
contracts:
  R:
    ok: {type: boolean}
    n: {type: integer}
    name: {type: string}
functions:
  f:
    mode: infer
    intent: "do it"
    input: {x: {type: string}}
    output: R
    ensure:
      - "result.n >= 0 and len(result.name) > 0"
flows:
  main:
    input: {x: {type: string}}
    output: R
    steps:
`;

/** A valid spec of about `bytes` bytes (at least that many, one unit more at most). */
export function bigSpec(shape: BigShape, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    parts.push(s);
    size += s.length;
  };
  if (shape === "contracts") {
    push('version: "0.2"\ncontracts:\n');
    for (let i = 0; size < bytes - CONTRACTS_TAIL.length; i++)
      push(`  C${i}:\n    a: {type: string}\n    b: {type: integer}\n`);
    push(CONTRACTS_TAIL);
  } else {
    push(STEPS_HEAD);
    for (let i = 0; size < bytes; i++) {
      const input = i === 0 ? '"$.input.x"' : `"$.steps.s${i - 1}.output.name"`;
      const after = i === 0 ? "" : `        depends_on: [s${i - 1}]\n`;
      push(
        `      - id: s${i}\n        function: f\n        inputs: {x: ${input}}\n${after}` +
          `        max_iterations: 3\n        exit_criterion: "result.ok and result.n > ${i % 7}"\n` +
          `        skip_if: "len('${i}') > 3 and not True"\n`,
      );
    }
  }
  return parts.join("");
}
