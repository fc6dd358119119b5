// Specs that keep the fuzzer busy for as long as it is allowed to: many one-step flows, or one long
// flow whose every step has an ensure that raises on some conforming result (so every step gives a
// finding to shrink and minimize).

const HEADER = `version: "0.2"
contracts:
  R:
    a: { type: integer }
    b: { type: integer }
functions:
`;

/** `ensure` on function `f<i>`: raises (integer division by zero) when `result.b == i`. */
function raisingFunction(i: number): string {
  return `  f${i}:
    mode: infer
    intent: "x"
    input: {}
    output: R
    ensure:
      - "result.a // (result.b - ${i}) >= 0"
    retries: 1
`;
}

/** `flows` one-step flows `f0` … `f<flows-1>`, all running the same raising function. */
export function manyFlowsSpec(flows: number): string {
  let out = `${HEADER}${raisingFunction(0)}flows:\n`;
  for (let i = 0; i < flows; i++) {
    out += `  f${i}:\n    input: {}\n    steps:\n      - id: s\n        function: f0\n        inputs: {}\n`;
  }
  return out;
}

/** One flow `main` of `steps` steps, each with its own raising function. */
export function longFlowSpec(steps: number): string {
  let out = HEADER;
  for (let i = 0; i < steps; i++) out += raisingFunction(i);
  out += "flows:\n  main:\n    input: {}\n    steps:\n";
  for (let i = 0; i < steps; i++) out += `      - id: s${i}\n        function: f${i}\n        inputs: {}\n`;
  return out;
}
