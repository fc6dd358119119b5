// The benchmark's result table: metric, median, baseline, ratio, target and PASS/MISS.

export interface Row {
  readonly metric: string;
  readonly median: number;
  readonly baseline: number | null;
  /** ours / baseline (lower is better). */
  readonly ratio: number | null;
  /** Upper bound for the median, when the metric has one. */
  readonly target: number | null;
}

function num(x: number | null): string {
  if (x === null || Number.isNaN(x)) return "-";
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3);
}

export function printTable(rows: readonly Row[]): string {
  const header = ["metric", "median", "baseline", "ratio", "target", "status"];
  const body = rows.map((r) => [
    r.metric,
    num(r.median),
    num(r.baseline),
    r.ratio === null || Number.isNaN(r.ratio) ? "-" : `${r.ratio.toFixed(2)}x`,
    r.target === null ? "-" : `≤ ${r.target}`,
    r.target === null ? "" : r.median <= r.target ? "PASS" : "MISS",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    `${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")}\n`;
  return line(header) + line(widths.map((w) => "-".repeat(w))) + body.map(line).join("");
}
