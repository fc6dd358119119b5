// When a guardrail provably blocks every result of a step (docs/reference/runtime.md §25.1): the
// result is searched as Python's `json.dumps(result, sort_keys=True)` text, where every key of an
// object is written `"key": `. A step's contract makes each required field a key of every result
// that can pass, so a pattern that is plain text (no regex syntax at all, so it matches exactly
// its own characters) inside `"field": ` of a required field matches every such result. Nothing
// else is claimed: a pattern with any regex syntax, or one a result could avoid, proves nothing.
import type { ContractIR } from "../../checker/index";

/** A Python regex character with a meaning of its own (escapes, classes, groups, anchors, repeats). */
const REGEX_SYNTAX = /[.^$*+?{}[\]\\|()]/;
/** Field names JSON writes as they are (no escape, even with ensure_ascii). */
const PLAIN_KEY = /^[A-Za-z0-9_ -]+$/;

export interface BlocksAll {
  /** The required field whose key holds the pattern. */
  readonly field: string;
  /** That key as the result's JSON text holds it. */
  readonly held: string;
}

/** The required field of `contract` whose JSON key text holds `pattern`, if one does. */
export function blocksEveryResult(pattern: string, contract: ContractIR | null): BlocksAll | null {
  if (contract === null || pattern === "" || REGEX_SYNTAX.test(pattern)) return null;
  for (const [name, def] of contract.fields) {
    if (!def.required || !PLAIN_KEY.test(name)) continue;
    const held = `"${name}": `;
    if (held.includes(pattern)) return { field: name, held };
  }
  return null;
}
