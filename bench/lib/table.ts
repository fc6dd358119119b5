// The benchmark's result table: metric, median, baseline, ratio, target and PASS/FAIL.

export interface Row {
  readonly metric: string;
  readonly median: number;
  readonly baseline: number | null;
  /** ours / baseline (lower is better). */
  readonly ratio: number | null;
  /** Upper bound for the median, when the metric has one. */
  readonly target: number | null;
  /** Upper bound for the ratio, when the metric's target is relative to its baseline. */
  readonly targetRatio?: number;
}

function num(x: number | null): string {
  if (x === null || Number.isNaN(x)) return "-";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
}

export function rowStatus(r: Row): "PASS" | "FAIL" | "" {
  if (r.targetRatio !== undefined) return r.ratio !== null && r.ratio <= r.targetRatio ? "PASS" : "FAIL";
  if (r.target !== null) return r.median <= r.target ? "PASS" : "FAIL";
  return "";
}

export function printTable(rows: readonly Row[]): string {
  const header = ["metric", "median", "baseline", "ratio", "target", "status"];
  const body = rows.map((r) => [
    r.metric,
    num(r.median),
    num(r.baseline),
    r.ratio === null || Number.isNaN(r.ratio) ? "-" : `${r.ratio.toFixed(2)}x`,
    r.targetRatio !== undefined ? `≤ ${r.targetRatio}x` : r.target === null ? "-" : `≤ ${r.target}`,
    rowStatus(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    `${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")}\n`;
  return line(header) + line(widths.map((w) => "-".repeat(w))) + body.map(line).join("");
}
