// The raise-free judgment (fuzzer/values/raise-free.ts) lets the solver answer "no result makes an
// ensure raise" without drawing candidates, so it must be sound: an expression judged raise-free
// never raises, when evaluated by the interpreter, for any result that passes the step's contract.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec, ContractIR } from "../../../checker/index";
import { bindable } from "../../../fuzzer/solver";
import { raiseFreeTy, resultTy, type Ty, valueTy } from "../../../fuzzer/values/raise-free";
import { Shapes } from "../../../fuzzer/values/shapes";
import { type Expr, parseExpression } from "../../../grammar/index";
import { checkContract, compileExpression, evaluate, type PathSource } from "../../../interpreter/index";
import { fromJsonValue, PyError, type PyValue, repr } from "../../../stdlib/index";
import { agentFor, NO_PATHS, oneStep } from "../support/agent";

function parse(text: string): Expr {
  const parsed = parseExpression(text);
  expect(parsed.diagnostics).toEqual([]);
  if (parsed.expr === null) throw new Error(`no expression: ${text}`);
  return parsed.expr;
}

/** The verdict on `text` for `result` bound to a result of contract `Out` (and `names` of these values). */
function verdict(spec: CheckedSpec, text: string, names: ReadonlyMap<string, PyValue> = new Map()): boolean {
  const types = new Map<string, Ty>([...names].map(([n, v]) => [n, valueTy(v)]));
  types.set("result", resultTy(spec.contracts.get("Out") ?? null));
  return raiseFreeTy(spec, parse(text), types) !== null;
}

/** The error message when `text` raises for `result`, else null. */
function raises(
  text: string,
  result: PyValue,
  names: ReadonlyMap<string, PyValue> = new Map(),
  paths: PathSource = NO_PATHS,
): string | null {
  const all = new Map(names);
  all.set("result", bindable(result));
  try {
    evaluate(compileExpression(parse(text)), all, { paths, files: null });
    return null;
  } catch (err) {
    if (err instanceof PyError) return err.message;
    throw err;
  }
}

function specOf(contracts: string): CheckedSpec {
  const checked = checkSpec(`version: "0.2"
contracts:
${contracts}
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Do it"
        inputs: {}
        output_contract: Out
`);
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  if (checked.ir === null) throw new Error("no IR");
  return checked.ir;
}

const HAND = specOf(`  Item:
    name: { type: string }
    tags: { type: array, items: { type: string } }
    owner: { type: string, required: false }
  Out:
    items: { type: array, items: { type: Item } }
    note: { type: string, required: false }
    title: { type: string }
    score: { type: number }
    count: { type: integer }
    ok: { type: boolean }
    meta: { type: object }
    any_list: { type: array }
    level: { type: string, values: [low, high] }`);

