// The received spans as an indented tree (children in start order), for readable expectations.
import type { ReceivedSpan } from "./otlp-receiver";

export function spanTree(
  spans: readonly ReceivedSpan[],
  describe: (s: ReceivedSpan) => string = brief,
): string[] {
  const byParent = new Map<string, ReceivedSpan[]>();
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) {
    const parent = ids.has(s.parentSpanId) ? s.parentSpanId : "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    const children = [...(byParent.get(parent) ?? [])].sort((a, b) =>
      a.startNs === b.startNs ? (a.endNs < b.endNs ? -1 : 1) : a.startNs < b.startNs ? -1 : 1,
    );
    for (const s of children) {
      lines.push(`${"  ".repeat(depth)}${describe(s)}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk("", 0);
  return lines;
}

/** Name, attempt and status of a span. */
export function brief(s: ReceivedSpan): string {
  const a = s.attributes;
  const attempt = a["stratum.step.attempt"] === undefined ? "" : ` #${String(a["stratum.step.attempt"])}`;
  const status = a["stratum.flow.status"] ?? a["stratum.gate.outcome"] ?? a["stratum.step.status"] ?? "";
  return `${s.name}${attempt} ${String(status)}`;
}
