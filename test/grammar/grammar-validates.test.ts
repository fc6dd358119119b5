// The shipped bundles skip Chevrotain's grammar and lexer validations (grammar/build-flags.ts: they
// cost more than the rest of a cold check, docs/design/startup.md), so the tests, which run the
// sources, are where a grammar mistake is caught: here the validations must be on and pass.
import { createToken, EmbeddedActionsParser, Lexer } from "chevrotain";
import { describe, expect, it } from "vitest";
import { SKIP_GRAMMAR_VALIDATIONS } from "../../grammar/build-flags";
import { parseExpression } from "../../grammar/parse";
import { ExprParser } from "../../grammar/parser";
import { ALL_TOKENS } from "../../grammar/tokens";

describe("the expression grammar under Chevrotain's validations", () => {
  it("runs with the validations on when the sources are tested", () => {
    expect(SKIP_GRAMMAR_VALIDATIONS).toBe(false);
  });

  it("builds the parser with every grammar and lookahead validation passing", () => {
    // performSelfAnalysis throws "Parser Definition Errors detected" when any check fails.
    expect(() => new ExprParser()).not.toThrow();
  });

  it("builds the lexer with its validations and first-character optimisation", () => {
    const lexer = new Lexer(ALL_TOKENS, { positionTracking: "onlyOffset", ensureOptimizations: true });
    expect(lexer.lexerDefinitionErrors).toEqual([]);
    expect(parseExpression("a.b if c else [x for x in y]").diagnostics).toEqual([]);
  });

  it("catches an ambiguous grammar only when the validations are on", () => {
    const A = createToken({ name: "A", pattern: /a/ });
    class Ambiguous extends EmbeddedActionsParser {
      constructor(skipValidations: boolean) {
        super([A], { skipValidations });
        this.performSelfAnalysis();
      }
      readonly top = this.RULE("top", () => {
        this.OR([{ ALT: () => this.CONSUME(A) }, { ALT: () => this.CONSUME2(A) }]);
      });
    }
    expect(() => new Ambiguous(false)).toThrow(/Parser Definition Errors/);
    expect(() => new Ambiguous(true)).not.toThrow();
  });
});
