// The names bound per expression position and the EXPR-NAME-UNAVAILABLE reasons (language.md
// docs/reference/language.md §10.6, docs/reference/language.md §10.12.2, docs/reference/language.md §9.5.5), checked through the real expression checker.
import { describe, expect, it } from "vitest";
import { checkExpression } from "../../../checker/expr/check-expression";
import type { ExpressionKind } from "../../../checker/expr/types";
import { elementType, environment, resultBinding } from "../../../checker/spec-expr/environment";
import { typeToString } from "../../../stdlib/types/print";
import {
  ANY,
  dictOf,
  INT,
  listOf,
  NONE,
  RecordType,
  recordOf,
  STR,
  type Type,
} from "../../../stdlib/types/type";
import { union } from "../../../stdlib/types/union";

const out = new RecordType("Out");
out.fields.set("v", { type: STR, optional: false });
const finding = new RecordType("Finding");
finding.fields.set("id", { type: INT, optional: false });

function env(kind: ExpressionKind, accumulates = false, result: Type = recordOf(out), element: Type = ANY) {
  return environment(kind, { result, element, accumulates, pathType: undefined, owner: "Step 's'" });
}

function messages(kind: ExpressionKind, text: string, accumulates = false): string[] {
  return checkExpression(text, env(kind, accumulates)).diagnostics.map((d) => `${d.code}: ${d.message}`);
}

const SKIP = "skip_if is evaluated before the step runs; read earlier outputs with $.steps.<id>.output";
const KEY = "accumulate_key sees one extracted element as item";
const ITEM = "item is bound only in accumulate_key";
const ACC = "it is bound only in exit_criterion of a step that declares accumulate";

describe("position names per kind", () => {
  it("binds result in ensure, exit_criterion and accumulate as ns[R(s)]", () => {
    for (const kind of ["ensure", "exit_criterion", "accumulate"] as const) {
      const names = env(kind).names;
      expect(typeToString(names.get("result") ?? NONE)).toBe("ns[Out]");
    }
  });

  it("result is unavailable in skip_if and accumulate_key with the exact reasons", () => {
    expect(messages("skip_if", "result.v")).toEqual([
      `EXPR-NAME-UNAVAILABLE: name 'result' is not available in skip_if expressions (${SKIP})`,
    ]);
    expect(messages("accumulate_key", "result.v")).toEqual([
      `EXPR-NAME-UNAVAILABLE: name 'result' is not available in accumulate_key expressions (${KEY})`,
    ]);
  });

  it("item is bound only in accumulate_key", () => {
    for (const kind of ["ensure", "skip_if", "exit_criterion", "accumulate"] as const) {
      expect(messages(kind, "item")).toEqual([
        `EXPR-NAME-UNAVAILABLE: name 'item' is not available in ${kind} expressions (${ITEM})`,
      ]);
    }
    expect(messages("accumulate_key", "item")).toEqual([]);
  });

  it("accumulator names are bound only in exit_criterion of a step with accumulate", () => {
    const text = "accumulated_count > 1 and len(accumulator) > 0 and dry_streak < 2 and new_count != 0";
    expect(messages("exit_criterion", text, true)).toEqual([]);
    for (const name of ["accumulator", "accumulated_count", "new_count", "dry_streak"]) {
      expect(messages("exit_criterion", name, false)).toEqual([
        `EXPR-NAME-UNAVAILABLE: name '${name}' is not available in exit_criterion expressions (${ACC})`,
      ]);
      for (const kind of ["ensure", "skip_if", "accumulate", "accumulate_key"] as const) {
        expect(messages(kind, name, true)).toEqual([
          `EXPR-NAME-UNAVAILABLE: name '${name}' is not available in ${kind} expressions (${ACC})`,
        ]);
      }
    }
  });

  it("types the accumulator names from the element type", () => {
    const names = env("exit_criterion", true, recordOf(out), recordOf(finding)).names;
    expect(
      ["accumulator", "accumulated_count", "new_count", "dry_streak"].map((n) =>
        typeToString(names.get(n) ?? ANY),
      ),
    ).toEqual(["list[Finding]", "int", "int | none", "int"]);
  });

  it("item is a namespace over a record or dict element, the raw type otherwise", () => {
    expect(typeToString(env("accumulate_key", false, ANY, recordOf(finding)).names.get("item") ?? NONE)).toBe(
      "ns[Finding]",
    );
    expect(typeToString(env("accumulate_key", false, ANY, dictOf(STR, ANY)).names.get("item") ?? NONE)).toBe(
      "ns[dict[str, any]]",
    );
    expect(typeToString(env("accumulate_key", false, ANY, STR).names.get("item") ?? NONE)).toBe("str");
    expect(typeToString(env("accumulate_key", false, ANY, ANY).names.get("item") ?? NONE)).toBe("any");
  });

  it("iteration, best_score and prior_scores are bound only in exit_criterion next to score_expr", () => {
    const reason = "it is bound only in exit_criterion of a step that declares score_expr";
    expect(messages("exit_criterion", "iteration >= 3", true)).toEqual([
      `EXPR-NAME-UNAVAILABLE: name 'iteration' is not available in exit_criterion expressions (${reason})`,
    ]);
    expect(messages("score_expr", "best_score")).toEqual([
      `EXPR-NAME-UNAVAILABLE: name 'best_score' is not available in score_expr expressions (${reason})`,
    ]);
    const scored = environment("exit_criterion", {
      result: recordOf(out),
      element: ANY,
      accumulates: false,
      scores: true,
      pathType: undefined,
      owner: "Step 's'",
    });
    expect(typeToString(scored.names.get("best_score") ?? ANY)).toBe("float | none");
    expect(typeToString(scored.names.get("prior_scores") ?? ANY)).toBe("list[float]");
    expect(typeToString(scored.names.get("iteration") ?? ANY)).toBe("int");
    const text = "best_score is not None and best_score >= 0.9 or iteration >= 4 or len(prior_scores) > 3";
    expect(checkExpression(text, scored).diagnostics).toEqual([]);
  });

  it("score_expr binds result and must give a number", () => {
    expect(messages("score_expr", "len(result.v) * 2")).toEqual([]);
    expect(messages("score_expr", "len(result.v) > 1")).toEqual([
      "EXPR-SCORE-NOT-NUMBER: score_expr 'len(result.v) > 1' does not evaluate to a number (it evaluates to bool)",
    ]);
  });

  it("the owner names the step in EXPR-DUNDER", () => {
    expect(messages("accumulate", "result.__f")).toEqual([
      "EXPR-DUNDER: Step 's' accumulate must not contain dunder attributes",
    ]);
  });
});

describe("resultBinding and elementType", () => {
  it("wraps records and dicts in a namespace, anything else is any", () => {
    expect(typeToString(resultBinding(recordOf(out)))).toBe("ns[Out]");
    expect(typeToString(resultBinding(dictOf(STR, ANY)))).toBe("ns[dict[str, any]]");
    expect(typeToString(resultBinding(ANY))).toBe("any");
    expect(typeToString(resultBinding(NONE))).toBe("any");
  });

  it("takes the element type of the list members", () => {
    expect(typeToString(elementType(listOf(recordOf(finding))))).toBe("Finding");
    expect(typeToString(elementType(union(listOf(STR), NONE)))).toBe("str");
    expect(typeToString(elementType(union(listOf(STR), listOf(INT))))).toBe("str | int");
    expect(typeToString(elementType(ANY))).toBe("any");
    expect(typeToString(elementType(INT))).toBe("any");
  });
});
