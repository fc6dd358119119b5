// Operator-precedence parsing of one chain `[prefixes] operand (op [prefixes] operand)*` (levels
// 2–8 of docs/reference/language.md §10.4), with explicit stacks: no recursion, whatever the length of the chain. Unparenthesised
// `and`/`or` chains become one flat BoolOp and comparison chains one flat Compare, as in Python.
import type { IToken } from "chevrotain";
import type { BinaryOperator, CompareOperator, Expr, Span } from "./ast";
import type { CompareStep } from "./nodes";

type Kind = "or" | "and" | "compare" | "arith" | "unsupported";

interface OperatorInfo {
  readonly prec: number;
  readonly kind: Kind;
}

/** Binding strength of binary operators, by token text (the `not in`/`is not` images vary). */
const BINARY: Readonly<Record<string, OperatorInfo>> = {
  or: { prec: 1, kind: "or" },
  and: { prec: 2, kind: "and" },
  "==": { prec: 4, kind: "compare" },
  "!=": { prec: 4, kind: "compare" },
  "<": { prec: 4, kind: "compare" },
  "<=": { prec: 4, kind: "compare" },
  ">": { prec: 4, kind: "compare" },
  ">=": { prec: 4, kind: "compare" },
  "<>": { prec: 4, kind: "compare" },
  in: { prec: 4, kind: "compare" },
  is: { prec: 4, kind: "compare" },
  "+": { prec: 5, kind: "arith" },
  "-": { prec: 5, kind: "arith" },
  "*": { prec: 6, kind: "arith" },
  "/": { prec: 6, kind: "arith" },
  "//": { prec: 6, kind: "arith" },
  "%": { prec: 6, kind: "arith" },
};
const COMPARE_LEVEL: OperatorInfo = { prec: 4, kind: "compare" };
const UNSUPPORTED_LEVEL: OperatorInfo = { prec: 6, kind: "unsupported" };
const NOT_PREC = 3;
const SIGN_PREC = 7;

function operatorInfo(image: string): OperatorInfo {
  const info = BINARY[image];
  if (info !== undefined) return info;
  // `not in` / `is not` with any whitespace between the words.
  return /^(not|is)\W/.test(image) ? COMPARE_LEVEL : UNSUPPORTED_LEVEL;
}

function compareOperator(image: string): CompareOperator {
  if (image === "<>") return "!=";
  if (image.startsWith("not")) return "not in";
  if (image.startsWith("is") && image.length > 2) return "is not";
  return image as CompareOperator;
}

/** An operand on the stack; chains built here keep their arrays so that they can grow. */
interface Operand {
  node: Expr;
  readonly chain: "or" | "and" | "compare" | null;
  readonly values: Expr[] | null;
  readonly steps: CompareStep[] | null;
}

interface Pending {
  readonly tok: IToken;
  readonly info: OperatorInfo;
  readonly prefix: boolean;
}

function spanOf(tok: IToken): Span {
  return { start: tok.startOffset, end: tok.startOffset + tok.image.length };
}

function plain(node: Expr): Operand {
  return { node, chain: null, values: null, steps: null };
}

export type Report = (detail: string, start: number, end: number) => void;

/** Spans of operands including any parentheses written around them. */
export interface OuterSpans {
  outerStart(e: Expr): number;
  outerEnd(e: Expr): number;
}

export class OperatorChain {
  private readonly operands: Operand[] = [];
  private readonly pending: Pending[] = [];
  /** Prefix operators still waiting for their operand: each is one nesting level. */
  private prefixes = 0;
  /** What came last: null at the start, else the last operator pushed. */
  private last: Pending | null = null;

  constructor(
    private readonly report: Report,
    private readonly outer: OuterSpans,
  ) {}

  get openPrefixes(): number {
    return this.prefixes;
  }

