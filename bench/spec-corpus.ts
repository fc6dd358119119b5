// The spec corpus of `npm run bench`: a deterministic generator of realistic, varied specs
// (20–300 lines; versions 0.1 and 0.2; contracts with nesting, enums and optional fields; function,
// gate, inline and sub-flow steps; `$` references; routing; skip_if; iterations; output_schema;
// workflow blocks; every scalar style; comments) with a share of typical mistakes.
import { SpecBuilder } from "./spec-gen/builder";
import { emitSpec } from "./spec-gen/emit";
import { MUTATIONS } from "./spec-gen/mutations";
import { Rng } from "./spec-gen/rng";
import { addStep } from "./spec-gen/steps";

export const MIN_LINES = 20;
export const MAX_LINES = 300;
export const DEFAULT_SEED = 0x5eed_2024;

export interface GeneratedSpec {
  readonly name: string;
  readonly text: string;
  readonly lines: number;
  readonly version: "0.1" | "0.2";
  /** The diagnostic code of the planted mistake; null for a spec meant to be valid. */
  readonly planted: string | null;
}

function lineCount(text: string): number {
  return text.split("\n").length - 1;
}

/** A target size: most specs are 40–150 lines, with a tail up to MAX_LINES. */
function targetLines(rng: Rng): number {
  return MIN_LINES + Math.floor((MAX_LINES - MIN_LINES) * rng.next() ** 1.7);
}

export function generateSpec(index: number, seed = DEFAULT_SEED): GeneratedSpec {
  const rng = new Rng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const version = rng.chance(0.15) ? "0.1" : "0.2";
  const target = targetLines(rng);
  const b = new SpecBuilder(rng, version);
  let flow = b.newFlow(false);
  addStep(b, flow);
  let text = emitSpec(b.model);
  for (let guard = 0; lineCount(text) < target && guard < 200; guard++) {
    if (flow.steps.length >= 3 && rng.chance(0.12) && b.model.flows.filter((f) => !f.leaf).length < 3) {
      flow = b.newFlow(false);
    }
    addStep(b, flow);
    if (b.model.workflow === null && b.v2 && guard === 0 && rng.chance(0.35)) {
      const entry = b.model.flows[0]!;
      b.model.workflow = {
        name: entry.name,
        description: "Run the whole workflow end to end",
        entry,
        metadata: rng.chance(0.5),
      };
    }
    const next = emitSpec(b.model);
    if (lineCount(next) > MAX_LINES) break;
    text = next;
  }
  while (lineCount(text) < MIN_LINES) text = `# generated for the checker benchmark\n${text}`;
  let planted: string | null = null;
  if (rng.chance(0.1)) {
    const start = rng.int(0, MUTATIONS.length - 1);
    for (let k = 0; k < MUTATIONS.length && planted === null; k++) {
      const m = MUTATIONS[(start + k) % MUTATIONS.length]!;
      const mutated = m.apply(text);
      if (mutated !== null) {
        text = mutated;
        planted = m.code;
      }
    }
  }
  const name = `spec-${String(index).padStart(4, "0")}.stratum.yaml`;
  return { name, text, lines: lineCount(text), version, planted };
}

/** `count` specs, the same on every run for the same seed. */
export function generateCorpus(count = 1000, seed = DEFAULT_SEED): GeneratedSpec[] {
  return Array.from({ length: count }, (_, i) => generateSpec(i, seed));
}
