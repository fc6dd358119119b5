// Runs the real loader and the structure phase on a YAML text and presents the diagnostics with
// full located ranges (1-based lines, code-point columns), for table tests.

import type { SourceRange } from "../../../checker/base/source-range";
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { checkStructure } from "../../../checker/model/check-structure";
import type { SpecModel } from "../../../checker/model/types";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";

export interface Shown {
  readonly code: string;
  readonly path: string;
  readonly message: string;
  readonly suggestion?: string;
  /** `line:column-end_line:end_column`. */
  readonly at: string;
  readonly fix?: readonly { readonly at: string; readonly text: string }[];
}

export interface StructureRun {
  readonly src: SpecSource;
  readonly model: SpecModel | null;
  readonly raw: readonly SpecDiagnostic[];
  readonly shown: readonly Shown[];
  /** False when the YAML did not load (structure phase not run). */
  readonly loaded: boolean;
}

function at(src: SpecSource, range: SourceRange): string {
  const l = src.lines.location(range.start, range.end);
  return `${l.line}:${l.column}-${l.endLine}:${l.endColumn}`;
}

export function show(src: SpecSource, d: SpecDiagnostic): Shown {
  return {
    code: d.code,
    path: d.path,
    message: d.message,
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
    at: at(src, d.range),
    ...(d.fix !== undefined
      ? { fix: d.fix.edits.map((e) => ({ at: at(src, e.range), text: e.newText })) }
      : {}),
  };
}

/** loadYaml + checkStructure; structure diagnostics only (YAML warnings are dropped). */
export function runStructure(text: string): StructureRun {
  const src = new SpecSource(text);
  const yamlSink = new DiagnosticSink();
  const loaded = loadYaml(src, yamlSink);
  const sink = new DiagnosticSink();
  const model = loaded.ok ? checkStructure(src, loaded.root, sink) : null;
  const raw = sink.diagnostics;
  return { src, model, raw, shown: raw.map((d) => show(src, d)), loaded: loaded.ok };
}

/** Joins lines into a YAML text (keeps table tests readable). */
export function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}
