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
function brief(s: ReceivedSpan): string {
  const a = s.attributes;
  const attempt = a["stratum.step.attempt"] === undefined ? "" : ` #${String(a["stratum.step.attempt"])}`;
  const status = a["stratum.flow.status"] ?? a["stratum.gate.outcome"] ?? a["stratum.step.status"] ?? "";
  return `${s.name}${attempt} ${String(status)}`;
}

/**
 * An indented tree (as spanTree writes it) with each span's children sorted by their text: the
 * structure without the start order. Over real clocks a span's start is its end minus a measured
 * duration, and on a VM the wall and monotonic clocks drift apart by milliseconds, so siblings
 * started a few milliseconds apart can come out in either order; tests with a fixed clock
 * (tracer.test.ts) check the order itself.
 */
export function siblingsSorted(tree: readonly string[]): string[] {
  interface Node {
    readonly line: string;
    readonly children: Node[];
  }
  const root: Node = { line: "", children: [] };
  const stack: { depth: number; node: Node }[] = [{ depth: -1, node: root }];
  for (const line of tree) {
    const depth = (line.length - line.trimStart().length) / 2;
    while (stack.length > 1 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const node: Node = { line, children: [] };
    stack[stack.length - 1]!.node.children.push(node);
    stack.push({ depth, node });
  }
  const out: string[] = [];
  const walk = (node: Node) => {
    for (const child of [...node.children].sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0))) {
      out.push(child.line);
      walk(child);
    }
  };
  walk(root);
  return out;
}
