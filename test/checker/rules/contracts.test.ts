// docs/reference/language.md §9.5.3 contract rules: SPEC-CONTRACT-FIELD-TYPE-UNKNOWN (aliases, did-you-mean, items),
// SPEC-CONTRACT-VALUES-TYPE, SPEC-CONTRACT-ITEMS-NOT-ARRAY, SPEC-CONTRACT-FIELD-UNKNOWN-KEY.
import { describe, expect, it } from "vitest";
import { SPEC_CONTRACT_FIELD_TYPE_UNKNOWN } from "../../../checker/rules/contracts/SPEC-CONTRACT-FIELD-TYPE-UNKNOWN";
import { SPEC_CONTRACT_FIELD_UNKNOWN_KEY } from "../../../checker/rules/contracts/SPEC-CONTRACT-FIELD-UNKNOWN-KEY";
import { SPEC_CONTRACT_ITEMS_NOT_ARRAY } from "../../../checker/rules/contracts/SPEC-CONTRACT-ITEMS-NOT-ARRAY";
import { SPEC_CONTRACT_VALUES_TYPE } from "../../../checker/rules/contracts/SPEC-CONTRACT-VALUES-TYPE";
import { diag, fix, join, runPhases, runRules, span } from "./support";

/** A 0.2 document with the given lines under `contracts:` (from line 3). */
function contracts(...lines: string[]): string {
  return ['version: "0.2"', "contracts:", ...lines, ""].join("\n");
}

function clean(text: string): void {
  const run = runPhases(text);
  expect(run.structure).toEqual([]);
  expect(run.rules).toEqual([]);
}

const EXPECTED = "(expected string, number, integer, boolean, array, object or a contract name)";

describe("SPEC-CONTRACT-FIELD-TYPE-UNKNOWN", () => {
  const rule = SPEC_CONTRACT_FIELD_TYPE_UNKNOWN;

  it("suggests a close builtin type with a fix", () => {
    const text = contracts("  Out:", "    v: {type: strng}", "    n: {type: number}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "contracts.Out.v.type",
        `Contract 'Out' field 'v' has unknown type 'strng' ${EXPECTED}`,
        span(text, 4, "strng"),
        {
          suggestion: "Did you mean 'string'?",
          fix: fix("Replace 'strng' with 'string'", span(text, 4, "strng"), "string"),
        },
      ),
    ]);
  });

  it("maps Python spellings to the JSON types before edit distance", () => {
    const text = contracts("  Out:", "    a: {type: str}", "    b: {type: 'dict'}", "    c: {type: float}");
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "contracts.Out.a.type",
        `Contract 'Out' field 'a' has unknown type 'str' ${EXPECTED}`,
        span(text, 4, "str"),
        {
          suggestion: "Did you mean 'string'?",
          fix: fix("Replace 'str' with 'string'", span(text, 4, "str"), "string"),
        },
      ),
      diag(
        rule,
        "contracts.Out.b.type",
        `Contract 'Out' field 'b' has unknown type 'dict' ${EXPECTED}`,
        span(text, 5, "'dict'"),
        {
          suggestion: "Did you mean 'object'?",
          fix: fix("Replace 'dict' with 'object'", span(text, 5, "dict"), "object"),
        },
      ),
      diag(
        rule,
        "contracts.Out.c.type",
        `Contract 'Out' field 'c' has unknown type 'float' ${EXPECTED}`,
        span(text, 6, "float"),
        {
          suggestion: "Did you mean 'number'?",
          fix: fix("Replace 'float' with 'number'", span(text, 6, "float"), "number"),
        },
      ),
    ]);
  });

  it("suggests contract names too, and checks items definitions as '<field>[]'", () => {
    const text = contracts(
      "  Finding: {id: {type: integer}}",
      "  Review:",
      "    findings:",
      "      type: array",
      "      items: {type: Findng}",
      "    grid: {type: array, items: {type: array, items: {type: nope}}}",
    );
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "contracts.Review.findings.items.type",
        `Contract 'Review' field 'findings[]' has unknown type 'Findng' ${EXPECTED}`,
        span(text, 7, "Findng"),
        {
          suggestion: "Did you mean 'Finding'?",
          fix: fix("Replace 'Findng' with 'Finding'", span(text, 7, "Findng"), "Finding"),
        },
      ),
      diag(
        rule,
        "contracts.Review.grid.items.items.type",
        `Contract 'Review' field 'grid[][]' has unknown type 'nope' ${EXPECTED}`,
        span(text, 8, "nope"),
      ),
    ]);
  });

  it("accepts the six types, contract names and recursive contracts", () => {
    clean(
      contracts(
        "  Node:",
        "    s: {type: string}",
        "    n: {type: number}",
        "    i: {type: integer}",
        "    b: {type: boolean}",
        "    o: {type: object}",
        "    children: {type: array, items: {type: Node}}",
        "    parent: {type: Node, required: false}",
      ),
    );
  });
});

