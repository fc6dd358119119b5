// Grammar rules for atoms and displays: names, literals, paths, parenthesised forms, lists,
// dicts (docs/reference/language.md §10.3). The operator levels are in parser.ts, which extends this class.
import type { IOrAlt, IToken } from "chevrotain";
import type { Comprehension, Constant, Dict, Expr } from "./ast";
import type { StringPayload } from "./lex-string";
import { literalKeyword, nameNode, numberNode, pathNode, tokenSpan } from "./nodes";
import type { Rule } from "./parser-comprehension";
import { generatorExp, lastEnd, TrailerParser } from "./parser-trailers";
import * as T from "./tokens";

export type { Rule } from "./parser-comprehension";
export type { CallTail } from "./parser-trailers";

export abstract class AtomParser extends TrailerParser {
  /** The alternatives of an atom (shared, so that no array is allocated per operand). */
  protected readonly atomAlternatives: IOrAlt<Expr>[] = [
    {
      ALT: () => {
        const tok = this.CONSUME(T.Name);
        return this.ACTION(() => nameNode(tok));
      },
    },
    {
      ALT: () => {
        const tok = this.CONSUME(T.NumberLit);
        return this.ACTION(() => numberNode(tok));
      },
    },
    { ALT: () => this.SUBRULE(this.strings) },
    {
      ALT: () => {
        const tok = this.CONSUME(T.LiteralKeyword);
        return this.ACTION(() => literalKeyword(tok));
      },
    },
    {
      ALT: () => {
        const tok = this.CONSUME(T.DollarPath);
        return this.ACTION(() => pathNode(tok));
      },
    },
    {
      // A lone `$` or a reserved keyword: reported from the token list, a hole here.
      ALT: () => {
        const tok = this.CONSUME(T.LoneDollar);
        return this.ACTION((): Expr => ({ kind: "Error", ...tokenSpan(tok) }));
      },
    },
    {
      ALT: () => {
        const tok = this.CONSUME(T.ReservedKeyword);
        return this.ACTION((): Expr => ({ kind: "Error", ...tokenSpan(tok) }));
      },
    },
    { ALT: () => this.SUBRULE(this.parenForm) },
    { ALT: () => this.SUBRULE(this.listForm) },
    { ALT: () => this.SUBRULE(this.dictForm) },
  ];

  /** Adjacent string literals, concatenated into one constant. */
  private readonly strings: Rule<Expr> = this.RULE("strings", () => {
    const parts: IToken[] = [];
    this.AT_LEAST_ONE(() => {
      parts.push(this.CONSUME(T.StringLit));
    });
    return this.ACTION((): Expr => {
      const first = parts[0]!;
      const last = parts[parts.length - 1]!;
      const start = first.startOffset;
      const end = last.startOffset + last.image.length;
      let value = "";
      for (const part of parts) {
        const payload = part.payload as StringPayload;
        if (payload.error !== null) return { kind: "Error", start, end };
        value += payload.value;
      }
      const node: Constant = { kind: "Constant", value, start, end };
      return node;
    });
  });

  /** `()`, `(e)`, `(e,)`, `(e1, e2)`, `(e for …)`. */
  private readonly parenForm: Rule<Expr> = this.RULE("parenForm", () => {
    const open = this.CONSUME(T.LParen);
    const saved = this.enter(open);
    try {
      return this.OR([
        {
          ALT: () => {
            const close = this.CONSUME(T.RParen);
            return this.ACTION(
              (): Expr => ({ kind: "Tuple", elts: [], start: open.startOffset, end: this.endOf(close) }),
            );
          },
        },
        {
          ALT: () => {
            const first = this.SUBRULE(this.expression);
            return this.OR2([
              {
                ALT: () => {
                  const generators = this.SUBRULE(this.comprehension);
                  const close = this.CONSUME2(T.RParen);
                  return this.ACTION(() => {
                    const end = this.closeEnd(close, lastEnd(generators, this.outerEnd(first)));
                    return generatorExp(first, generators, open.startOffset, end);
                  });
                },
              },
              {
                ALT: () => {
                  const elts: Expr[] = [first];
                  let trailing = false;
                  this.MANY(() => {
                    this.CONSUME(T.Comma);
                    const next = this.SUBRULE2(this.expression);
                    this.ACTION(() => elts.push(next));
                  });
                  this.OPTION(() => {
                    this.CONSUME2(T.Comma);
                    trailing = true;
                  });
                  const close = this.CONSUME3(T.RParen);
                  return this.ACTION((): Expr => {
                    const end = this.closeEnd(close, this.outerEnd(elts[elts.length - 1]!));
                    if (elts.length > 1 || trailing)
                      return { kind: "Tuple", elts, start: open.startOffset, end };
                    this.markParenthesised(first, open, end);
                    return first;
                  });
                },
              },
            ]);
          },
        },
      ]);
    } finally {
      this.depth = saved;
    }
  });

