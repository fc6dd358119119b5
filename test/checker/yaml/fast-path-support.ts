// The differential harness of the YAML fast path (checker/yaml/cst-build.ts): a text loaded both
// ways — fast path allowed, and always through the composer — and each result described as plain
// data (every node's kind, range, value, style, tag, entries, items, item starts, the source range
// of every loaded character, shared nodes), so that `toEqual` compares all of it.
import type { SpecDiagnostic } from "../../../checker/diagnostic";
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { type LoadPath, loadYaml } from "../../../checker/yaml/load";
import { type SpecNode, YamlTimestamp } from "../../../checker/yaml/nodes";
import { LoadedScalar } from "../../../checker/yaml/spec-nodes";
import { PyFloat } from "../../../stdlib/values/value";

export interface LoadOutcome {
  readonly path: LoadPath | null;
  readonly ok: boolean;
  readonly tree: unknown;
  readonly diagnostics: readonly SpecDiagnostic[];
}

export function loadWith(text: string, fastPath: boolean, releaseCst = false): LoadOutcome {
  const sink = new DiagnosticSink();
  let path: LoadPath | null = null;
  const { root, ok } = loadYaml(new SpecSource(text), sink, {
    fastPath,
    releaseCst,
    onPath: (p) => (path = p),
  });
  return { path, ok, tree: describeTree(root), diagnostics: sink.diagnostics };
}

/**
 * The loads to compare: the fast path allowed (keeping the CST, as for small texts), with
 * `withRelease` the fast path freeing the CST as it goes (as for big texts: a decline then parses
 * again for the composer), and always the composer.
 */
export function compareLoads(
  text: string,
  withRelease = false,
): {
  fast: LoadOutcome;
  released: LoadOutcome | null;
  composer: LoadOutcome;
} {
  return {
    fast: loadWith(text, true),
    released: withRelease ? loadWith(text, true, true) : null,
    composer: loadWith(text, false),
  };
}

function describeValue(value: unknown): unknown {
  if (value instanceof PyFloat) return { float: Object.is(value.v, -0) ? "-0" : String(value.v) };
  if (typeof value === "bigint") return { bigint: value.toString() };
  if (value instanceof YamlTimestamp) return { timestamp: value.text, repr: value.pythonRepr };
  return value;
}

function describeTree(root: SpecNode): unknown {
  const seen = new Map<SpecNode, number>();
  const visit = (node: SpecNode): unknown => {
    const id = seen.get(node);
    if (id !== undefined) return { shared: id };
    seen.set(node, seen.size);
    const range = [node.range.start, node.range.end];
    if (node.kind === "map") {
      return {
        kind: "map",
        range,
        flow: node.flow,
        entries: node.entries.map((e) => ({
          name: e.name,
          got: e.name === null ? null : node.get(e.name) === e,
          key: visit(e.key),
          value: visit(e.value),
        })),
      };
    }
    if (node.kind === "seq")
      return {
        kind: "seq",
        range,
        flow: node.flow,
        itemStarts: node.itemStarts,
        items: node.items.map(visit),
      };
    const loaded = node instanceof LoadedScalar ? node.origin() : null;
    const length = loaded?.loaded.length ?? 0;
    const map: number[] = [];
    for (let i = 0; i <= length; i++) {
      const one = node.mapRange(i, Math.min(i + 1, length));
      const empty = node.mapRange(i, i);
      map.push(one.start, one.end, empty.start);
    }
    const whole = node.mapRange(0, length);
    return {
      kind: "scalar",
      range,
      value: describeValue(node.value),
      style: node.style,
      tag: node.tag,
      textEnd: loaded?.textEnd,
      loaded: loaded?.loaded,
      block: loaded?.block?.offset,
      exact: node instanceof LoadedScalar ? node.positions().exact : null,
      whole: [whole.start, whole.end],
      map,
    };
  };
  return visit(root);
}