describe("SPEC-CONTRACT-VALUES-TYPE", () => {
  const rule = SPEC_CONTRACT_VALUES_TYPE;

  it("reports each value its type does not accept, at V:values[i]", () => {
    const text = contracts("  Out:", "    n: {type: integer, values: [1, a, 2.0, 2.5, true, null]}");
    const msg = (v: string) => `Contract 'Out' field 'n' value ${v} does not match its type 'integer'`;
    expect(runRules(text)).toEqual([
      diag(rule, "contracts.Out.n.values", msg("'a'"), span(text, 4, "a", 1)),
      diag(rule, "contracts.Out.n.values", msg("2.5"), span(text, 4, "2.5")),
      diag(rule, "contracts.Out.n.values", msg("True"), span(text, 4, "true")),
      diag(rule, "contracts.Out.n.values", msg("None"), span(text, 4, "null")),
    ]);
  });

  it("a block item on its own line starts at the values key", () => {
    const text = contracts(
      "  Out:",
      "    level:",
      "      type: string",
      "      values:",
      "        - low",
      "        - 3",
    );
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "contracts.Out.level.values",
        "Contract 'Out' field 'level' value 3 does not match its type 'string'",
        join(span(text, 6, "values"), span(text, 8, "3")),
      ),
    ]);
  });

  it("checks booleans, numbers and nested definitions", () => {
    const text = contracts(
      "  Out:",
      "    b: {type: boolean, values: [yes, 'no']}",
      "    x: {type: number, values: [1, 1.5, '2']}",
      "    tags: {type: array, items: {type: string, values: [ok, [1]]}}",
    );
    expect(runRules(text)).toEqual([
      diag(
        rule,
        "contracts.Out.b.values",
        "Contract 'Out' field 'b' value 'no' does not match its type 'boolean'",
        span(text, 4, "'no'"),
      ),
      diag(
        rule,
        "contracts.Out.x.values",
        "Contract 'Out' field 'x' value '2' does not match its type 'number'",
        span(text, 5, "'2'"),
      ),
      diag(
        rule,
        "contracts.Out.tags.items.values",
        "Contract 'Out' field 'tags[]' value [1] does not match its type 'string'",
        span(text, 6, "[1]"),
      ),
    ]);
  });

  it("accepts matching values, null on an optional field, and skips unknown types", () => {
    clean(
      contracts(
        "  Out:",
        "    s: {type: string, values: [low, medium, high]}",
        "    i: {type: integer, values: [1, 2.0, 0x10]}",
        "    o: {type: string, required: false, values: [a, null]}",
      ),
    );
    const unknown = contracts("  Out:", "    s: {type: strin, values: [1]}");
    expect(runRules(unknown).map((d) => d.code)).toEqual(["SPEC-CONTRACT-FIELD-TYPE-UNKNOWN"]);
  });
});

describe("SPEC-CONTRACT-ITEMS-NOT-ARRAY", () => {
  it("warns at K:items of a non-array field", () => {
    const text = contracts("  Out:", "    s:", "      type: string", "      items: {type: string}");
    expect(runRules(text)).toEqual([
      diag(
        SPEC_CONTRACT_ITEMS_NOT_ARRAY,
        "contracts.Out.s.items",
        "Contract 'Out' field 's' has items but its type is 'string', not 'array'; it is ignored",
        span(text, 6, "items"),
      ),
    ]);
  });

  it("does not warn on arrays, nor on a type that is itself unknown", () => {
    clean(contracts("  Out:", "    s: {type: array, items: {type: string}}"));
    const unknown = contracts("  Out:", "    s: {type: arr, items: {type: string}}");
    expect(runRules(unknown).map((d) => d.code)).toEqual(["SPEC-CONTRACT-FIELD-TYPE-UNKNOWN"]);
  });
});

describe("SPEC-CONTRACT-FIELD-UNKNOWN-KEY", () => {
  it("warns at each unknown key, in items definitions too", () => {
    const text = contracts(
      "  Out:",
      "    s: {type: string, require: false, description: text}",
      "    l: {type: array, items: {type: string, format: email}}",
    );
    expect(runRules(text)).toEqual([
      diag(
        SPEC_CONTRACT_FIELD_UNKNOWN_KEY,
        "contracts.Out.s.require",
        "Contract 'Out' field 's' has unknown key 'require'; it is ignored",
        span(text, 4, "require"),
      ),
      diag(
        SPEC_CONTRACT_FIELD_UNKNOWN_KEY,
        "contracts.Out.l.items.format",
        "Contract 'Out' field 'l[]' has unknown key 'format'; it is ignored",
        span(text, 5, "format"),
      ),
    ]);
  });

  it("accepts the five known keys", () => {
    clean(contracts("  Out:", "    s: {type: string, values: [a], required: true, description: d}"));
  });
});
