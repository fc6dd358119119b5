import { present } from "../../../checker/check-spec";
import type { Diagnostic } from "../../../checker/diagnostic";
import { checkStructure } from "../../../checker/model/check-structure";
import type { SpecModel, StepDecl } from "../../../checker/model/types";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { checkSpecExpressions } from "../../../checker/spec-expr/index";
import type { ExpressionTable } from "../../../checker/spec-expr/types";
import { loadYaml } from "../../../checker/yaml/load";

export interface PhaseRun {
  readonly source: SpecSource;
  readonly model: SpecModel;
  readonly table: ExpressionTable;
  readonly diagnostics: readonly Diagnostic[];
}

export function runPhase(yaml: string): PhaseRun {
  const source = new SpecSource(yaml);
  const earlier = new DiagnosticSink();
  const loaded = loadYaml(source, earlier);
  if (!loaded.ok) throw new Error(`YAML errors: ${earlier.diagnostics.map((d) => d.message).join("; ")}`);
  const model = checkStructure(source, loaded.root, earlier);
  if (model === null) throw new Error("no model");
  const sink = new DiagnosticSink();
  const table = checkSpecExpressions(model, sink);
  return { source, model, table, diagnostics: present(source, sink.diagnostics) };
}

/** The diagnostics of the phase. */
export function diagnose(yaml: string): readonly Diagnostic[] {
  return runPhase(yaml).diagnostics;
}

export interface Loc {
  readonly line: number;
  readonly column: number;
  readonly end_line: number;
  readonly end_column: number;
}

/**
 * The location of the `occurrence`-th match of `needle` in a text (1-based lines, code-point
 * columns, half-open end): an oracle independent of the scalar mapping, for literal spans.
 */
export function loc(text: string, needle: string, occurrence = 0): Loc {
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' #${occurrence} not in the text`);
  }
  return span(text, at, at + needle.length);
}

/** The location of the last `needle` inside the first match of `context` (for short needles). */
export function locAt(text: string, context: string, needle: string): Loc {
  const at = text.indexOf(context);
  const inner = context.lastIndexOf(needle);
  if (at < 0 || inner < 0) throw new Error(`'${needle}' in '${context}' not in the text`);
  return span(text, at + inner, at + inner + needle.length);
}

/** 1-based line and code-point column of UTF-16 offsets (half-open end). */
function span(text: string, start: number, end: number): Loc {
  const pos = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
    return { line, column };
  };
  const s = pos(start);
  const e = pos(end);
  return { line: s.line, column: s.column, end_line: e.line, end_column: e.column };
}

export function stepOf(model: SpecModel, flow: string, id: string): StepDecl {
  const step = model.flowByName.get(flow)?.stepById.get(id);
  if (step === undefined) throw new Error(`no step ${flow}.${id}`);
  return step;
}

/** Applies a diagnostic's fix to the text (edits in document order, non-overlapping). */
export function applyFix(text: string, d: Diagnostic): string {
  const lines = text.split("\n");
  const offset = (line: number, column: number) =>
    lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) +
    [...(lines[line - 1] ?? "")].slice(0, column - 1).join("").length;
  let out = text;
  for (const e of [...(d.fix?.edits ?? [])].reverse()) {
    out = out.slice(0, offset(e.line, e.column)) + e.new_text + out.slice(offset(e.end_line, e.end_column));
  }
  return out;
}
