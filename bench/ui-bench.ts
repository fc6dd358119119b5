// `stratumc ui`: the weight of its page (HTML, script and style sheet as served, and
// gzipped, as a browser on a slow link would fetch them), and the time from starting the built
// `stratumc ui --port 0` to its printed address, against `node -e 0`, interleaved runs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { startUi } from "./lib/ui-server";

const RUNS = 11;
const TOKEN = "bench-token-0123456789abcdef";

export async function benchUi(repoDir: string): Promise<Row[]> {
  const home = mkdtempSync(join(tmpdir(), "stratumc-ui-bench-"));
  try {
    const starts: number[] = [];
    const baseline: number[] = [];
    let weight = { bytes: 0, gzip: 0 };
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" });
      baseline.push(performance.now() - t0);
      const run = await startAndMeasure(repoDir, home, i === 0);
      starts.push(run.ms);
      if (run.weight !== null) weight = run.weight;
    }
    const startMs = median(starts);
    const nodeMs = median(baseline);
    return [
      {
        metric: "ui page weight KB (html + js + css as served)",
        median: weight.bytes / 1024,
        baseline: null,
        ratio: null,
        target: null,
      },
      {
        metric: "ui page weight KB, gzipped",
        median: weight.gzip / 1024,
        baseline: null,
        ratio: null,
        target: null,
      },
      {
        metric: "ui ms from start to the printed address (baseline: node -e 0)",
        median: startMs,
        baseline: nodeMs,
        ratio: startMs / nodeMs,
        target: null,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function startAndMeasure(
  repoDir: string,
  home: string,
  fetchPage: boolean,
): Promise<{ ms: number; weight: { bytes: number; gzip: number } | null }> {
  const t0 = performance.now();
  const ui = await startUi(repoDir, home, ["--token", TOKEN]);
  try {
    const ms = performance.now() - t0;
    if (!fetchPage) return { ms, weight: null };
    const origin = ui.origin;
    let bytes = 0;
    let gzip = 0;
    for (const path of ["/", "/app.js", "/app.css"]) {
      const r = await fetch(origin + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
      if (r.status !== 200) throw new Error(`ui bench: ${path} answered ${r.status}`);
      const body = Buffer.from(await r.arrayBuffer());
      bytes += body.length;
      gzip += gzipSync(body, { level: 6 }).length;
    }
    return { ms, weight: { bytes, gzip } };
  } finally {
    await ui.stop();
  }
}
