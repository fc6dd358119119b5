// Collects the arguments of one call and enforces the argument-shape rules of docs/reference/language.md §10.3 / docs/reference/language.md §9.5.5:
// keywords after positionals, no repeated keyword, a bare generator only as the sole argument.
import type { Expr, Keyword } from "./ast";

export interface CallArguments {
  readonly args: Expr[];
  readonly keywords: Keyword[];
}

/** One parsed argument. */
export type Argument =
  | { readonly kind: "positional"; readonly value: Expr; readonly generator: boolean }
  | { readonly kind: "keyword"; readonly keyword: Keyword }
  | { readonly kind: "star"; readonly start: number; readonly end: number }
  /** Left by error recovery (already reported). */
  | { readonly kind: "hole"; readonly value: Expr };

type Report = (detail: string, start: number, end: number) => void;

export class ArgumentCollector {
  readonly args: Expr[] = [];
  readonly keywords: Keyword[] = [];
  private generator: Expr | null = null;
  private trailingComma = false;
  private count = 0;

  constructor(private readonly report: Report) {}

  add(arg: Argument): void {
    switch (arg.kind) {
      case "positional":
        this.positional(arg.value, arg.generator);
        return;
      case "keyword":
        this.keyword(arg.keyword);
        return;
      case "star":
        this.star(arg.start, arg.end);
        return;
      case "hole":
        this.hole(arg.value);
        return;
    }
  }

  private positional(value: Expr, isGenerator: boolean): void {
    this.count++;
    if (isGenerator && this.generator === null) this.generator = value;
    if (this.keywords.length > 0) {
      this.report("positional argument follows keyword argument", value.start, value.end);
    }
    this.args.push(value);
  }

  private keyword(kw: Keyword): void {
    this.count++;
    if (this.keywords.some((k) => k.name === kw.name)) {
      this.report(`keyword argument repeated: '${kw.name}'`, kw.start, kw.end);
    }
    this.keywords.push(kw);
  }

  /** A hole left by error recovery (already reported). */
  private hole(node: Expr): void {
    this.count++;
    this.args.push(node);
  }

  /** `*x` / `**x`: reported, not kept. */
  private star(start: number, end: number): void {
    this.count++;
    this.report("star arguments are not supported", start, end);
  }

  comma(): void {
    this.trailingComma = true;
  }

  finish(): CallArguments {
    const gen = this.generator;
    if (gen !== null && (this.count > 1 || this.trailingComma)) {
      this.report("generator expression must be parenthesized", gen.start, gen.end);
    }
    return { args: this.args, keywords: this.keywords };
  }
}
