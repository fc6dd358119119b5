import { describe, expect, it } from "vitest";
import { checkExpression } from "../../checker/expr/check-expression";
import type { Expr } from "../../grammar/ast";
import { forEachChild } from "../../grammar/walk";
import { typeToString } from "../../stdlib/types/print";
import { ensureEnv, exitEnv } from "./fixtures";

function typeOf(text: string, env = ensureEnv): string {
  return typeToString(checkExpression(text, env).type);
}

describe("result types (docs/reference/language.md §10.12.3)", () => {
  it.each([
    ["result", "ns[Review]"],
    ["result.score", "int | float"],
    ["result.score + 1.5", "float"],
    ["result.findings[0].id // 2", "int"],
    ["result.summary or None", "str | none"],
    ["result.approved and 1", "bool | int"],
    ["1 if result.approved else 'a'", "int | str"],
    ["[f.severity for f in result.findings]", "list[str{'low','medium','high'}]"],
    ["(f.id for f in result.findings)", "generator[int]"],
    ["{'a': 1, 'b': 2.5}", "dict[str, int | float]"],
    ["(1, 'a')", "tuple[int, str]"],
    ["[]", "list[any]"],
    ["result.status", "str{'complete','failed'} | none"],
    ["result.parent", "Review | none"],
    ["result.get('parent', 0)", "Review | none | int"],
    ["result.items()", "items[str, any]"],
    ["result.meta", "dict[str, any]"],
    ["result.tags[1:]", "list[str]"],
    ["len(result.tags) > 1", "bool"],
    ["sorted(result.findings[0].file or 'x')", "list[str]"],
    ["max(1, 2.5)", "int | float"],
    ["result.summary.split()", "list[str]"],
    ["$.steps.review.output.score", "int | float | none"],
    ["$.input.unknown", "any"],
  ])("%s : %s", (text, expected) => {
    expect(typeOf(text)).toBe(expected);
  });

  it("types the position names of exit_criterion", () => {
    expect(typeOf("accumulator", exitEnv)).toBe("list[Finding]");
    expect(typeOf("new_count", exitEnv)).toBe("int | none");
  });

  it("records the type of every sub-expression", () => {
    const r = checkExpression(
      "[f.id + 1 for f in result.findings if f.file] + [len(result.tags)]",
      ensureEnv,
    );
    const seen: Expr[] = [];
    const visit = (e: Expr) => {
      seen.push(e);
      forEachChild(e, (c) => {
        if (c.kind === "Slice") {
          for (const b of [c.lower, c.upper, c.step]) if (b !== null) visit(b);
        } else visit(c);
      });
    };
    if (r.expr === null) throw new Error("no AST");
    visit(r.expr);
    expect(seen.length).toBeGreaterThan(8);
    for (const e of seen) expect(r.types.has(e), `${e.kind} at ${e.start}`).toBe(true);
    const plus = seen.find((e) => e.kind === "BinOp" && e.start === 1);
    expect(plus && typeToString(r.types.get(plus) ?? { k: "any" })).toBe("int");
  });
});
