// Shared helpers of the incremental checker's tests: the example specs, a plain picture of a YAML
// tree (everything later phases can read of it: kinds, ranges, values, styles, tags, entries,
// item starts, and the position of every loaded character), and what the editor services answer.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckResult } from "../../../checker/check-spec";
import {
  completionsAt,
  definitionAt,
  documentSymbols,
  foldingRanges,
  hoverAt,
  referencesAt,
  semanticTokens,
  signatureHelpAt,
} from "../../../checker/services/index";
import type { SpecNode } from "../../../checker/yaml/nodes";

const ROOT = join(import.meta.dirname, "../../..");

/** Every example spec, the broken ones included: [name, text]. */
export function exampleSpecs(): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of ["examples", "examples/broken"]) {
    for (const f of readdirSync(join(ROOT, dir)).sort()) {
      if (f.endsWith(".stratum.yaml")) out.push([`${dir}/${f}`, readFileSync(join(ROOT, dir, f), "utf8")]);
    }
  }
  return out;
}

export function benchFixture(): string {
  return readFileSync(join(ROOT, "bench/fixtures/typical.stratum.yaml"), "utf8");
}

/** A plain picture of a tree; a scalar's `at` lists the source range of each loaded character. */
export function treeShape(node: SpecNode): unknown {
  const range = [node.range.start, node.range.end];
  if (node.kind === "scalar") {
    const value = node.value;
    const length = typeof value === "string" ? value.length : 0;
    const at: number[][] = [];
    for (let i = 0; i <= length; i++) {
      const r = node.mapRange(i, Math.min(i + 1, length));
      at.push([r.start, r.end]);
    }
    const shown = typeof value === "bigint" ? `${value}n` : value;
    return { scalar: shown, style: node.style, tag: node.tag, range, at };
  }
  if (node.kind === "map") {
    const names = node.entries.map((e) => e.name);
    const lookups = names.map((n) => (n === null ? null : node.get(n) === undefined ? "missing" : "found"));
    return {
      map: node.entries.map((e) => [e.name, treeShape(e.key), treeShape(e.value)]),
      flow: node.flow,
      range,
      lookups,
    };
  }
  return { seq: node.items.map(treeShape), flow: node.flow, range, starts: [...node.itemStarts] };
}

/** The public part of a check result. */
export function checkShape(r: CheckResult): unknown {
  return { valid: r.valid, diagnostics: r.diagnostics, errors: r.errors, warnings: r.warnings };
}

/** What the editor services answer on a document at some offsets, and for the whole document. */
export function servicesShape(text: string, check: CheckResult, offsets: readonly number[]): unknown {
  const doc = { text, check };
  return {
    symbols: documentSymbols(doc),
    folding: foldingRanges(doc),
    tokens: semanticTokens(doc),
    at: offsets.map((o) => ({
      hover: hoverAt(doc, o),
      completions: completionsAt(doc, o),
      definition: definitionAt(doc, o),
      references: referencesAt(doc, o, true),
      signature: signatureHelpAt(doc, o),
    })),
  };
}

/** The text with `[start, end)` replaced. */
export function applyEdit(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}
