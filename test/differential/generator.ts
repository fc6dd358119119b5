// fast-check arbitraries for differential cases: an expression of the supported subset (as text)
// plus JSON bindings (as text). See expr-gen.ts and json-gen.ts for what is covered.
import fc from "fast-check";
import { ExprGen } from "./expr-gen";
import { genBindings } from "./json-gen";
import { randFrom } from "./rand";

export interface DifferentialCase {
  readonly expr: string;
  /** A JSON object of bindings, as text (exact big integers, -0.0). */
  readonly bindings: string;
}

/** Expression depth: mostly small, sometimes deeper. */
const DEPTHS = [2, 3, 3, 4, 4, 5];

const differentialCase: fc.Arbitrary<DifferentialCase> = fc.gen().map((g) => {
  const r = randFrom(g);
  const bindings = genBindings(r);
  const expr = new ExprGen(r).expression(r.pick(DEPTHS));
  return { expr, bindings };
});

/** `count` cases drawn deterministically from `seed`. */
export function sampleCases(seed: number, count: number): DifferentialCase[] {
  return fc.sample(differentialCase, { seed, numRuns: count });
}
