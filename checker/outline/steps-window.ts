// A window of one flow's steps read without checking the whole spec: what a page about a long flow
// shows first (`stratumc ui`, docs/guides/ui.md "Big flows"), while the whole check follows. Loading
// the YAML of a 10,000-step spec is most of its check (about a second); this loads only the text
// around the window: the spec with every step item of the flow outside the window cut out, through
// the same YAML loader and structure phase as checkSpec, so each step's kind, target and attempts
// are read as the check reads them. The items are found by a line scan that gives up (null) on
// anything it does not plainly understand; null, too, when the cut text does not load without an
// error. Nothing here says the spec is valid: the caller shows it as unchecked until the check.

import { stepRetries } from "../ir/build";
import { CHECKER_KINDS } from "../kinds/index";
import { checkStructure } from "../model/check-structure";
import type { StepKind } from "../model/types";
import { DiagnosticSink } from "../report";
import { SpecSource } from "../source";
import { loadYaml } from "../yaml/load";

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

export interface StepsOutline {
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
export function outlineSteps(
  text: string,
  flowName: string,
  offset: number | ((total: number) => number),
  limit: number,
): StepsOutline | null {
  if (UNPLAIN.test(text)) return null;
  const lines = new TextLines(text);
  const items = stepItems(lines, flowName);
  if (items === null) return null;
  const { starts, end } = items;
  if (typeof offset === "function") offset = offset(starts.length);
  const from = Math.max(0, Math.min(offset, starts.length));
  const to = Math.min(starts.length, from + Math.max(0, limit));
  // An empty window: nothing to read (a `steps:` cut to no item would not load as a list).
  if (from === to) return { total: starts.length, offset: from, steps: [] };
  const first = starts[0] ?? end;
  const cut = lines.join([
    [0, first],
    [starts[from] ?? end, to < starts.length ? (starts[to] ?? end) : end],
    [end, lines.count],
  ]);
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

/**
 * The lines of a text as `text.split("\n")` gives them, without making a string per line: the scan
 * passes over every line of a 30,000-line spec a few times and is most of this module's time on a
 * fresh process, so each line's indentation (-1: blank or only a comment) is measured once, from
 * offsets into the text.
 */
class TextLines {
  /** Where each line starts, and (last) the text's length + 1: line i is text[starts[i], starts[i + 1] - 1). */
  private readonly starts: Int32Array;
  /** Each line's count of leading spaces, or -1 for a line that is not content. */
  private readonly indents: Int32Array;
  readonly count: number;

  constructor(private readonly text: string) {
    let count = 1;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
    this.count = count;
    this.starts = new Int32Array(count + 1);
    this.indents = new Int32Array(count);
    let start = 0;
    for (let i = 0; i < count; i++) {
      const next = i + 1 < count ? text.indexOf("\n", start) : text.length;
      this.starts[i] = start;
      this.indents[i] = contentIndent(text, start, next);
      start = next + 1;
    }
    this.starts[count] = text.length + 1;
  }

  line(i: number): string {
    return this.text.slice(this.starts[i], (this.starts[i + 1] ?? 0) - 1);
  }

  /** The line's indentation when it is content, else -1. */
  indent(i: number): number {
    return this.indents[i] ?? -1;
  }

  /** The character code at column `column` of line `i` (NaN past its end). */
  charAt(i: number, column: number): number {
    const at = (this.starts[i] ?? 0) + column;
    return at < (this.starts[i + 1] ?? 0) - 1 ? this.text.charCodeAt(at) : Number.NaN;
  }

  /** Lines `lo` … `hi` of each range, joined by newlines as `lines.slice(lo, hi)` spread and joined would be. */
  join(ranges: readonly (readonly [number, number])[]): string {
    const parts: string[] = [];
    for (const [lo, hi] of ranges)
      if (lo < hi) parts.push(this.text.slice(this.starts[lo], (this.starts[hi] ?? 0) - 1));
    return parts.join("\n");
  }
}

/** The count of leading spaces of text[start, end) when it is content (neither blank nor only a comment), else -1. */
function contentIndent(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === 32) i++;
  if (i === end) return -1;
  const c = text.charCodeAt(i);
  return c === 35 || (c === 13 && i + 1 === end) ? -1 : i - start;
}

/** `<indent>key:` with nothing after but a comment. */
function keyLine(line: string, key: string): boolean {
  const rest = line.trimStart();
  if (!rest.startsWith(`${key}:`)) return false;
  const after = rest.slice(key.length + 1).trim();
  return after === "" || after.startsWith("#");
}

/** The index of the first content line at or after `from` whose indentation is at most `indent`, else `lines.count`. */
function blockEnd(lines: TextLines, from: number, indent: number): number {
  for (let i = from; i < lines.count; i++) {
    const at = lines.indent(i);
    if (at !== -1 && at <= indent) return i;
  }
  return lines.count;
}

/** The one line in `from` … `to` at indentation `indent` that is `key:`, else null. */
function onlyKey(lines: TextLines, from: number, to: number, indent: number, key: string): number | null {
  let found: number | null = null;
  for (let i = from; i < to; i++) {
    if (lines.indent(i) !== indent || !keyLine(lines.line(i), key)) continue;
    if (found !== null) return null;
    found = i;
  }
  return found;
}

/** The first content line in `from` … `to`, else null. */
function firstContent(lines: TextLines, from: number, to: number): number | null {
  for (let i = from; i < to; i++) if (lines.indent(i) !== -1) return i;
  return null;
}

/**
 * The line of each item of `flows: <flowName>: steps:` (block style, keys written plainly) and
 * the line after the last; null when the text is not of that plain shape.
 */
function stepItems(
  lines: TextLines,
  flowName: string,
): { readonly starts: number[]; readonly end: number } | null {
  const flows = onlyKey(lines, 0, lines.count, 0, "flows");
  if (flows === null) return null;
  const flowsEnd = blockEnd(lines, flows + 1, 0);
  const firstFlow = firstContent(lines, flows + 1, flowsEnd);
  if (firstFlow === null) return null;
  const flowIndent = lines.indent(firstFlow);
  const flow = onlyKey(lines, flows + 1, flowsEnd, flowIndent, flowName);
  if (flow === null || flowIndent === 0) return null;
  const flowEnd = blockEnd(lines, flow + 1, flowIndent);
  const firstKey = firstContent(lines, flow + 1, flowEnd);
  if (firstKey === null) return null;
  const keyIndent = lines.indent(firstKey);
  const steps = onlyKey(lines, flow + 1, flowEnd, keyIndent, "steps");
  if (steps === null || keyIndent <= flowIndent) return null;
  const firstItem = firstContent(lines, steps + 1, flowEnd);
  if (firstItem === null) return null;
  const itemIndent = lines.indent(firstItem);
  if (itemIndent < keyIndent || !isItem(lines, firstItem, itemIndent)) return null;
  const starts: number[] = [];
  let end = flowEnd;
  for (let i = firstItem; i < flowEnd; i++) {
    const indent = lines.indent(i);
    if (indent === -1 || indent > itemIndent) continue;
    if (indent === itemIndent && isItem(lines, i, itemIndent)) {
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
function isItem(lines: TextLines, i: number, indent: number): boolean {
  const next = lines.charAt(i, indent + 1);
  return lines.charAt(i, indent) === 45 && (Number.isNaN(next) || next === 32);
}
