// The expression AST (docs/reference/language.md §10.3). Every node carries exact source offsets into the
// expression text: `start` is the offset of its first character, `end` the offset just after its
// last (UTF-16 code-unit offsets, as JS strings index; conversion to code-point columns happens
// where locations are presented). Nodes are plain immutable data.
import type { PyFloat, PyInt } from "../stdlib/values/value";

export interface Span {
  readonly start: number;
  readonly end: number;
}

export type ConstantValue = null | boolean | PyInt | PyFloat | string;

/** A literal: number, string (adjacent literals already concatenated), True/False/None. */
export interface Constant extends Span {
  readonly kind: "Constant";
  readonly value: ConstantValue;
}

export interface Name extends Span {
  readonly kind: "Name";
  readonly id: string;
}

/** One `.SEG` of a `$` path, with its own span. */
export interface PathSegment extends Span {
  readonly name: string;
}

/**
 * A `$` path (docs/reference/language.md §10.5). `ref` is null when the text is malformed (SPEC-REF-MALFORMED, reported by
 * the checker; a malformed path evaluates to None).
 * - `$.input.n.a.b`        → { scope: "input", name: n, fields: [a, b] }
 * - `$.steps.s.output.a`   → { scope: "steps", name: s, fields: [a] } (`output` is implied)
 */
export interface Path extends Span {
  readonly kind: "Path";
  readonly text: string;
  readonly ref: PathRef | null;
}

export interface PathRef {
  readonly scope: "input" | "steps";
  readonly name: PathSegment;
  readonly fields: readonly PathSegment[];
}

export interface Attribute extends Span {
  readonly kind: "Attribute";
  readonly value: Expr;
  readonly attr: string;
  readonly attrSpan: Span;
}

export interface Slice extends Span {
  readonly kind: "Slice";
  readonly lower: Expr | null;
  readonly upper: Expr | null;
  readonly step: Expr | null;
}

export interface Subscript extends Span {
  readonly kind: "Subscript";
  readonly value: Expr;
  readonly index: Expr | Slice;
}

export interface Keyword extends Span {
  readonly name: string;
  readonly nameSpan: Span;
  readonly value: Expr;
}

export interface Call extends Span {
  readonly kind: "Call";
  readonly func: Expr;
  readonly args: readonly Expr[];
  readonly keywords: readonly Keyword[];
}

type UnaryOperator = "not" | "-" | "+";

export interface UnaryOp extends Span {
  readonly kind: "UnaryOp";
  readonly op: UnaryOperator;
  readonly operand: Expr;
}

export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%";

export interface BinOp extends Span {
  readonly kind: "BinOp";
  readonly op: BinaryOperator;
  readonly opSpan: Span;
  readonly left: Expr;
  readonly right: Expr;
}

/** `a and b and c` is one node with three values (flat: no recursion proportional to length). */
export interface BoolOp extends Span {
  readonly kind: "BoolOp";
  readonly op: "and" | "or";
  readonly values: readonly Expr[];
}

export type CompareOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in" | "is" | "is not";

/** `a < b <= c`: left = a, ops = [<, <=], comparators = [b, c]. */
export interface Compare extends Span {
  readonly kind: "Compare";
  readonly left: Expr;
  readonly ops: readonly { readonly op: CompareOperator; readonly span: Span }[];
  readonly comparators: readonly Expr[];
}

/** `body if test else orelse` */
export interface IfExp extends Span {
  readonly kind: "IfExp";
  readonly test: Expr;
  readonly body: Expr;
  readonly orelse: Expr;
}

export interface List extends Span {
  readonly kind: "List";
  readonly elts: readonly Expr[];
}

export interface Tuple extends Span {
  readonly kind: "Tuple";
  readonly elts: readonly Expr[];
}

export interface Dict extends Span {
  readonly kind: "Dict";
  readonly keys: readonly Expr[];
  readonly values: readonly Expr[];
}

/** A `for` target: a name, or a parenthesised / bracketed / bare list of targets. */
export type Target = Name | TargetList;

interface TargetList extends Span {
  readonly kind: "TargetList";
  readonly elts: readonly Target[];
}

/** One `for target in iter if cond…` clause. */
export interface Comprehension extends Span {
  readonly target: Target;
  readonly iter: Expr;
  readonly ifs: readonly Expr[];
}

export interface ListComp extends Span {
  readonly kind: "ListComp";
  readonly elt: Expr;
  readonly generators: readonly Comprehension[];
}

export interface GeneratorExp extends Span {
  readonly kind: "GeneratorExp";
  readonly elt: Expr;
  readonly generators: readonly Comprehension[];
}

/** A hole left by error recovery. Never present in an AST whose parse had no diagnostics. */
export interface ErrorNode extends Span {
  readonly kind: "Error";
}

export type Expr =
  | Constant
  | Name
  | Path
  | Attribute
  | Subscript
  | Call
  | UnaryOp
  | BinOp
  | BoolOp
  | Compare
  | IfExp
  | List
  | Tuple
  | Dict
  | ListComp
  | GeneratorExp
  | ErrorNode;