describe("the raise-free verdict on hand examples", () => {
  const free = [
    "len(result.items) > 0",
    "all(len(i.tags) > 0 for i in result.items)",
    "not any(i.name == 'x' for i in result.items) or result.ok",
    "result.title.strip() != '' and result.title.startswith('a')",
    "result.level in ['low', 'high']",
    "0 <= result.score <= 1 and result.count >= -1",
    "result.ok == True",
    "result.get('note') is None",
    "result.get('note', '') != 'x'",
    "'k' in result.meta",
    "'a' in result.title",
    "len([i for i in result.items if i.name != '']) + len(result.title) - 1 > 0",
    "file_exists(result.title) or file_contains(result.title, 'x')",
    "result.title if result.ok else $.input.x",
    "$.input.x == result.count",
    "(result.count, 1) != (2, 1) and bool(result.any_list)",
  ];
  for (const text of free)
    it(`judges \`${text}\` raise-free`, () => {
      expect(verdict(HAND, text)).toBe(true);
    });

  // Each may raise for some result that passes the contract (or for some path values).
  const mayRaise: readonly [string, unknown][] = [
    ["result.note.startswith('x')", { note: null }],
    ["result.note == None", {}],
    ["len(result.note) > 0", { note: null }],
    ["any(i.owner == 'x' for i in result.items)", { items: [{ name: "n", tags: [] }] }],
    ["result.items[0].name != ''", { items: [] }],
    ["result.count / result.score > 1", { count: 1, score: 0 }],
    ["result.score < result.title", {}],
    ["result.count in result.title", {}],
    ["len(result.get('note')) > 0", { note: null }],
    ["result.meta.k == 1", { meta: {} }],
    ["[1] in result.meta", {}],
    ["int(result.title) > 0", { title: "x" }],
    ["result.unknown == 1", {}],
    ["len(result.count) > 0", {}],
    ["all(x > 0 for x in result.any_list)", { any_list: ["a"] }],
    ["max(result.any_list) == 1", { any_list: [] }],
    ["len($.input.x) > 0", {}],
    ["result.title + $.input.x != ''", {}],
    ["result.score + result.count > 0", {}],
    ["result.count + 1 > 0", {}],
  ];
  const base = {
    items: [{ name: "a", tags: ["t"] }],
    title: "t",
    score: 0.5,
    count: 2,
    ok: true,
    meta: {},
    any_list: [1],
    level: "low",
  };
  const out = HAND.contracts.get("Out") as ContractIR;
  for (const [text, override] of mayRaise)
    it(`judges \`${text}\` as may raise`, () => {
      expect(verdict(HAND, text)).toBe(false);
      if (text.includes("$.input") || text.includes(" + ")) return;
      // A result that passes the contract and makes it raise: the verdict is not over-cautious here.
      const result = fromJsonValue({ ...base, ...(override as object) });
      expect(checkContract(result, out, HAND)).toEqual([]);
      expect(raises(text, result)).not.toBeNull();
    });

  it("needs a contract to know anything of `result`", () => {
    const bare = specOf(`  Out:
    a: { type: string }`);
    const parsed = parse("len(result.a) > 0");
    expect(raiseFreeTy(bare, parsed, new Map([["result", resultTy(null)]]))).toBeNull();
    expect(
      raiseFreeTy(bare, parsed, new Map([["result", resultTy(bare.contracts.get("Out")!)]])),
    ).not.toBeNull();
  });

  it("types the accumulator names by their values, and refuses names it does not know", () => {
    const names = new Map<string, PyValue>([
      ["accumulator", []],
      ["dry_streak", 1],
      ["new_count", null],
    ]);
    expect(verdict(HAND, "dry_streak >= 2 or any(a.outcome == 'x' for a in accumulator)", names)).toBe(true);
    expect(verdict(HAND, "new_count > 1", names)).toBe(false);
    expect(verdict(HAND, "best_score >= 1", names)).toBe(false);
    // A name bound to a value is called instead of the builtin.
    expect(verdict(HAND, "len(result.title) > 0", new Map([["len", 1]]))).toBe(false);
    expect(verdict(HAND, "all(len > 0 for len in result.items[0].tags)")).toBe(false);
  });

  it("types a deep or wide value at hand in bounded size, as lists of anything past the bounds", () => {
    let deep: PyValue = [1];
    for (let i = 0; i < 50; i++) deep = [deep];
    const kinds = (t: Ty): number => t.reduce((n, k) => n + 1 + ("item" in k ? kinds(k.item) : 0), 0);
    expect(kinds(valueTy(deep))).toBeLessThanOrEqual(6);
    const wide: PyValue = Array.from({ length: 40 }, () => Array.from({ length: 40 }, (_, i) => [i]));
    expect(kinds(valueTy(wide))).toBeLessThanOrEqual(256 + 2 * 40);
    // Whatever is inside a list typed as "anything" may raise when used.
    expect(verdict(HAND, "len(deep[0][0][0][0][0]) > 0", new Map([["deep", deep]]))).toBe(false);
    expect(verdict(HAND, "len(pairs) > 0", new Map([["pairs", wide]]))).toBe(true);
  });
});

