// Grammar rules for the insides of trailers: call arguments and subscripts/slices
// (docs/reference/language.md §10.3). Extended by parser-atoms.ts and parser.ts.
import type { IOrAlt, IToken } from "chevrotain";
import type { Comprehension, Expr, GeneratorExp, Slice } from "./ast";
import { type Argument, ArgumentCollector, type CallArguments } from "./call-args";
import { tokenSpan } from "./nodes";
import { ComprehensionParser, type Rule } from "./parser-comprehension";
import * as T from "./tokens";

export interface CallTail extends CallArguments {
  readonly close: IToken;
}

export function generatorExp(
  elt: Expr,
  generators: Comprehension[],
  start: number,
  end: number,
): GeneratorExp {
  return { kind: "GeneratorExp", elt, generators, start, end };
}

export function lastEnd(generators: readonly Comprehension[], fallback: number): number {
  return generators[generators.length - 1]?.end ?? fallback;
}

export abstract class TrailerParser extends ComprehensionParser {
  abstract readonly expression: Rule<Expr>;

  protected readonly reportFn = (detail: string, start: number, end: number): void =>
    this.report(detail, start, end);
  protected readonly recoverExpr = { recoveryValueFunc: this.errorNode.bind(this) };

  /** Everything after a call's `(`, up to and including its `)`. */
  protected readonly callArguments: Rule<CallTail> = this.RULE(
    "callArguments",
    () => {
      const collector = this.ACTION(() => new ArgumentCollector(this.reportFn));
      this.OPTION(() => {
        const first = this.SUBRULE(this.argument);
        this.ACTION(() => collector.add(first));
        this.MANY(() => {
          this.CONSUME(T.Comma);
          const next = this.SUBRULE2(this.argument);
          this.ACTION(() => collector.add(next));
        });
        this.OPTION2(() => {
          this.CONSUME2(T.Comma);
          this.ACTION(() => collector.comma());
        });
      });
      const close = this.CONSUME(T.RParen);
      return this.ACTION((): CallTail => {
        const { args, keywords } = collector.finish();
        return { args, keywords, close };
      });
    },
    { recoveryValueFunc: (e) => ({ args: [], keywords: [], close: e.token }) },
  );

  private readonly argumentAlternatives: IOrAlt<Argument>[] = [
    {
      // `name=value` (told apart from a positional name by the second token)
      ALT: () => {
        const name = this.CONSUME(T.Name);
        this.CONSUME(T.Assign);
        const value = this.SUBRULE(this.expression);
        return this.ACTION((): Argument => {
          const nameSpan = tokenSpan(name);
          return {
            kind: "keyword",
            keyword: { name: name.image, nameSpan, value, start: nameSpan.start, end: this.outerEnd(value) },
          };
        });
      },
    },
    {
      ALT: () => {
        const star = this.OR2(this.starAlternatives);
        const value = this.SUBRULE2(this.expression);
        return this.ACTION(
          (): Argument => ({ kind: "star", start: star.startOffset, end: this.outerEnd(value) }),
        );
      },
    },
    {
      ALT: () => {
        const value = this.SUBRULE3(this.expression);
        let generators = null as Comprehension[] | null;
        this.OPTION(() => {
          generators = this.SUBRULE(this.comprehension);
        });
        return this.ACTION((): Argument => {
          if (generators === null) return { kind: "positional", value, generator: false };
          const gen = generatorExp(
            value,
            generators,
            this.outerStart(value),
            lastEnd(generators, this.outerEnd(value)),
          );
          return { kind: "positional", value: gen, generator: true };
        });
      },
    },
  ];

  private readonly starAlternatives: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME(T.Star) },
    { ALT: () => this.CONSUME(T.Power) },
  ];

  /** One argument; a hole when recovered from an error. */
  private readonly argument: Rule<Argument> = this.RULE(
    "argument",
    () => this.OR(this.argumentAlternatives),
    {
      recoveryValueFunc: (e): Argument => ({ kind: "hole", value: this.errorNode(e) }),
    },
  );

  protected readonly subscript: Rule<Expr | Slice> = this.RULE(
    "subscript",
    () =>
      this.OR([
        {
          ALT: () => {
            const lower = this.SUBRULE(this.expression);
            let result: Expr | Slice = lower;
            this.OPTION(() => {
              result = this.SUBRULE(this.sliceRest, { ARGS: [lower] });
            });
            return result;
          },
        },
        { ALT: () => this.SUBRULE2(this.sliceRest, { ARGS: [null] }) },
      ]),
    this.recoverExpr,
  );

  /** From the first `:` of a slice to its end. */
  private readonly sliceRest: Rule<Slice, [Expr | null]> = this.RULE("sliceRest", (lower: Expr | null) => {
    const colon = this.CONSUME(T.Colon);
    let upper = null as Expr | null;
    let step = null as Expr | null;
    let colon2 = null as IToken | null;
    this.OPTION(() => {
      upper = this.SUBRULE(this.expression);
    });
    this.OPTION2(() => {
      colon2 = this.CONSUME2(T.Colon);
      this.OPTION3(() => {
        step = this.SUBRULE2(this.expression);
      });
    });
    return this.ACTION((): Slice => {
      const start = lower === null ? this.startOf(colon) : this.outerStart(lower);
      const end = Math.max(
        this.endOf(colon),
        colon2 ? this.endOf(colon2) : 0,
        upper === null ? 0 : this.outerEnd(upper),
        step === null ? 0 : this.outerEnd(step),
      );
      return { kind: "Slice", lower, upper, step, start, end };
    });
  });
}
