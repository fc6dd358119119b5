// A YAML text as plain JS data with PyYAML's typing (the checker's YAML front end): what the
// reference's clients see when they load a compile_speckit document. The yaml package's own 1.1
// mode differs from PyYAML (`y` / `n` are booleans there), so it is not used for this.
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { type SpecNode, type YamlScalar, YamlTimestamp } from "../../../checker/yaml/nodes";
import { PyFloat } from "../../../stdlib/values/value";

function scalarToPlain(v: YamlScalar): unknown {
  if (v instanceof PyFloat) return v.v;
  if (v instanceof YamlTimestamp) return v.text;
  return v;
}

function toPlain(node: SpecNode): unknown {
  switch (node.kind) {
    case "scalar":
      return scalarToPlain(node.value);
    case "seq":
      return node.items.map(toPlain);
    case "map": {
      const out: Record<string, unknown> = Object.create(null);
      for (const e of node.entries) out[e.name ?? `<key ${String(toPlain(e.key))}>`] = toPlain(e.value);
      return out;
    }
  }
}

/** The document, or the first YAML error's message. */
export function loadPlainYaml(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const sink = new DiagnosticSink();
  const loaded = loadYaml(new SpecSource(text), sink);
  if (!loaded.ok) return { ok: false, error: sink.diagnostics.map((d) => d.message).join("; ") };
  return { ok: true, value: toPlain(loaded.root) };
}
