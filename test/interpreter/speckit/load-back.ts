// Loads YAML text the way the checker does (yaml package, PyYAML 1.1 typing) into plain user data,
// for comparing emitted documents by content. Warnings (duplicate keys) are returned as errors too:
// an emitted document must not have any.
import { DiagnosticSink } from "../../../checker/report";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { nodeToValue } from "../../../interpreter/workspace/node-value";

export interface Loaded {
  readonly value: unknown;
  readonly problems: readonly string[];
}

export function loadBack(text: string): Loaded {
  const sink = new DiagnosticSink();
  const loaded = loadYaml(new SpecSource(text), sink);
  return {
    value: wireToPlain(nodeToValue(loaded.root)),
    problems: sink.diagnostics.map((d) => `${d.code}: ${d.message}`),
  };
}
