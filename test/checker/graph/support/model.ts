// How the graph tests get a SpecModel (the real YAML loader and structure phase) and see
// diagnostics in the public form (1-based lines, code-point columns), so that tests assert full
// ranges.

import type { SourceRange } from "../../../../checker/base/source-range";
import type { SpecDiagnostic } from "../../../../checker/diagnostic";
import { analyseFlow } from "../../../../checker/graph/analysis";
import type { FlowGraph } from "../../../../checker/graph/types";
import { checkStructure } from "../../../../checker/model/check-structure";
import type { FlowDecl, SpecModel } from "../../../../checker/model/types";
import { DiagnosticSink } from "../../../../checker/report";
import type { SemanticRule } from "../../../../checker/rules/types";
import { SpecSource } from "../../../../checker/source";
import { loadYaml } from "../../../../checker/yaml/load";

/** The model of `text` through the real YAML loader and structure phase. */
export function specModel(text: string): SpecModel {
  const source = new SpecSource(text);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(source, sink);
  if (!loaded.ok) throw new Error(`YAML errors: ${sink.diagnostics.map((d) => d.message).join("; ")}`);
  const model = checkStructure(source, loaded.root, sink);
  if (model === null) throw new Error("the structure phase gave no model");
  return model;
}

export function flowOf(model: SpecModel, name: string): FlowDecl {
  const flow = model.flowByName.get(name);
  if (flow === undefined) throw new Error(`no flow '${name}'`);
  return flow;
}

export function graphOf(text: string, flow = "f"): { model: SpecModel; flow: FlowDecl; graph: FlowGraph } {
  const model = specModel(text);
  const f = flowOf(model, flow);
  return { model, flow: f, graph: analyseFlow(f).graph };
}

export interface Located {
  readonly line: number;
  readonly column: number;
  readonly end_line: number;
  readonly end_column: number;
}

export interface Shown extends Located {
  readonly code: string;
  readonly severity: string;
  readonly path: string;
  readonly message: string;
  readonly suggestion?: string;
  readonly related?: readonly (Located & { readonly message: string; readonly path: string })[];
  readonly fix?: {
    readonly description: string;
    readonly edits: readonly (Located & { readonly new_text: string })[];
  };
}

export function at(source: SpecSource, range: SourceRange): Located {
  const l = source.lines.location(range.start, range.end);
  return { line: l.line, column: l.column, end_line: l.endLine, end_column: l.endColumn };
}

function show(source: SpecSource, d: SpecDiagnostic): Shown {
  return {
    code: d.code,
    severity: d.severity,
    path: d.path,
    message: d.message,
    ...at(source, d.range),
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
    ...(d.related !== undefined
      ? { related: d.related.map((r) => ({ message: r.message, path: r.path, ...at(source, r.range) })) }
      : {}),
    ...(d.fix !== undefined
      ? {
          fix: {
            description: d.fix.description,
            edits: d.fix.edits.map((e) => ({ ...at(source, e.range), new_text: e.newText })),
          },
        }
      : {}),
  };
}

/** Runs `rules` over the model of `text`; diagnostics in report order. */
export function runRules(text: string, rules: readonly SemanticRule[]): Shown[] {
  const model = specModel(text);
  const sink = new DiagnosticSink();
  for (const rule of rules) rule.check(model, sink);
  return sink.diagnostics.map((d) => show(model.source, d));
}
