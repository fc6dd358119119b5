// Helpers for the YAML front-end tests: load a text, walk to a node, locate ranges.

import type { SourceRange } from "../../../checker/base/source-range";
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import type { ScalarNode, SpecNode } from "../../../checker/yaml/nodes";
import { LoadedScalar } from "../../../checker/yaml/spec-nodes";
import { compareLoads } from "./fast-path-support";

/** Every fixture of the YAML tests is also a differential case of the fast path (cst-build.ts). */
function assertFastPathAgrees(text: string): void {
  // The ~10 MB robustness spec would take tens of seconds to describe character by character.
  if (text.length > 100_000) return;
  const { fast, composer } = compareLoads(text);
  const a = JSON.stringify([fast.tree, fast.diagnostics, fast.ok], replacer);
  const b = JSON.stringify([composer.tree, composer.diagnostics, composer.ok], replacer);
  if (a !== b) throw new Error(`the YAML fast path differs from the composer on ${JSON.stringify(text)}`);
}

function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? `${value}n` : value;
}

export interface Loaded {
  readonly src: SpecSource;
  readonly root: SpecNode;
  readonly ok: boolean;
  readonly diagnostics: readonly SpecDiagnostic[];
}

export function load(text: string): Loaded {
  assertFastPathAgrees(text);
  const src = new SpecSource(text);
  const sink = new DiagnosticSink();
  const { root, ok } = loadYaml(src, sink);
  return { src, root, ok, diagnostics: sink.diagnostics };
}

/** Follows map keys and sequence indices. */
export function nodeAt(root: SpecNode, ...path: (string | number)[]): SpecNode {
  let node = root;
  for (const step of path) {
    if (typeof step === "number" && node.kind === "seq") {
      const item = node.items[step];
      if (item === undefined) throw new Error(`no item ${step}`);
      node = item;
    } else if (typeof step === "string" && node.kind === "map") {
      const entry = node.get(step);
      if (entry === undefined) throw new Error(`no key ${step}`);
      node = entry.value;
    } else throw new Error(`cannot follow ${String(step)} in a ${node.kind}`);
  }
  return node;
}

export function scalarAt(root: SpecNode, ...path: (string | number)[]): ScalarNode {
  const node = nodeAt(root, ...path);
  if (node.kind !== "scalar") throw new Error(`not a scalar: ${node.kind}`);
  return node;
}

/** `line:column-endLine:endColumn` of a range (1-based, code points). */
export function where(src: SpecSource, range: SourceRange): string {
  const l = src.lines.location(range.start, range.end);
  return `${l.line}:${l.column}-${l.endLine}:${l.endColumn}`;
}

/** `line:column` of each loaded character's source position. */
export function charPositions(src: SpecSource, scalar: ScalarNode, length: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    const p = src.lines.position(scalar.mapRange(i, i + 1).start);
    out.push(`${p.line}:${p.column}`);
  }
  return out;
}

/** True when the scalar's position map was built without the safety-net fallback. */
export function exactMap(scalar: ScalarNode): boolean {
  return scalar instanceof LoadedScalar && scalar.positions().exact;
}

/** Compact form of diagnostics: `CODE line:col-line:col message`. */
export function brief(l: Loaded): string[] {
  return l.diagnostics.map((d) => `${d.code} ${where(l.src, d.range)} ${d.message}`);
}
