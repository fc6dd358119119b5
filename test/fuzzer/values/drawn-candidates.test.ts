// The solver keeps a drawn result when it conforms, deciding that on the plain JSON where it can
// (fuzzer/values/plain-conforms.ts) and converting it to a Python value only when first read
// (fuzzer/values/drawn.ts). The kept list must be exactly the one the interpreter's own checks
// give on converted values (same values, same order): the search, the absence proofs and the runs
// index into it, and reports must not change. Checked on the steps of every example and corpus
// spec, with their drawn results and with those results broken at a random place.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/index";
import { fuzzTarget } from "../../../fuzzer/target";
import { DrawnCandidate, drawnCandidates } from "../../../fuzzer/values/drawn";
import { surelyConforms } from "../../../fuzzer/values/plain-conforms";
import { Shapes } from "../../../fuzzer/values/shapes";
import { fromJsonValue } from "../../../stdlib/index";

const ROOT = resolve(import.meta.dirname, "../../..");
const dirs = ["examples", "test/fuzzer/corpus"];
const specs = [
  join(ROOT, "bench/fixtures/typical.stratum.yaml"),
  ...dirs.flatMap((d) =>
    readdirSync(join(ROOT, d))
      .filter((f) => f.endsWith(".stratum.yaml"))
      .sort()
      .map((f) => join(ROOT, d, f)),
  ),
];

/** Values that break a field in every way the contract check looks at. */
const BREAKERS: unknown[] = [
  null,
  undefined,
  true,
  0,
  -0,
  2,
  2 ** 60,
  1.5,
  Number.NaN,
  "",
  "x",
  [],
  [null],
  [1.5],
  {},
  { a: 1 },
  Object.create({ inherited: 1 }),
];

/** `plain` with the value at a path chosen by `choices` replaced (or deleted, for an object field). */
function broken(plain: unknown, choices: readonly number[], replacement: unknown, remove: boolean): unknown {
  if (choices.length === 0 || plain === null || typeof plain !== "object") return replacement;
  const [first, ...rest] = choices as [number, ...number[]];
  if (Array.isArray(plain)) {
    if (plain.length === 0) return [replacement];
    const at = first % plain.length;
    return plain.map((x, i) => (i === at ? broken(x, rest, replacement, remove) : x));
  }
  const keys = Object.keys(plain);
  if (keys.length === 0) return { [String(first)]: replacement };
  const key = keys[first % keys.length]!;
  const copy: Record<string, unknown> = { ...(plain as Record<string, unknown>) };
  if (remove && rest.length === 0) delete copy[key];
  else copy[key] = broken(copy[key], rest, replacement, remove);
  return copy;
}

describe("drawn candidates decided on plain JSON", () => {
  it.each(specs.map((p) => [p.slice(ROOT.length + 1), p]))(
    "keep what the full checks keep: %s",
    (_, path) => {
      const target = fuzzTarget(checkSpec(readFileSync(path, "utf8")));
      if (target === null) return;
      const shapes = new Shapes(target.spec, target.literals);
      for (const flow of target.spec.flows.values()) {
        for (const step of flow.steps) {
          const contract = shapes.contractOf(step);
          const surely = (p: unknown) => surelyConforms(contract, step.outputSchema, p, target.spec);
          const full = (v: ReturnType<typeof fromJsonValue>) => shapes.conforms(step, v);
          const drawn = fc.sample(shapes.result(step), { seed: step.index, numRuns: 40 });
          fc.assert(
            fc.property(
              fc.array(
                fc.record({
                  from: fc.nat(),
                  choices: fc.array(fc.nat(), { maxLength: 4 }),
                  replacement: fc.oneof(fc.constantFrom(...BREAKERS), fc.jsonValue({ maxDepth: 2 })),
                  remove: fc.boolean(),
                }),
                { maxLength: 8 },
              ),
              (breaks) => {
                const plains = [
                  ...drawn,
                  ...breaks.map((b) =>
                    broken(drawn[b.from % drawn.length], b.choices, b.replacement, b.remove),
                  ),
                ];
                for (const p of plains) if (surely(p) === true) expect(full(fromJsonValue(p))).toBe(true);
                const kept = drawnCandidates(plains, surely, full);
                const expected = plains.filter((p) => full(fromJsonValue(p)));
                expect(kept.map((c) => c.plain)).toEqual(expected);
                expect(kept.map((c) => c.value)).toEqual(expected.map(fromJsonValue));
              },
            ),
            { numRuns: 15, seed: step.index },
          );
        }
      }
    },
  );

  it("decides the typical fixture's drawn results without the full check", () => {
    const target = fuzzTarget(
      checkSpec(readFileSync(join(ROOT, "bench/fixtures/typical.stratum.yaml"), "utf8")),
    );
    if (target === null) throw new Error("the fixture does not check clean");
    const shapes = new Shapes(target.spec, target.literals);
    const steps = [...target.spec.flows.values()].flatMap((f) => f.steps);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      const contract = shapes.contractOf(step);
      const fullChecks: unknown[] = [];
      drawnCandidates(
        fc.sample(shapes.result(step), { seed: 1, numRuns: 50 }),
        (p) => surelyConforms(contract, step.outputSchema, p, target.spec),
        (v) => {
          fullChecks.push(v);
          return shapes.conforms(step, v);
        },
      );
      expect(fullChecks).toEqual([]);
    }
  });

  it("convert a candidate once, on first read", () => {
    const c = new DrawnCandidate({ a: [1, 2.5], b: "x" });
    const first = c.value;
    expect(first).toEqual(fromJsonValue({ a: [1, 2.5], b: "x" }));
    expect(c.value).toBe(first);
    const given = fromJsonValue({ a: 1 });
    expect(new DrawnCandidate({ a: 1 }, given).value).toBe(given);
  });
});