  /** `not`, `-`, `+`, `~` in front of an operand. */
  prefix(tok: IToken): void {
    const image = tok.image;
    if (image === "not") {
      // `not` binds looser than comparisons and arithmetic: `a == not b`, `-not a` are errors.
      const prev = this.last;
      if (
        prev !== null &&
        !(prev.info.kind === "or" || prev.info.kind === "and" || prev.tok.image === "not")
      ) {
        this.report("unexpected 'not'", tok.startOffset, tok.startOffset + 3);
      }
    } else if (image === "~") {
      this.report("'~' is not supported", tok.startOffset, tok.startOffset + 1);
    }
    const info: OperatorInfo = { prec: image === "not" ? NOT_PREC : SIGN_PREC, kind: "arith" };
    const p: Pending = { tok, info, prefix: true };
    this.pending.push(p);
    this.last = p;
    this.prefixes++;
  }

  operand(node: Expr): void {
    this.operands.push(plain(node));
  }

  binary(tok: IToken): void {
    const info = operatorInfo(tok.image);
    if (info.kind === "unsupported" || tok.image === "<>") {
      this.report(`'${tok.image}' is not supported`, tok.startOffset, tok.startOffset + tok.image.length);
    }
    this.reduceWhile(info.prec);
    const p: Pending = { tok, info, prefix: false };
    this.pending.push(p);
    this.last = p;
  }

  finish(): Expr {
    this.reduceWhile(0);
    return this.operands[0]!.node;
  }

  private reduceWhile(prec: number): void {
    for (
      let top = this.pending[this.pending.length - 1];
      top !== undefined && top.info.prec >= prec;
      top = this.pending[this.pending.length - 1]
    ) {
      this.pending.pop();
      if (top.prefix) this.reducePrefix(top.tok);
      else this.reduceBinary(top);
    }
  }

  private reducePrefix(tok: IToken): void {
    this.prefixes--;
    const operand = this.operands.pop()!;
    const start = tok.startOffset;
    const end = Math.max(this.outer.outerEnd(operand.node), start + tok.image.length);
    const image = tok.image;
    const node: Expr =
      image === "~"
        ? { kind: "Error", start, end }
        : {
            kind: "UnaryOp",
            op: image === "not" ? "not" : image === "-" ? "-" : "+",
            operand: operand.node,
            start,
            end,
          };
    this.operands.push(plain(node));
  }

  private reduceBinary(op: Pending): void {
    const right = this.operands.pop()!.node;
    const left = this.operands.pop()!;
    const start = this.outer.outerStart(left.node);
    const end = Math.max(this.outer.outerEnd(right), this.outer.outerEnd(left.node));
    const kind = op.info.kind;
    if (kind === "or" || kind === "and") {
      if (left.chain === kind) {
        left.values!.push(right);
        left.node = { kind: "BoolOp", op: kind, values: left.values!, start, end };
        this.operands.push(left);
        return;
      }
      const values = [left.node, right];
      this.operands.push({
        node: { kind: "BoolOp", op: kind, values, start, end },
        chain: kind,
        values,
        steps: null,
      });
      return;
    }
    if (kind === "compare") {
      const step: CompareStep = { op: compareOperator(op.tok.image), span: spanOf(op.tok) };
      if (left.chain === "compare") {
        left.values!.push(right);
        left.steps!.push(step);
        const node = left.node;
        if (node.kind === "Compare") {
          left.node = {
            kind: "Compare",
            left: node.left,
            ops: left.steps!,
            comparators: left.values!,
            start,
            end,
          };
        }
        this.operands.push(left);
        return;
      }
      const comparators = [right];
      const steps = [step];
      const node: Expr = { kind: "Compare", left: left.node, ops: steps, comparators, start, end };
      this.operands.push({ node, chain: "compare", values: comparators, steps });
      return;
    }
    if (kind === "unsupported") {
      this.operands.push(plain({ kind: "Error", start, end }));
      return;
    }
    const node: Expr = {
      kind: "BinOp",
      op: op.tok.image as BinaryOperator,
      opSpan: spanOf(op.tok),
      left: left.node,
      right,
      start,
      end,
    };
    this.operands.push(plain(node));
  }
}
