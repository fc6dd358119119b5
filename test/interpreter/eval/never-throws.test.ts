// Property: whatever the AST, compiling and evaluating it either yields a value or throws PyError.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileExpression } from "../../../interpreter/eval/compile";
import { evaluate } from "../../../interpreter/eval/evaluate";
import { PyError } from "../../../stdlib/values/errors";
import { arbitraryExpr } from "./arbitrary-expr";
import { EXAMPLE_PATHS, fixtureNames } from "./support";

const runs = Number(process.env.FUZZ_RUNS ?? 2000);

describe("the evaluator never throws anything but PyError", () => {
  it("over random ASTs", () => {
    const names = fixtureNames();
    fc.assert(
      fc.property(arbitraryExpr, (expr) => {
        const compiled = compileExpression(expr);
        try {
          evaluate(compiled, names, { paths: EXAMPLE_PATHS, budget: 20_000 });
        } catch (e) {
          expect(e).toBeInstanceOf(PyError);
        }
      }),
      { numRuns: runs },
    );
  });
});
