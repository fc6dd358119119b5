// Grammar rules for comprehension clauses and their `for` targets (docs/reference/language.md §10.3). Extended
// by parser-atoms.ts and parser.ts, which define the expression rules used here.
import type { IToken, ParserMethod } from "chevrotain";
import type { Comprehension, Expr, Target } from "./ast";
import { nameNode } from "./nodes";
import { ParserBase } from "./parser-base";
import * as T from "./tokens";

export type Rule<R, A extends unknown[] = []> = ParserMethod<A, R>;

interface TargetSeq {
  readonly elts: Target[];
  readonly end: number;
  readonly single: boolean;
}

export abstract class ComprehensionParser extends ParserBase {
  protected abstract readonly orTest: Rule<Expr>;

  /** One or more `for targets in or_test (if or_test)*` clauses. */
  protected readonly comprehension: Rule<Comprehension[]> = this.RULE("comprehension", () => {
    const generators: Comprehension[] = [];
    this.AT_LEAST_ONE(() => {
      const forTok = this.CONSUME(T.For);
      const seq = this.SUBRULE(this.targets);
      this.CONSUME(T.In);
      const iter = this.SUBRULE(this.orTest);
      const ifs: Expr[] = [];
      this.MANY(() => {
        this.CONSUME(T.If);
        const cond = this.SUBRULE2(this.orTest);
        this.ACTION(() => ifs.push(cond));
      });
      this.ACTION(() => {
        const first = seq.elts[0];
        const target: Target =
          seq.single && first !== undefined
            ? first
            : { kind: "TargetList", elts: seq.elts, start: first?.start ?? forTok.startOffset, end: seq.end };
        const lastIf = ifs[ifs.length - 1];
        const end = Math.max(lastIf === undefined ? 0 : this.outerEnd(lastIf), this.outerEnd(iter));
        generators.push({ target, iter, ifs, start: forTok.startOffset, end });
      });
    });
    return generators;
  });

  /** `target {, target} [,]` */
  private readonly targets: Rule<TargetSeq> = this.RULE(
    "targets",
    () => {
      const elts: Target[] = [];
      let trailing = null as IToken | null;
      const first = this.SUBRULE(this.target);
      this.ACTION(() => elts.push(first));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        const next = this.SUBRULE2(this.target);
        this.ACTION(() => elts.push(next));
      });
      this.OPTION(() => {
        trailing = this.CONSUME2(T.Comma);
      });
      return this.ACTION((): TargetSeq => {
        const end = trailing === null ? elts[elts.length - 1]!.end : this.endOf(trailing);
        return { elts, end, single: elts.length === 1 && trailing === null };
      });
    },
    {
      recoveryValueFunc: (e) => ({
        elts: [this.errorTarget(e.token)],
        end: this.endOf(e.token),
        single: true,
      }),
    },
  );

  private readonly target: Rule<Target> = this.RULE(
    "target",
    () =>
      this.OR([
        {
          ALT: () => {
            const tok = this.CONSUME(T.Name);
            return this.ACTION(() => nameNode(tok));
          },
        },
        {
          ALT: () => {
            const open = this.CONSUME(T.LParen);
            const saved = this.enter(open);
            try {
              const seq = this.SUBRULE(this.targets);
              const close = this.CONSUME(T.RParen);
              return this.ACTION(() => this.bracketedTarget(open, seq, close));
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
              const seq = this.SUBRULE2(this.targets);
              const close = this.CONSUME(T.RBracket);
              return this.ACTION(() => this.bracketedTarget(open, seq, close));
            } finally {
              this.depth = saved;
            }
          },
        },
      ]),
    { recoveryValueFunc: (e) => this.errorTarget(e.token) },
  );

  private bracketedTarget(open: IToken, seq: TargetSeq, close: IToken): Target {
    const first = seq.elts[0];
    // `(x)` is just x; `[x]` unpacks a one-element iterable, like `(x,)`.
    if (open.image === "(" && seq.single && first !== undefined) return first;
    return {
      kind: "TargetList",
      elts: seq.elts,
      start: open.startOffset,
      end: this.closeEnd(close, seq.end),
    };
  }

  /** Targets have no hole kind: a recovered target is a name that cannot occur in source text. */
  private errorTarget(tok: IToken): Target {
    const start = Number.isNaN(tok.startOffset) ? this.textLength : tok.startOffset;
    return { kind: "Name", id: "", start, end: Number.isNaN(tok.startOffset) ? start : this.endOf(tok) };
  }
}
