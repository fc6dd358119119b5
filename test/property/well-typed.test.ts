// The checker's guarantee (docs/reference/language.md §10.12.3): an expression without error diagnostics, over
// names whose types have no `any` / `none` members and whose record fields are all present,
// never raises TypeError or AttributeError. Value errors (ZeroDivisionError, IndexError,
// KeyError, ValueError, OverflowError) remain possible and are allowed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkExpression } from "../../checker/expr/check-expression";
import type { Type } from "../../stdlib/types/type";
import type { PyValue } from "../../stdlib/values/value";
import { randFrom } from "../differential/rand";
import { arbitraryValueOf } from "../support/arbitrary-values";
import { evaluateChecked } from "../support/run-expression";
import { bindingType, pathsOf, typeArb } from "./typed-env";
import { TypedExprGen } from "./typed-expr";

const NAMES = ["result", "a", "b", "c"];
const EXPRESSIONS_PER_ENVIRONMENT = 25;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED =
  process.env.PROPERTY_SEED === undefined
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.PROPERTY_SEED);

interface Scenario {
  readonly types: ReadonlyMap<string, Type>;
  readonly values: ReadonlyMap<string, PyValue>;
  readonly exprs: readonly string[];
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .array(typeArb, { minLength: NAMES.length, maxLength: NAMES.length })
  .map((ts) => new Map(ts.map((t, i) => [NAMES[i] ?? `n${i}`, bindingType(t)] as const)))
  .chain((types) =>
    fc.record({
      types: fc.constant(types as ReadonlyMap<string, Type>),
      values: fc
        .tuple(...[...types.values()].map(arbitraryValueOf))
        .map((vs) => new Map([...types.keys()].map((name, i) => [name, vs[i] ?? null] as const))),
      exprs: fc.gen().map((g) => {
        const r = randFrom(g);
        const paths = [...types].flatMap(([name, t]) => pathsOf(name, t));
        const gen = new TypedExprGen(r, paths);
        return Array.from({ length: EXPRESSIONS_PER_ENVIRONMENT }, () =>
          gen.gen(r.pick(["num", "str", "bool", "list", "any"]), r.int(1, 4)),
        );
      }),
    }),
  );

function describeTypes(types: ReadonlyMap<string, Type>): string {
  const show = (t: Type): string =>
    t.k === "record"
      ? `{${[...t.record.fields].map(([f, d]) => `${f}: ${show(d.type)}`).join(", ")}}`
      : t.k === "ns"
        ? `ns${show(t.of)}`
        : t.k === "list"
          ? `list[${show(t.elem)}]`
          : t.k === "dict"
            ? `dict[str, ${show(t.value)}]`
            : "values" in t && t.values
              ? `${t.k}${JSON.stringify(t.values)}`
              : t.k;
  return [...types].map(([n, t]) => `${n}: ${show(t)}`).join("; ");
}

describe("well-typed expressions do not raise TypeError or AttributeError", () => {
  it(`holds for ${RUNS} environments x ${EXPRESSIONS_PER_ENVIRONMENT} expressions`, () => {
    let checked = 0;
    let accepted = 0;
    const failures: string[] = [];
    fc.assert(
      fc.property(scenarioArb, ({ types, values, exprs }) => {
        for (const text of exprs) {
          checked++;
          const result = checkExpression(text, { names: types });
          if (result.expr === null || result.diagnostics.some((d) => d.severity === "error")) continue;
          accepted++;
          const outcome = evaluateChecked(result.expr, values);
          if ("error" in outcome && (outcome.kind === "TypeError" || outcome.kind === "AttributeError")) {
            failures.push(`${text}\n  raised ${outcome.error}\n  types: ${describeTypes(types)}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    if (process.env.PROPERTY_STATS) for (const f of failures) console.log(`FAIL ${f.replace(/\n/g, " ⏎ ")}`);
    const shown = failures.slice(0, 12).join("\n");
    expect(failures, `${failures.length} failure(s); replay with PROPERTY_SEED=${SEED}\n${shown}`).toEqual(
      [],
    );
    // The generator must produce mostly accepted expressions, or the property says little.
    expect(accepted, `${accepted} of ${checked} accepted`).toBeGreaterThan(checked * 0.3);
    if (process.env.PROPERTY_STATS) console.log(`${accepted} of ${checked} accepted`);
  });
});
