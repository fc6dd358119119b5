// How the fuzzer's cost grows with the size of a spec: a whole fuzzSpec of 200 one-step flows
// against one of 20 (bench/lib/heavy-specs.ts), per flow, in interleaved rounds of the same run.
// Each flow is explored on its own, so the cost per flow should not depend on how many other flows
// the spec has: target ≤ 1.5× (a scenario that drew values for every flow's steps made it 10×).
import { performance } from "node:perf_hooks";
import { fuzzSpec } from "../fuzzer/fuzz-spec";
import { manyFlowsSpec } from "./lib/heavy-specs";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const SMALL = 20;
const LARGE = 200;
const ROUNDS = 3;
const TARGET_RATIO = 1.5;

async function msPerFlow(flows: number): Promise<number> {
  const spec = manyFlowsSpec(flows);
  const started = performance.now();
  const { report } = await fuzzSpec(spec, { seed: 42 });
  const ms = performance.now() - started;
  const judged = Object.keys(report?.soundness ?? {}).length;
  if (judged !== flows) throw new Error(`fuzz scaling bench: ${judged} of ${flows} flows judged`);
  return ms / flows;
}

export async function benchFuzzScaling(): Promise<Row[]> {
  const small: number[] = [];
  const large: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    small.push(await msPerFlow(SMALL));
    large.push(await msPerFlow(LARGE));
  }
  const base = median(small);
  const big = median(large);
  return [
    {
      metric: `fuzz: ms per flow of a whole fuzzSpec, ${LARGE} one-step flows (baseline: ${SMALL} flows; median of ${ROUNDS})`,
      median: big,
      baseline: base,
      ratio: big / base,
      target: null,
      targetRatio: TARGET_RATIO,
    },
  ];
}
