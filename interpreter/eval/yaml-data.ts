// YAML text → Python data as PyYAML's safe_load gives it, for the builtins that read a YAML file
// (vocabulary_compliance): the checker's YAML front end (PyYAML's YAML 1.1 typing), keys kept as
// the values they load as (`1:` is the int 1, `on:` True), an empty document None.
import { DiagnosticSink } from "../../checker/report";
import { SpecSource } from "../../checker/source";
import { loadYaml } from "../../checker/yaml/load";
import type { SpecNode } from "../../checker/yaml/nodes";
import { YamlTimestamp } from "../../checker/yaml/nodes";
import { PY_SPACE } from "../../checker/yaml/python-space";
import type { YamlData } from "../../stdlib/builtins/env";
import { makeDict } from "../../stdlib/values/dict";
import type { PyValue } from "../../stdlib/values/value";

const BLANK = new RegExp(`^${PY_SPACE}*$`);

/** A collection used as a mapping key: PyYAML refuses it ("found unhashable key"). */
class UnhashableKey extends Error {}

function toValue(node: SpecNode): PyValue {
  switch (node.kind) {
    case "scalar":
      return node.value instanceof YamlTimestamp ? node.value.text : node.value;
    case "seq":
      return node.items.map(toValue);
    case "map":
      return makeDict(
        node.entries.map((e) => {
          if (e.key.kind !== "scalar") throw new UnhashableKey();
          return [e.name ?? toValue(e.key), toValue(e.value)] as const;
        }),
      );
  }
}

export function loadYamlData(text: string): YamlData {
  if (BLANK.test(text)) return { ok: true, value: null };
  const sink = new DiagnosticSink();
  const loaded = loadYaml(new SpecSource(text), sink);
  if (!loaded.ok) {
    const first = sink.diagnostics.find((d) => d.severity === "error");
    return { ok: false, message: first?.message ?? "cannot load the YAML document" };
  }
  try {
    return { ok: true, value: toValue(loaded.root) };
  } catch (e) {
    if (e instanceof UnhashableKey) return { ok: false, message: "found unhashable key" };
    throw e;
  }
}