describe("the solver with raise-free ensures", () => {
  const spec = oneStep(
    `tasks: { type: array, items: { type: string } }
note: { type: string, required: false }`,
    ["len(result.tasks) > 0"],
  );
  const raising = oneStep(
    `tasks: { type: array, items: { type: string } }
note: { type: string, required: false }`,
    ["len(result.tasks) > 0", "result.note.startswith('x')"],
  );

  it("answers that no result raises, as a scan of every candidate does", () => {
    const agent = agentFor(spec);
    const step = agent.step("s");
    expect(agent.solver.raising(step, NO_PATHS)).toBeNull();
    const outcomes = agent.solver
      .conforming(step)
      .flatMap((c) => agent.solver.ensureOutcomes(step, c.value, NO_PATHS));
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => typeof o === "string")).toEqual([]);
  });

  it("answers an iteration's raising report as a scan does: none for a raise-free one, one for an accumulate that gives no list", () => {
    const loop = (accumulate: string) =>
      oneStep(
        `tasks: { type: array, items: { type: string } }
extra: { type: array, required: false }`,
        [],
        `        max_iterations: 3
        exit_criterion: "len(result.tasks) > dry_streak"
        accumulate: "${accumulate}"
`,
      );
    const names = new Map<string, PyValue>([
      ["accumulator", []],
      ["accumulated_count", 0],
      ["new_count", null],
      ["dry_streak", 1],
    ]);
    const free = agentFor(loop("[t for t in result.tasks if t != '']"));
    expect(free.solver.raisingReport(free.step("s"), names, NO_PATHS)).toBeNull();
    // Raise-free, but None when `extra` is absent or null.
    const notList = agentFor(loop("result.get('extra')"));
    expect(notList.solver.raisingReport(notList.step("s"), names, NO_PATHS)).not.toBeNull();
  });

  it("still finds a raising result when an ensure may raise", () => {
    const agent = agentFor(raising);
    const found = agent.solver.raising(agent.step("s"), NO_PATHS);
    expect(found).not.toBeNull();
    expect(raises("result.note.startswith('x')", fromJsonValue(found))).not.toBeNull();
  });
});

// Generated contracts, expressions over their fields, and results drawn by the fuzzer's own
// generator (shapes.ts) that pass the contract.

const FIELDS = ["a", "b", "c", "d"] as const;
const INNER_FIELDS = ["a", "b"] as const;

const scalarKind = fc.constantFrom("string", "integer", "number", "boolean");
const fieldYaml = (inner: boolean): fc.Arbitrary<string> =>
  fc
    .tuple(
      inner
        ? scalarKind
        : fc.oneof(
            scalarKind,
            fc.constantFrom("object", "Inner", "array", "string, values: [x, y]"),
            scalarKind.map((k) => `array, items: { type: ${k} }`),
            fc.constant("array, items: { type: Inner }"),
          ),
      // Mostly required: ensures on required fields are the ones judged raise-free.
      fc.oneof({ arbitrary: fc.constant(true), weight: 3 }, { arbitrary: fc.constant(false), weight: 1 }),
    )
    .map(([kind, required]) => `{ type: ${kind}${required ? "" : ", required: false"} }`);

const contractsYaml: fc.Arbitrary<string> = fc
  .tuple(
    fc.tuple(...INNER_FIELDS.map(() => fieldYaml(true))),
    fc.tuple(...FIELDS.map(() => fieldYaml(false))),
  )
  .map(
    ([inner, out]) =>
      `  Inner:\n${inner.map((f, i) => `    ${INNER_FIELDS[i]}: ${f}`).join("\n")}\n  Out:\n${out
        .map((f, i) => `    ${FIELDS[i]}: ${f}`)
        .join("\n")}`,
  );

const field = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELDS), weight: 6 },
  { arbitrary: fc.constant("zz"), weight: 1 },
);
const atom = fc.oneof(
  field.map((f) => `result.${f}`),
  fc.constantFrom("0", "1", "-2", "1.5", "'x'", "''", "None", "True", "[1, 'x']", "('x', 'y')", "$.input.v"),
);

