// Spec texts for the graph tests. `flowSpec` writes one flow `f` whose steps are the given
// flow-style items, one per line: step item `i` is on line `10 + i` (1-based).

const HEADER = [
  'version: "0.2"',
  "functions:",
  "  work: {mode: infer, intent: w, input: {}, output: Out}",
  "  review: {mode: gate}",
  "contracts: {Out: {v: {type: string}}}",
  "flows:",
  "  f:",
  "    input: {}",
];

export function flowSpec(steps: readonly string[], more: readonly string[] = []): string {
  return [...HEADER, "    steps:", ...steps.map((s) => `      - ${s}`), ...more, ""].join("\n");
}

/** A spec whose flows are given as `name: [step items]` with flow-style items. */
export function flowsSpec(flows: readonly (readonly [string, readonly string[]])[]): string {
  const lines = ['version: "0.2"', "flows:"];
  for (const [name, steps] of flows) {
    lines.push(`  ${name}:`, "    input: {}", "    steps:", ...steps.map((s) => `      - ${s}`));
  }
  return `${lines.join("\n")}\n`;
}
