// In-process checking of the generated spec corpus against `yaml.parseDocument` alone on the same
// texts (the floor any checker built on the yaml package pays), measured in the same run.
import { parseDocument } from "yaml";
import { checkSpec } from "../checker/check-spec";
import { measurePaired, medianRatio } from "./lib/paired";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { type GeneratedSpec, generateCorpus } from "./spec-corpus";

export const CORPUS_SIZE = 1000;
const TARGET_CORPUS_RATIO = 1.5;
// The summary pass before the timed rounds also warms the JIT.
const ROUNDS = 5;

interface CorpusSummary {
  readonly specs: number;
  readonly lines: {
    readonly min: number;
    readonly median: number;
    readonly max: number;
    readonly total: number;
  };
  readonly version01: number;
  readonly planted: number;
  readonly valid: number;
  readonly diagnostics: number;
  readonly rounds: number;
}

export interface CorpusBench {
  readonly rows: Row[];
  readonly summary: CorpusSummary;
  readonly perSpec: { name: string; lines: number; checkUs: number; parseUs: number }[];
}

function summarise(corpus: readonly GeneratedSpec[], rounds: number): CorpusSummary {
  let valid = 0;
  let diagnostics = 0;
  for (const s of corpus) {
    const r = checkSpec(s.text);
    if (r.valid) valid++;
    diagnostics += r.diagnostics.length;
  }
  const lines = corpus.map((s) => s.lines);
  return {
    specs: corpus.length,
    lines: {
      min: Math.min(...lines),
      median: median(lines),
      max: Math.max(...lines),
      total: lines.reduce((a, b) => a + b, 0),
    },
    version01: corpus.filter((s) => s.version === "0.1").length,
    planted: corpus.filter((s) => s.planted !== null).length,
    valid,
    diagnostics,
    rounds,
  };
}

export function benchCorpus(): CorpusBench {
  const corpus = generateCorpus(CORPUS_SIZE);
  const texts = corpus.map((s) => s.text);
  const summary = summarise(corpus, ROUNDS);
  const m = measurePaired(
    texts,
    (t) => checkSpec(t),
    (t) => parseDocument(t),
    ROUNDS,
    1,
  );
  const rows: Row[] = [
    {
      metric: `check µs/spec, ${corpus.length} generated specs (baseline: yaml.parseDocument)`,
      median: median(m.oursNs) / 1000,
      baseline: median(m.baseNs) / 1000,
      ratio: medianRatio(m.oursNs, m.baseNs),
      target: null,
      targetRatio: TARGET_CORPUS_RATIO,
    },
    {
      metric: "check ms/corpus total (baseline: yaml.parseDocument)",
      median: m.oursTotalMs,
      baseline: m.baseTotalMs,
      ratio: m.oursTotalMs / m.baseTotalMs,
      target: null,
      targetRatio: TARGET_CORPUS_RATIO,
    },
  ];
  const perSpec = corpus.map((s, i) => ({
    name: s.name,
    lines: s.lines,
    checkUs: m.oursNs[i]! / 1000,
    parseUs: m.baseNs[i]! / 1000,
  }));
  return { rows, summary, perSpec };
}