/** Conditions of the kinds ensures are written in, on a field: often raise-free, often not. */
const aimed = fc
  .tuple(
    field,
    fc.constantFrom(
      "len(F) > 0",
      "F == 1",
      "F < 1",
      "F >= 'x'",
      "'x' in F",
      "F.strip() != ''",
      "F.startswith('x')",
      "F is None",
      "F",
      "all(t.a == 'x' for t in F)",
      "any(len(t.b) > 0 for t in F)",
      "all(t > 0 for t in F)",
      "len([t for t in F if t]) >= 0",
      "'a' in F and F.get('a') == 1",
      "F.a != F.b",
    ),
  )
  .map(([f, template]) => template.replaceAll("F", `result.${f}`));

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    atom,
    { arbitrary: aimed, weight: 3 },
    tie("expr").chain((x) =>
      fc.constantFrom(
        `not ${x}`,
        `-(${x})`,
        `len(${x})`,
        `bool(${x})`,
        `any(${x})`,
        `all(${x})`,
        `(${x}).strip()`,
        `(${x}).lower()`,
        `(${x}).isdigit()`,
        `(${x})[0]`,
        `int(${x})`,
        `file_exists(${x})`,
        `(${x}).get('a')`,
        `(${x}).get('b', 0)`,
        ...FIELDS.map((f) => `(${x}).${f}`),
        `all(t for t in ${x})`,
        `any(t.a == 'x' for t in ${x})`,
        `[t for t in ${x} if t]`,
        `[len(t) for t in ${x}]`,
        `all(t.b > 0 for t in ${x})`,
      ),
    ),
    fc
      .tuple(tie("expr"), tie("expr"), fc.constantFrom("==", "!=", "<", ">=", "in", "not in", "is", "is not"))
      .map(([x, y, op]) => `(${x}) ${op} (${y})`),
    fc
      .tuple(tie("expr"), tie("expr"), fc.constantFrom("and", "or", "+", "-", "/"))
      .map(([x, y, op]) => `(${x}) ${op} (${y})`),
    fc.tuple(tie("expr"), tie("expr")).map(([x, y]) => `(${x}).startswith(${y})`),
    fc.tuple(tie("expr"), tie("expr")).map(([x, y]) => `file_contains(${x}, ${y})`),
    fc.tuple(tie("expr"), tie("expr"), tie("expr")).map(([x, y, z]) => `(${x}) if (${y}) else (${z})`),
  ),
}));

/** Path values of every kind, for `$.input.v` (judged as any value). */
const PATH_VALUES: readonly unknown[] = [null, 0, "x", [], [1, "a"], { a: 1 }, 2.5, true];

describe("a raise-free verdict", () => {
  it("holds for every result the fuzzer's generator draws that passes the contract", () => {
    let judgedFree = 0;
    let judgedMaybe = 0;
    let raisedWhenMaybe = 0;
    fc.assert(
      fc.property(
        contractsYaml,
        fc.array(expr, { minLength: 1, maxLength: 6 }),
        fc.integer(),
        (yaml, texts, seed) => {
          const spec = specOf(yaml);
          const out = spec.contracts.get("Out") as ContractIR;
          const shapes = new Shapes(spec, { strings: ["x"], numbers: [0, 1] });
          const results = fc
            .sample(shapes.contract(out), { seed, numRuns: 25 })
            .map((plain) => fromJsonValue(plain))
            .filter((v) => checkContract(v, out, spec).length === 0);
          for (const text of texts) {
            const parsed = parseExpression(text);
            if (parsed.diagnostics.length > 0 || parsed.expr === null) continue;
            const free = raiseFreeTy(spec, parsed.expr, new Map([["result", resultTy(out)]])) !== null;
            if (free) judgedFree++;
            else judgedMaybe++;
            for (const [i, result] of results.entries()) {
              const v = PATH_VALUES[i % PATH_VALUES.length];
              const paths: PathSource = {
                input: (name) => (name === "v" ? fromJsonValue(v) : undefined),
                stepOutput: () => undefined,
              };
              const error = raises(text, result, new Map(), paths);
              if (free && error !== null)
                throw new Error(
                  `judged raise-free but raised: ${text}\n${error}\nresult: ${repr(result)}\n${yaml}`,
                );
              if (!free && error !== null) raisedWhenMaybe++;
            }
          }
        },
      ),
      { numRuns: 150 },
    );
    // Both verdicts are given, and "may raise" is often right: the property is not vacuous.
    expect(judgedFree).toBeGreaterThan(50);
    expect(judgedMaybe).toBeGreaterThan(50);
    expect(raisedWhenMaybe).toBeGreaterThan(0);
  });
});
