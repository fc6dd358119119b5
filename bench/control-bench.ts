// The control analysis's share of a check (the checker's time per edit: the language server runs
// the whole pipeline on every version): on the typical fixture and on a generated 1,000-step flow,
// the median time of the analysis — the IR it reads (built by the pipeline only because of it) and
// controlSoundness — against a whole checkSpec of the same text, measured in the same run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkSpec } from "../checker/check-spec";
import { controlSoundness } from "../checker/control/soundness";
import { buildFlowGraph } from "../checker/graph/index";
import { buildIR } from "../checker/ir/build";
import { measurePaired } from "./lib/paired";
import type { Row } from "./lib/table";

const TARGET_TYPICAL_MS = 5;
const TARGET_LARGE_MS = 50;
const LARGE_STEPS = 1000;

/**
 * One flow of `steps` steps: every tenth a gate revising ten steps back, every seventh a step
 * with a check that routes a failure back, every eleventh a next jumping two ahead with a
 * non-constant skip_if, so that routes, rounds and skips all take part.
 */
function largeControlSpec(steps: number): string {
  const lines = [
    'version: "0.2"',
    "functions:",
    "  review: {mode: gate}",
    "flows:",
    "  main:",
    "    input: {quick: {type: boolean}}",
    "    max_rounds: 3",
    "    steps:",
  ];
  for (let i = 0; i < steps; i++) {
    if (i % 10 === 9) {
      lines.push(
        `      - {id: s${i}, function: review, on_approve: ${i + 1 < steps ? `s${i + 1}` : "null"}, on_revise: s${i - 9}, on_kill: null}`,
      );
    } else if (i % 7 === 6) {
      lines.push(`      - {id: s${i}, intent: work, ensure: [result.ok], on_fail: s${i - 3}}`);
    } else if (i % 11 === 5 && i + 2 < steps) {
      lines.push(`      - {id: s${i}, intent: work, skip_if: "$.input.quick", next: s${i + 2}}`);
    } else {
      lines.push(`      - {id: s${i}, intent: work}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The analysis alone on an already checked text: the IR build and controlSoundness. */
function controlOnly(text: string): () => unknown {
  const checked = checkSpec(text);
  if (checked.model === null || checked.expressions === null) throw new Error("no model");
  const model = checked.model;
  const expressions = checked.expressions;
  return () => controlSoundness(buildIR(model, expressions, buildFlowGraph));
}

export function benchControl(repoDir: string): Row[] {
  const typical = readFileSync(join(repoDir, "bench/fixtures/typical.stratum.yaml"), "utf8");
  const large = largeControlSpec(LARGE_STEPS);
  const rows: Row[] = [];
  for (const [label, text, target, rounds] of [
    ["typical spec", typical, TARGET_TYPICAL_MS, 60],
    [`${LARGE_STEPS.toLocaleString("en")}-step flow`, large, TARGET_LARGE_MS, 15],
  ] as const) {
    const run = controlOnly(text);
    const r = measurePaired(
      [text],
      () => run(),
      (t) => checkSpec(t),
      rounds,
    );
    const ours = r.oursTotalMs;
    const base = r.baseTotalMs;
    rows.push({
      metric: `control analysis (IR + controlSoundness), ${label}: ms (baseline: checkSpec of the same text, control included)`,
      median: ours,
      baseline: base,
      ratio: ours / base,
      target,
    });
  }
  return rows;
}
