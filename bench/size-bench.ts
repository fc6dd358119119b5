// Big inputs:
// - memory of `checkSpec` per byte of input: one child process per size and side (so heaps do not
//   mix), each reading a generated spec and reporting the growth of its peak RSS over its RSS with
//   the text read; the baseline is `yaml.parseDocument` of the same text measured the same way in
//   the same rounds; median of SIZE_RUNS runs, the two sides alternating;
// - the time to refuse a 50 MB spec (YAML-TOO-LARGE) through the built CLI, `node
//   bin/stratumc.cjs check big.stratum.yaml` (the plain bundle: the size check is what is timed),
//   against `node -e 0`, interleaved;
// - user regexes on RE2 (stdlib/regex/linear.ts): a typical output_schema pattern against V8's
//   RegExp in the same run, and the catastrophic `^(a+)+$` on "a"×34 + "!" (RE2 only: V8 would
//   backtrack for minutes).
// The child side runs from this same bundle: `STRATUMC_BENCH_CHILD=size <check|yaml> <file>`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { checkSpec } from "../checker/check-spec";
import { linearPattern } from "../stdlib/regex/linear";
import { type BigShape, bigSpec } from "./lib/big-spec";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { coldStartsMs, nsPerCall } from "./lib/timing";

const SIZES_MB = [0.5, 1, 2];
const SHAPES: readonly BigShape[] = ["contracts", "steps"];
const SIZE_RUNS = 3;
const REJECT_RUNS = 11;
const REJECT_BYTES = 50_000_000;

interface ChildAnswer {
  readonly bytes: number;
  /** Peak RSS minus the RSS with the text read, in bytes. */
  readonly growth: number;
}

/** The child side: read the file, run one side, print the growth of the peak RSS. */
export function sizeBenchChild(args: readonly string[]): void {
  const [side, file] = args;
  if (file === undefined) throw new Error("usage: size <check|yaml> <file>");
  const text = readFileSync(file, "utf8");
  const before = process.memoryUsage().rss;
  // The peak so far (startup, the read) is below `before`; what follows is the side's own.
  const result: unknown =
    side === "check" ? checkSpec(text).diagnostics.length : parseDocument(text).errors.length;
  const peak = process.resourceUsage().maxRSS * 1024;
  const answer: ChildAnswer & { readonly result: unknown } = {
    bytes: Buffer.byteLength(text),
    growth: Math.max(0, peak - before),
    result,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

function runChild(bundle: string, side: "check" | "yaml", file: string): ChildAnswer {
  const r = spawnSync(process.execPath, [bundle], {
    env: { ...process.env, STRATUMC_BENCH_CHILD: "size", STRATUMC_BENCH_ARGS: JSON.stringify([side, file]) },
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`size child (${side} ${file}) failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as ChildAnswer;
}

export interface SizeBench {
  readonly rows: Row[];
  readonly memory: readonly {
    readonly shape: BigShape;
    readonly mb: number;
    readonly bytes: number;
    readonly checkPerByte: number;
    readonly yamlPerByte: number;
  }[];
}

export function benchSizes(repoDir: string, bundle: string): SizeBench {
  const dir = mkdtempSync(join(tmpdir(), "stratumc-size-bench-"));
  try {
    const rows: Row[] = [];
    const memory: SizeBench["memory"][number][] = [];
    for (const shape of SHAPES) {
      for (const mb of SIZES_MB) {
        const file = join(dir, `${shape}-${mb}.stratum.yaml`);
        const text = bigSpec(shape, mb * 1024 * 1024);
        writeFileSync(file, text);
        const check: number[] = [];
        const yaml: number[] = [];
        for (let i = 0; i < SIZE_RUNS; i++) {
          // Alternate which side runs first, so both see the same machine.
          const order: ("check" | "yaml")[] = i % 2 === 0 ? ["check", "yaml"] : ["yaml", "check"];
          for (const side of order) {
            const a = runChild(bundle, side, file);
            (side === "check" ? check : yaml).push(a.growth / a.bytes);
          }
        }
        const checkPerByte = median(check);
        const yamlPerByte = median(yaml);
        memory.push({ shape, mb, bytes: Buffer.byteLength(text), checkPerByte, yamlPerByte });
        rows.push({
          metric: `check memory B/input B, ${mb} MB of ${shape} (baseline: yaml.parseDocument)`,
          median: checkPerByte,
          baseline: yamlPerByte,
          ratio: checkPerByte / yamlPerByte,
          target: null,
        });
      }
    }

    const big = join(dir, "big.stratum.yaml");
    writeFileSync(big, bigSpec("contracts", REJECT_BYTES));
    const bin = join(repoDir, "bin/stratumc.cjs");
    const [nodeMs, rejectMs] = coldStartsMs(
      [
        { command: process.execPath, args: ["-e", "0"] },
        { command: process.execPath, args: [bin, "check", big], status: 1 },
      ],
      REJECT_RUNS,
    ) as [number, number];
    rows.push({
      metric: "ms to refuse a 50 MB spec: node bin/stratumc.cjs check (baseline: node -e 0)",
      median: rejectMs,
      baseline: nodeMs,
      ratio: rejectMs / nodeMs,
      target: null,
    });
    rows.push(...regexRows());
    return { rows, memory };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A typical output_schema pattern (an id like `PROJ-1234`) on RE2 and on V8, and `^(a+)+$` on RE2. */
function regexRows(): Row[] {
  const typical = "^[A-Z][A-Z0-9]+-[0-9]{1,6}$";
  const texts = ["PROJ-1234", "AB-1", "proj-12", "X9-123456", "NOPE-", "ABC-1234567"];
  const re2 = linearPattern(typical);
  const evil = linearPattern("^(a+)+$");
  if (re2.kind !== "linear" || evil.kind !== "linear") throw new Error("bench patterns must run on RE2");
  const v8 = new RegExp(typical, "u");
  for (const t of texts) {
    if (re2.search(t) !== v8.test(t)) throw new Error(`RE2 and RegExp disagree on ${t}`);
  }
  const re2Ns = nsPerCall(() => texts.filter((t) => re2.search(t)).length) / texts.length;
  const v8Ns = nsPerCall(() => texts.filter((t) => v8.test(t)).length) / texts.length;
  const evilText = `${"a".repeat(34)}!`;
  const evilNs = nsPerCall(() => evil.search(evilText));
  return [
    {
      metric: "µs per output_schema pattern match on RE2 (baseline: V8 RegExp)",
      median: re2Ns / 1000,
      baseline: v8Ns / 1000,
      ratio: re2Ns / v8Ns,
      target: null,
    },
    {
      metric: "µs per match of ^(a+)+$ on 'a'*34+'!' (RE2)",
      median: evilNs / 1000,
      baseline: null,
      ratio: null,
      target: null,
    },
  ];
}

export function describeSizes(s: SizeBench): string {
  const lines = s.memory.map(
    (m) =>
      `${m.shape} ${m.mb} MB (${m.bytes} bytes): check ${m.checkPerByte.toFixed(1)} B/B, ` +
      `yaml.parseDocument ${m.yamlPerByte.toFixed(1)} B/B`,
  );
  return (
    `Memory of check: growth of the peak RSS of a child process over its RSS with the text read, per ` +
    `input byte, median of ${SIZE_RUNS} runs per side; ${lines.join("; ")}.\n`
  );
}