  /** `[…]`: a list display or a list comprehension. */
  private readonly listForm: Rule<Expr> = this.RULE("listForm", () => {
    const open = this.CONSUME(T.LBracket);
    const saved = this.enter(open);
    try {
      const elts: Expr[] = [];
      let generators = null as Comprehension[] | null;
      this.OPTION(() => {
        const first = this.SUBRULE(this.expression);
        this.ACTION(() => elts.push(first));
        this.OR([
          {
            ALT: () => {
              generators = this.SUBRULE(this.comprehension);
            },
          },
          {
            ALT: () => {
              this.MANY(() => {
                this.CONSUME(T.Comma);
                const next = this.SUBRULE2(this.expression);
                this.ACTION(() => elts.push(next));
              });
              this.OPTION2(() => this.CONSUME2(T.Comma));
            },
          },
        ]);
      });
      const close = this.CONSUME(T.RBracket);
      return this.ACTION((): Expr => {
        const start = open.startOffset;
        const inner = generators === null ? (elts[elts.length - 1]?.end ?? 0) : lastEnd(generators, 0);
        const end = this.closeEnd(close, inner);
        if (generators === null) return { kind: "List", elts, start, end };
        return { kind: "ListComp", elt: elts[0]!, generators, start, end };
      });
    } finally {
      this.depth = saved;
    }
  });

  /** `{…}`: a dict display; set displays and dict/set comprehensions are parsed and rejected. */
  private readonly dictForm: Rule<Expr> = this.RULE("dictForm", () => {
    const open = this.CONSUME(T.LBrace);
    const saved = this.enter(open);
    try {
      const keys: Expr[] = [];
      const values: Expr[] = [];
      let rejected = null as string | null;
      this.OPTION(() => {
        const firstKey = this.SUBRULE(this.expression);
        this.ACTION(() => keys.push(firstKey));
        this.OR([
          {
            ALT: () => {
              this.CONSUME(T.Colon);
              const firstValue = this.SUBRULE2(this.expression);
              this.ACTION(() => values.push(firstValue));
              this.OR2([
                {
                  ALT: () => {
                    this.SUBRULE(this.comprehension);
                    rejected = "dict and set comprehensions are not supported";
                  },
                },
                {
                  ALT: () => {
                    this.MANY(() => {
                      this.CONSUME(T.Comma);
                      const key = this.SUBRULE3(this.expression);
                      this.CONSUME2(T.Colon);
                      const value = this.SUBRULE4(this.expression);
                      this.ACTION(() => {
                        keys.push(key);
                        values.push(value);
                      });
                    });
                    this.OPTION2(() => this.CONSUME2(T.Comma));
                  },
                },
              ]);
            },
          },
          {
            ALT: () => {
              this.SUBRULE2(this.comprehension);
              rejected = "dict and set comprehensions are not supported";
            },
          },
          {
            ALT: () => {
              this.MANY2(() => {
                this.CONSUME3(T.Comma);
                this.SUBRULE5(this.expression);
              });
              this.OPTION3(() => this.CONSUME4(T.Comma));
              rejected = "set displays are not supported";
            },
          },
        ]);
      });
      const close = this.CONSUME(T.RBrace);
      return this.ACTION((): Expr => {
        const start = open.startOffset;
        const end = this.closeEnd(
          close,
          Math.max(keys[keys.length - 1]?.end ?? 0, values[values.length - 1]?.end ?? 0),
        );
        if (rejected !== null) {
          this.report(rejected, start, end);
          return { kind: "Error", start, end };
        }
        const node: Dict = { kind: "Dict", keys, values, start, end };
        return node;
      });
    } finally {
      this.depth = saved;
    }
  });
}
