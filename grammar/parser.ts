// The expression grammar (docs/reference/language.md §10.3, docs/reference/language.md §10.4) as a Chevrotain parser with embedded actions
// that build the AST of ast.ts directly. Operator chains are parsed by precedence with explicit
// stacks (operator-chain.ts) and trailers by a loop, so no recursion grows with the length of a
// chain; every recursive form passes through `enter`, which stops at the nesting limit.
import type { IOrAlt, IToken } from "chevrotain";
import type { Expr, Slice } from "./ast";
import { MAX_EXPRESSION_DEPTH } from "./diagnostics";
import { OperatorChain } from "./operator-chain";
import { AtomParser, type CallTail, type Rule } from "./parser-atoms";
import { TooDeepError } from "./parser-base";
import * as T from "./tokens";

/** One trailer, as parsed; applied to the value by `primary`'s loop. */
type Trailer =
  | { readonly kind: "attr"; readonly name: IToken }
  | { readonly kind: "call"; readonly open: IToken; readonly tail: CallTail }
  | { readonly kind: "sub"; readonly open: IToken; readonly index: Expr | Slice; readonly close: IToken };

export class ExprParser extends AtomParser {
  constructor() {
    super();
    this.performSelfAnalysis();
  }

  /** `or_test ["if" or_test "else" expression]` */
  override readonly expression: Rule<Expr> = this.RULE(
    "expression",
    () => {
      const body = this.SUBRULE(this.orTest);
      let result = body;
      this.OPTION(() => {
        const ifTok = this.CONSUME(T.If);
        const saved = this.enter(ifTok);
        try {
          const test = this.SUBRULE2(this.orTest);
          this.CONSUME(T.Else);
          const orelse = this.SUBRULE(this.expression);
          result = this.ACTION(
            (): Expr => ({
              kind: "IfExp",
              test,
              body,
              orelse,
              start: this.outerStart(body),
              end: this.outerEnd(orelse),
            }),
          );
        } finally {
          this.depth = saved;
        }
      });
      return result;
    },
    this.recoverExpr,
  );

  /** `[prefixes] primary { binary_op [prefixes] primary }`: everything but the conditional. */
  protected override readonly orTest: Rule<Expr> = this.RULE(
    "orTest",
    () => {
      const base = this.depth;
      let chain = null as OperatorChain | null;
      // Each prefix still open is one nesting level around the operands that follow it.
      const pushPrefix = (tok: IToken): void => {
        chain ??= new OperatorChain(this.reportFn, this);
        chain.prefix(tok);
        this.depth = base + chain.openPrefixes;
        if (this.depth > MAX_EXPRESSION_DEPTH) throw new TooDeepError(this.startOf(tok), this.endOf(tok));
      };
      try {
        this.MANY(() => {
          const tok = this.CONSUME(T.PrefixOperator);
          this.ACTION(() => pushPrefix(tok));
        });
        const first = this.SUBRULE(this.primary);
        this.ACTION(() => chain?.operand(first));
        this.MANY2(() => {
          const op = this.CONSUME(T.BinaryOperator);
          this.ACTION(() => {
            if (chain === null) {
              chain = new OperatorChain(this.reportFn, this);
              chain.operand(first);
            }
            chain.binary(op);
            this.depth = base + chain.openPrefixes;
          });
          this.MANY3(() => {
            const tok = this.CONSUME2(T.PrefixOperator);
            this.ACTION(() => pushPrefix(tok));
          });
          const next = this.SUBRULE2(this.primary);
          this.ACTION(() => chain?.operand(next));
        });
        return this.ACTION(() => (chain === null ? first : chain.finish()));
      } finally {
        this.depth = base;
      }
    },
    this.recoverExpr,
  );

  private readonly trailerAlternatives: IOrAlt<Trailer>[] = [
    {
      ALT: () => {
        this.CONSUME(T.Dot);
        const name = this.CONSUME2(T.Name);
        return { kind: "attr", name };
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LParen);
        const saved = this.enter(open);
        try {
          const tail = this.SUBRULE(this.callArguments);
          return { kind: "call", open, tail };
        } finally {
          this.depth = saved;
        }
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LBracket);
        const saved = this.enter(open);
        try {
          const index = this.SUBRULE(this.subscript);
          const close = this.CONSUME(T.RBracket);
          return { kind: "sub", open, index, close };
        } finally {
          this.depth = saved;
        }
      },
    },
  ];

  /** `atom { trailer }`; a chain of calls and subscripts nests one level per trailer. */
  private readonly primary: Rule<Expr> = this.RULE(
    "primary",
    () => {
      let value = this.OR(this.atomAlternatives);
      const base = this.depth;
      let nesting = 0;
      this.MANY(() => {
        const trailer = this.OR2(this.trailerAlternatives);
        this.ACTION(() => {
          if (trailer.kind !== "attr") {
            nesting++;
            if (base + nesting > MAX_EXPRESSION_DEPTH) {
              throw new TooDeepError(this.startOf(trailer.open), this.endOf(trailer.open));
            }
          }
          value = this.applyTrailer(value, trailer);
        });
      });
      return value;
    },
    this.recoverExpr,
  );

  private applyTrailer(value: Expr, trailer: Trailer): Expr {
    const start = this.outerStart(value);
    switch (trailer.kind) {
      case "attr": {
        const name = trailer.name;
        const attrSpan = { start: this.startOf(name), end: this.endOf(name) };
        return {
          kind: "Attribute",
          value,
          attr: name.image,
          attrSpan,
          start,
          end: Math.max(attrSpan.end, value.end),
        };
      }
      case "call": {
        const { tail, open } = trailer;
        const { args, keywords } = tail;
        const lastArg = keywords.length > 0 ? keywords[keywords.length - 1] : args[args.length - 1];
        const last =
          lastArg === undefined ? this.endOf(open) : "kind" in lastArg ? this.outerEnd(lastArg) : lastArg.end;
        const end = this.closeEnd(tail.close, last);
        return { kind: "Call", func: value, args: tail.args, keywords: tail.keywords, start, end };
      }
      case "sub":
        return {
          kind: "Subscript",
          value,
          index: trailer.index,
          start,
          end: this.closeEnd(trailer.close, this.outerEnd(trailer.index)),
        };
    }
  }
}
