// The evaluation budget (docs/reference/language.md §10.15): 1 step per node evaluated, per-element charges for
// comprehensions, and the value modules' own charges for the work they do.
import { describe, expect, it } from "vitest";
import { run } from "./support";

const EXCEEDED = "BudgetExceeded: expression exceeded its evaluation budget";

describe("budget", () => {
  it("fails a huge repetition immediately, before allocating", () => {
    const start = performance.now();
    expect(run("'a' * 1000000000")).toMatch(/^BudgetExceeded: /);
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it("fails a comprehension over a 2,000 × 2,000 product", () => {
    expect(run("len([1 for a in [0] * 2000 for b in [0] * 2000])")).toBe(`${EXCEEDED} (1000000 steps)`);
  });

  it("fails a lazy generator over the same product when it is consumed", () => {
    expect(run("sum(1 for a in [0] * 2000 for b in [0] * 2000)")).toMatch(/^BudgetExceeded: /);
  });

  it("allows a product that stays within the budget", () => {
    expect(run("len([1 for a in [0] * 300 for b in [0] * 300])")).toBe("90000");
  });

  it("charges one step per node evaluated", () => {
    // BinOp + two constants = 3 steps.
    expect(run("1 + 2", { budget: 3 })).toBe("3");
    expect(run("1 + 2", { budget: 2 })).toBe(`${EXCEEDED} (2 steps)`);
    // A 4-term chain is 3 BinOps and 4 constants.
    expect(run("1 + 2 + 3 + 4", { budget: 7 })).toBe("10");
    expect(run("1 + 2 + 3 + 4", { budget: 6 })).toMatch(/^BudgetExceeded/);
  });

  it("does not charge operands skipped by short-circuiting", () => {
    // BoolOp + the constant 0; the sum is never evaluated.
    expect(run("0 and 1 + 2 + 3 + 4 + 5", { budget: 2 })).toBe("0");
    expect(run("1 if 0 else 2", { budget: 3 })).toBe("2");
    expect(run("1 if 0 else 2", { budget: 2 })).toMatch(/^BudgetExceeded/);
  });

  it("charges every evaluation of a node inside a comprehension", () => {
    const small = run("[x + 1 for x in [1, 2, 3]]", { budget: 100 });
    expect(small).toBe("[2, 3, 4]");
    const tiny = run("[x + 1 for x in [1, 2, 3]]", { budget: 10 });
    expect(tiny).toMatch(/^BudgetExceeded/);
  });

  it("each evaluation starts with a fresh budget", () => {
    for (let i = 0; i < 3; i++) expect(run("1 + 2", { budget: 3 })).toBe("3");
  });
});
