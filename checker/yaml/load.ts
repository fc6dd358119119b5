// STUB (owned by the YAML front-end work): see /tmp/tasks/yaml.md.
import type { Reporter } from "../report";
import type { SpecSource } from "../source";
import type { SpecNode } from "./nodes";

export interface LoadedYaml {
  /** The document root; a document that loads as null is an empty mapping. */
  readonly root: SpecNode;
  /** False when an error-severity YAML diagnostic was reported (later phases do not run). */
  readonly ok: boolean;
}

export function loadYaml(_src: SpecSource, _reporter: Reporter): LoadedYaml {
  throw new Error("loadYaml: not implemented yet");
}
