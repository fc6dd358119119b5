// Generators of extreme specs for the whole-pipeline stress tests: a spec of a given size, deep
// nesting in flow and block style, an alias bomb.

/** The line (1-based) of the first occurrence of `needle` in `text`. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`not in the text: ${needle}`);
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const HEADER = `version: "0.2"
contracts:
  Out:
    v: {type: string}
    n: {type: integer}
    tags: {type: array, items: {type: string}}
functions:
  work:
    mode: infer
    intent: "Do one unit of work"
    input: {prev: {type: string}}
    output: Out
    ensure: ["result.n >= 0", "len(result.tags) <= 10"]
flows:
`;

/** A long folded intent, as agents write them (keeps the node count per megabyte realistic). */
const INTENT = [
  "Refine the previous output: keep every fact it states, remove repetition, and make each",
  "sentence say one thing. Report the refined text as v, the number of changes as n, and up",
  "to ten tags that describe the topics the text covers, most important first.",
]
  .map((line) => `          ${line}\n`)
  .join("");

/** One flow of `steps` steps alternating function and inline steps chained by `$.steps` inputs. */
function flow(name: string, steps: number): string {
  const parts = [`  ${name}:\n    input: {seed: {type: string}}\n    steps:\n`];
  for (let i = 0; i < steps; i++) {
    const input = i === 0 ? "$.input.seed" : `$.steps.s${i - 1}.output.v`;
    if (i % 2 === 0) {
      parts.push(`      - id: s${i}\n        function: work\n        inputs: {prev: "${input}"}\n`);
    } else {
      parts.push(
        `      - id: s${i}\n        intent: >-\n${INTENT}        inputs: {prev: "${input}"}\n` +
          `        output_contract: Out\n        ensure: ["result.v != ''", "result.n < 100"]\n`,
      );
    }
  }
  return parts.join("");
}

export interface LargeSpec {
  readonly text: string;
  readonly flows: number;
  readonly stepsPerFlow: number;
}

/** A valid spec of at least `bytes` characters: many flows of `stepsPerFlow` chained steps. */
export function largeValidSpec(bytes: number, stepsPerFlow = 50): LargeSpec {
  const parts = [HEADER];
  let size = HEADER.length;
  let flows = 0;
  while (size < bytes) {
    const f = flow(`flow_${flows}`, stepsPerFlow);
    parts.push(f);
    size += f.length;
    flows++;
  }
  return { text: parts.join(""), flows, stepsPerFlow };
}

/** `version` + `flows:` whose value is a flow sequence nested `depth` levels deep. */
export function deepFlowSequence(depth: number): string {
  return `version: "0.2"\nflows: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
}

/** A contract whose field definition is a flow mapping nested `depth` levels deep. */
export function deepFlowMapping(depth: number): string {
  return `version: "0.2"\ncontracts:\n  C:\n    f: ${"{type: ".repeat(depth)}string${"}".repeat(depth)}\n`;
}

/** Block mappings nested `depth` levels deep, one more space of indentation per level. */
export function deepBlockMapping(depth: number): string {
  const parts = ['version: "0.2"\ncontracts:\n'];
  for (let i = 1; i <= depth; i++) parts.push(`${" ".repeat(i)}k:\n`);
  parts.push(`${" ".repeat(depth + 1)}v\n`);
  return parts.join("");
}

/** Block sequences nested `depth` levels deep on one line (`- - - … x`). */
export function deepBlockSequence(depth: number): string {
  return `version: "0.2"\nflows:\n  f:\n    input: {}\n    steps:\n      ${"- ".repeat(depth)}x\n`;
}

/**
 * Billion laughs: each level is a list of `width` aliases of the previous level, so the expanded
 * document would hold width^levels strings. Lines: 1 `version`, 2 the anchored strings, 3… one
 * level each. `hundredFirstAliasLine` is the line of the 101st alias node in document order.
 */
export function aliasBomb(
  levels = 12,
  width = 10,
): { readonly text: string; readonly firstAliasLine: number; readonly hundredFirstAliasLine: number } {
  const lines = ['version: "0.2"', `l0: &l0 [${Array(width).fill('"lol"').join(", ")}]`];
  for (let i = 1; i <= levels; i++) {
    lines.push(
      `l${i}: &l${i} [${Array(width)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  }
  if (levels * width <= 100) throw new Error("an alias bomb needs more than 100 alias nodes");
  return {
    text: `${lines.join("\n")}\n`,
    firstAliasLine: 3,
    hundredFirstAliasLine: 3 + Math.floor(100 / width),
  };
}
