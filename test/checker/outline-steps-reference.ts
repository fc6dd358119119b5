// The outline scan as it was first written, over `text.split("\n")`: the reference that
// checker/outline/steps-window.ts (which scans offsets into the text instead) must agree with.
import { stepRetries } from "../../checker/ir/build";
import { CHECKER_KINDS } from "../../checker/kinds/index";
import { checkStructure } from "../../checker/model/check-structure";
import type { StepKind } from "../../checker/model/types";
import { DiagnosticSink } from "../../checker/report";
import { SpecSource } from "../../checker/source";
import { loadYaml } from "../../checker/yaml/load";

interface OutlinedStep {
  readonly id: string;
  readonly kind: StepKind;
  /** A function or gate step's function, else null (as StepIR.function). */
  readonly function: string | null;
  /** A sub-flow step's flow, else null (as StepIR.flow). */
  readonly flow: string | null;
  /** As StepIR.retries. */
  readonly retries: number;
  /** 1-based line of the step in the whole spec. */
  readonly line: number;
}

interface StepsOutline {
  /** How many step items the flow's `steps` has. */
  readonly total: number;
  readonly offset: number;
  /** Steps `offset` … `offset + limit` (fewer at the end). */
  readonly steps: readonly OutlinedStep[];
}

/**
 * Steps `offset` … `offset + limit` of flow `flowName` of `text` (`offset` may be chosen from the
 * number of steps); null when the text is not plain enough to cut.
 */
export function outlineStepsByLines(
  text: string,
  flowName: string,
  offset: number | ((total: number) => number),
  limit: number,
): StepsOutline | null {
  if (UNPLAIN.test(text)) return null;
  const lines = text.split("\n");
  const items = stepItems(lines, flowName);
  if (items === null) return null;
  const { starts, end } = items;
  if (typeof offset === "function") offset = offset(starts.length);
  const from = Math.max(0, Math.min(offset, starts.length));
  const to = Math.min(starts.length, from + Math.max(0, limit));
  // An empty window: nothing to read (a `steps:` cut to no item would not load as a list).
  if (from === to) return { total: starts.length, offset: from, steps: [] };
  const first = starts[0] ?? end;
  const kept = lines.slice(starts[from], to < starts.length ? starts[to] : end);
  const cut = [...lines.slice(0, first), ...kept, ...lines.slice(end)].join("\n");
  const source = new SpecSource(cut);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(source, sink);
  const model = loaded.ok ? checkStructure(source, loaded.root, sink) : null;
  if (model === null || sink.diagnostics.some((d) => d.severity === "error")) return null;
  const flow = model.flowByName.get(flowName);
  if (flow === undefined || flow.steps.length !== to - from) return null;
  const steps: OutlinedStep[] = [];
  for (const step of flow.steps) {
    if (step.id === null || step.kind === null) return null;
    steps.push({
      id: step.id,
      kind: step.kind,
      function: step.string("function")?.value || null,
      flow: step.string("flow")?.value || null,
      retries: stepRetries(step, CHECKER_KINDS[step.kind].retries),
      line: (starts[from + step.index] ?? 0) + 1,
    });
  }
  return { total: starts.length, offset: from, steps };
}

/** A line the scan does not follow: a tab in the indentation, a document marker or a directive. */
const UNPLAIN = /^(?: *\t|---|\.\.\.|%)/m;

// Character tests, not regular expressions or trims: the scan passes over every line of a
// 30,000-line spec a few times, and is most of this module's time on a fresh process.
function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** Neither blank nor only a comment. */
function isContent(line: string): boolean {
  const i = indentOf(line);
  const c = line.charCodeAt(i);
  return !(Number.isNaN(c) || c === 35 || (c === 13 && i + 1 === line.length));
}

/** `<indent>key:` with nothing after but a comment. */
function keyLine(line: string, key: string): boolean {
  const rest = line.trimStart();
  if (!rest.startsWith(`${key}:`)) return false;
  const after = rest.slice(key.length + 1).trim();
  return after === "" || after.startsWith("#");
}

/** The index of the first content line at or after `from` whose indentation is at most `indent`, else `lines.length`. */
function blockEnd(lines: readonly string[], from: number, indent: number): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (isContent(line) && indentOf(line) <= indent) return i;
  }
  return lines.length;
}

/** The one line in `from` … `to` at indentation `indent` that is `key:`, else null. */
function onlyKey(
  lines: readonly string[],
  from: number,
  to: number,
  indent: number,
  key: string,
): number | null {
  let found: number | null = null;
  for (let i = from; i < to; i++) {
    const line = lines[i] ?? "";
    if (!isContent(line) || indentOf(line) !== indent) continue;
    if (!keyLine(line, key)) continue;
    if (found !== null) return null;
    found = i;
  }
  return found;
}

/** The first content line in `from` … `to`, else null. */
function firstContent(lines: readonly string[], from: number, to: number): number | null {
  for (let i = from; i < to; i++) if (isContent(lines[i] ?? "")) return i;
  return null;
}

/**
 * The line of each item of `flows: <flowName>: steps:` (block style, keys written plainly) and
 * the line after the last; null when the text is not of that plain shape.
 */
function stepItems(
  lines: readonly string[],
  flowName: string,
): { readonly starts: number[]; readonly end: number } | null {
  const flows = onlyKey(lines, 0, lines.length, 0, "flows");
  if (flows === null) return null;
  const flowsEnd = blockEnd(lines, flows + 1, 0);
  const firstFlow = firstContent(lines, flows + 1, flowsEnd);
  if (firstFlow === null) return null;
  const flowIndent = indentOf(lines[firstFlow] ?? "");
  const flow = onlyKey(lines, flows + 1, flowsEnd, flowIndent, flowName);
  if (flow === null || flowIndent === 0) return null;
  const flowEnd = blockEnd(lines, flow + 1, flowIndent);
  const firstKey = firstContent(lines, flow + 1, flowEnd);
  if (firstKey === null) return null;
  const keyIndent = indentOf(lines[firstKey] ?? "");
  const steps = onlyKey(lines, flow + 1, flowEnd, keyIndent, "steps");
  if (steps === null || keyIndent <= flowIndent) return null;
  const firstItem = firstContent(lines, steps + 1, flowEnd);
  if (firstItem === null) return null;
  const itemIndent = indentOf(lines[firstItem] ?? "");
  if (itemIndent < keyIndent || !isItem(lines[firstItem] ?? "", itemIndent)) return null;
  const starts: number[] = [];
  let end = flowEnd;
  for (let i = firstItem; i < flowEnd; i++) {
    const line = lines[i] ?? "";
    if (!isContent(line)) continue;
    const indent = indentOf(line);
    if (indent > itemIndent) continue;
    if (indent === itemIndent && isItem(line, itemIndent)) {
      starts.push(i);
      continue;
    }
    end = i;
    break;
  }
  // Comments and blank lines between the last item and what follows stay with the last item.
  return { starts, end };
}

/** `- …` or a lone `-` at `indent`. */
function isItem(line: string, indent: number): boolean {
  const c = line.charAt(indent);
  const next = line.charAt(indent + 1);
  return c === "-" && (next === "" || next === " ");
}
