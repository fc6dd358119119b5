// STUB (owned by the structure work): see /tmp/tasks/schema.md.
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import type { SpecSource } from "../source";
import type { SpecNode } from "../yaml/nodes";

/** Structure phase + model: null when nothing else may be checked (root not a mapping, bad version). */
export function checkStructure(_src: SpecSource, _root: SpecNode, _reporter: Reporter): SpecModel | null {
  throw new Error("checkStructure: not implemented yet");
}
