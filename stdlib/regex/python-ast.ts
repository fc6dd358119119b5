// The syntax tree of a Python `re` pattern (python-parse.ts builds it, python-re2.ts turns it into
// RE2 source). It follows the opcodes of CPython's re._parser closely enough that the validity
// rules and error positions of Python 3.11 can be reproduced.

/** Python's inline flags that matter here: i (IGNORECASE), m (MULTILINE), s (DOTALL), x (VERBOSE), a (ASCII), u (UNICODE). */
export interface PyFlags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly x: boolean;
  readonly a: boolean;
}

/** A class escape: \d \D \s \S \w \W. */
export type PyCategory = "d" | "D" | "s" | "S" | "w" | "W";

export type PySetItem =
  | { readonly t: "lit"; readonly cp: number }
  | { readonly t: "range"; readonly lo: number; readonly hi: number }
  | { readonly t: "cat"; readonly cat: PyCategory }
  /** `\N{name}` inside a set (see the node of the same name). */
  | { readonly t: "named"; readonly name: string };

/** A zero-width position: ^ $ \A \Z \b \B. */
export type PyAt = "begin" | "end" | "A" | "Z" | "b" | "B";

/** A sequence of items (a SubPattern). */
export type PySeq = readonly PyNode[];

export type PyNode =
  | { readonly t: "lit"; readonly cp: number }
  | { readonly t: "set"; readonly negate: boolean; readonly items: readonly PySetItem[] }
  | { readonly t: "any" }
  | { readonly t: "at"; readonly at: PyAt }
  | {
      readonly t: "repeat";
      readonly min: number;
      readonly max: number | null;
      readonly mode: "greedy" | "lazy" | "possessive";
      readonly item: PySeq;
    }
  | {
      readonly t: "group";
      readonly capture: boolean;
      readonly add: Partial<PyFlags>;
      readonly del: Partial<PyFlags>;
      readonly body: PySeq;
    }
  | { readonly t: "branch"; readonly alts: readonly PySeq[] }
  | { readonly t: "atomic"; readonly body: PySeq }
  | { readonly t: "assert"; readonly behind: boolean; readonly negative: boolean; readonly body: PySeq }
  | { readonly t: "groupref"; readonly group: number }
  | { readonly t: "cond"; readonly group: number; readonly yes: PySeq; readonly no: PySeq | null }
  /** `\N{name}`: valid in Python when the name exists; we cannot look names up. */
  | { readonly t: "named"; readonly name: string };

/** A parsed pattern: the tree and the global flags (the caller's plus the leading inline ones). */
export interface PyPattern {
  readonly seq: PySeq;
  readonly flags: PyFlags;
}

/** Python's re.error: its message and position (counted in code points, as Python counts). */
export interface PyReError {
  readonly message: string;
  /** null for the errors Python raises without a position (the compiler's, the repeat overflow). */
  readonly position: number | null;
}
