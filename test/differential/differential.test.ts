// Differential test: generated expressions evaluated by stratumc (in-process, and one batch
// through the real CLI) and by CPython implementing our documented semantics (oracle.py).
// FUZZ_RUNS sets the number of cases (default 5000; `npm run fuzz` 200000); FUZZ_SEED replays.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { oracleLine, runOracle } from "../support/oracle";
import { compareOutcomes, type Outcome } from "./compare";
import { type DifferentialCase, sampleCases } from "./generator";
import { runOurs } from "./run-ours";

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const SEED =
  process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
const BATCH = 2000;
const SHOWN = 12;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = `${ROOT}dist/stratumc.cjs`;
/** About 1 ms per case here; generous so that `npm run fuzz` (200,000 cases) fits. */
const TIMEOUT_MS = 60_000 + RUNS * 5;

interface Finding {
  readonly index: number;
  readonly c: DifferentialCase;
  readonly what: string;
  readonly ours: string;
  readonly cpython: string;
}

interface Tally {
  compared: number;
  same: number;
  values: number;
  skipped: Map<string, number>;
  findings: Finding[];
}

function newTally(): Tally {
  return { compared: 0, same: 0, values: 0, skipped: new Map(), findings: [] };
}

function show(o: unknown): string {
  const s = JSON.stringify(o);
  return s.length > 600 ? `${s.slice(0, 600)}…` : s;
}

function report(label: string, t: Tally): string {
  const lines = [
    `${label}: ${t.findings.length} problem(s) in ${t.compared} cases (seed ${SEED}; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`,
  ];
  for (const f of t.findings.slice(0, SHOWN)) {
    lines.push(
      `#${f.index} [${f.what}]`,
      `  expr:     ${f.c.expr}`,
      `  bindings: ${f.c.bindings}`,
      `  ours:     ${f.ours}`,
      `  CPython:  ${f.cpython}`,
    );
  }
  const kinds = new Map<string, number>();
  for (const f of t.findings) kinds.set(f.what, (kinds.get(f.what) ?? 0) + 1);
  lines.push(`by kind: ${show(Object.fromEntries(kinds))}`);
  return lines.join("\n");
}

function tallyOne(
  t: Tally,
  index: number,
  c: DifferentialCase,
  ours: Outcome,
  cpython: Outcome,
  definite: readonly string[],
) {
  t.compared++;
  const verdict = compareOutcomes(ours, cpython);
  if (verdict.kind === "skipped") {
    t.skipped.set(verdict.reason, (t.skipped.get(verdict.reason) ?? 0) + 1);
    return;
  }
  if (verdict.kind === "different") {
    t.findings.push({ index, c, what: verdict.what, ours: show(ours), cpython: show(cpython) });
    return;
  }
  t.same++;
  if ("repr" in ours) t.values++;
  if (definite.length > 0 && !("error" in cpython)) {
    t.findings.push({ index, c, what: "unsound static error", ours: show(definite), cpython: show(cpython) });
  }
}

describe("differential: stratumc vs CPython", () => {
  it(
    `${RUNS} generated cases agree (in-process)`,
    () => {
      const t = newTally();
      for (let start = 0; start < RUNS; start += BATCH) {
        const cases = sampleCases(SEED + start, Math.min(BATCH, RUNS - start));
        const cpython = runOracle(cases);
        cases.forEach((c, i) => {
          const ours = runOurs(c);
          const theirs = cpython[i];
          if (theirs === undefined) throw new Error("oracle answer missing");
          tallyOne(t, start + i, c, ours.outcome, theirs, ours.definiteFailures);
        });
      }
      const skipped = [...t.skipped.values()].reduce((a, b) => a + b, 0);
      expect(t.findings, report("in-process", t)).toEqual([]);
      // The generator must mostly produce comparable cases, and a good share of plain values.
      expect(skipped, `skipped: ${show(Object.fromEntries(t.skipped))}`).toBeLessThan(t.compared * 0.02);
      expect(t.values).toBeGreaterThan(t.compared * 0.25);
    },
    TIMEOUT_MS,
  );

  it("one batch through `stratumc eval --batch` agrees", () => {
    if (!existsSync(CLI)) execFileSync("node", ["scripts/build.mjs"], { cwd: ROOT });
    const cases = sampleCases(SEED ^ 0x5bd1e995, Math.min(BATCH, RUNS));
    const stdout = execFileSync("node", [CLI, "eval", "--batch", "-"], {
      cwd: ROOT,
      input: `${cases.map(oracleLine).join("\n")}\n`,
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
    });
    const cli = stdout
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Outcome);
    expect(cli.length).toBe(cases.length);
    const cpython = runOracle(cases);
    const t = newTally();
    cases.forEach((c, i) => {
      const ours = cli[i];
      const theirs = cpython[i];
      if (ours === undefined || theirs === undefined) throw new Error("answer missing");
      tallyOne(t, i, c, "repr" in ours ? { repr: ours.repr } : { error: ours.error }, theirs, []);
    });
    expect(t.findings, report("CLI batch", t)).toEqual([]);
  }, 120_000);
});
