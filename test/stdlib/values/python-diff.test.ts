// Property tests: random values checked against CPython 3.11, all in ONE python3 subprocess.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BinaryOperator, binaryOp } from "../../../stdlib/values/arithmetic";
import { pyEquals } from "../../../stdlib/values/equality";
import { pyCompare } from "../../../stdlib/values/ordering";
import { floatRepr, strRepr } from "../../../stdlib/values/repr";
import { normInt, type PyInt, type PyValue } from "../../../stdlib/values/value";
import { f, show } from "./support";

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const sample = <T>(arb: fc.Arbitrary<T>, n: number): T[] => fc.sample(arb, { numRuns: n, seed });

function bits(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
}

const doubles = fc.oneof(
  fc.double(),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => n / 1000),
  fc.double({ min: -1e-3, max: 1e-3 }),
  fc.double({ min: 1e14, max: 1e18 }),
  fc.constantFrom(0, -0, 0.1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, 5e-324, 1e16, 1e-5),
);
const ints = fc
  .oneof(
    fc.integer({ min: -100, max: 100 }).map(BigInt),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.bigInt({ min: -(2n ** 1100n), max: 2n ** 1100n }),
    fc.constantFrom(0n, 2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n) - 1n, 2n ** 64n, 2n ** 1024n),
  )
  .map(normInt);
const INT_OPS: BinaryOperator[] = ["+", "-", "*", "/", "//", "%"];
const op = fc.constantFrom(...INT_OPS);
const noPairs = (cps: number[]) =>
  !cps.some(
    (c, i) => c >= 0xd800 && c <= 0xdbff && (cps[i + 1] ?? 0) >= 0xdc00 && (cps[i + 1] ?? 0) <= 0xdfff,
  );
const codePoints = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x2ff }),
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: 0, max: 0x10ffff }),
    ),
    { maxLength: 8 },
  )
  .filter(noPairs);

const floats = sample(doubles, 4000);
const intOps = sample(fc.tuple(op, ints, ints), 1500);
const floatOps = sample(fc.tuple(op, doubles, doubles), 1500);
const mixed = sample(fc.tuple(fc.constantFrom(...INT_OPS, "==", "<"), ints, doubles), 1500);
const strings = sample(codePoints, 1500).map((cps) => String.fromCodePoint(...cps));

const SCRIPT = `
import sys, json, struct, unicodedata, operator as o
req = json.load(sys.stdin)
fl = lambda h: struct.unpack('>d', bytes.fromhex(h))[0]
ops = {'+': o.add, '-': o.sub, '*': o.mul, '/': o.truediv, '//': o.floordiv, '%': o.mod, '==': o.eq, '<': o.lt}
def run(fn):
    try: return repr(fn())
    except Exception as e: return '!%s: %s' % (type(e).__name__, e)
print(json.dumps({
  'floats': [repr(fl(h)) for h in req['floats']],
  'intOps': [run(lambda: ops[p](int(a), int(b))) for p, a, b in req['intOps']],
  'floatOps': [run(lambda: ops[p](fl(a), fl(b))) for p, a, b in req['floatOps']],
  'mixed': [run(lambda: ops[p](int(a), fl(b))) for p, a, b in req['mixed']],
  'strings': [[repr(s), [ord(c) for c in s if unicodedata.category(c) == 'Cn']] for s in req['strings']],
}))
`;

interface PythonAnswers {
  floats: string[];
  intOps: string[];
  floatOps: string[];
  mixed: string[];
  strings: [string, number[]][];
}

function askPython(): PythonAnswers {
  const request = {
    floats: floats.map(bits),
    intOps: intOps.map(([o, a, b]) => [o, String(a), String(b)]),
    floatOps: floatOps.map(([o, a, b]) => [o, bits(a), bits(b)]),
    mixed: mixed.map(([o, a, b]) => [o, String(a), bits(b)]),
    strings,
  };
  const r = spawnSync("python3", ["-c", SCRIPT], { input: JSON.stringify(request), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as PythonAnswers;
}

function mismatches<T>(
  inputs: readonly T[],
  expected: readonly string[],
  actual: (x: T) => string,
): string[] {
  const bad: string[] = [];
  inputs.forEach((x, i) => {
    const got = actual(x);
    if (got !== expected[i])
      bad.push(
        `${JSON.stringify(x, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}: got ${got}, CPython ${expected[i]}`,
      );
  });
  return bad.slice(0, 10);
}

describe(`differential against CPython (seed ${seed})`, () => {
  const py = askPython();

  it("floatRepr matches repr(float)", () => {
    expect(mismatches(floats, py.floats, floatRepr)).toEqual([]);
  });

  it("int arithmetic matches", () => {
    expect(mismatches(intOps, py.intOps, ([o, a, b]) => show(() => binaryOp(o, a, b)))).toEqual([]);
  });

  it("float arithmetic matches", () => {
    expect(mismatches(floatOps, py.floatOps, ([o, a, b]) => show(() => binaryOp(o, f(a), f(b))))).toEqual([]);
  });

  it("mixed int/float arithmetic and comparison match", () => {
    const run = ([o, a, b]: readonly [string, PyInt, number]): string =>
      show((): PyValue => {
        if (o === "==") return pyEquals(a, f(b));
        if (o === "<") return pyCompare("<", a, f(b));
        return binaryOp(o as BinaryOperator, a, f(b));
      });
    expect(mismatches(mixed, py.mixed, run)).toEqual([]);
  });

  it("strRepr matches repr(str) wherever both Unicode versions agree on unassigned code points", () => {
    const cn = /^\p{Cn}$/u;
    const comparable = strings
      .map((s, i) => [s, py.strings[i]] as const)
      .filter(([s, answer]) => {
        const jsCn = Array.from(s)
          .filter((c) => cn.test(c))
          .map((c) => c.codePointAt(0));
        return JSON.stringify(jsCn) === JSON.stringify(answer?.[1]);
      });
    expect(comparable.length).toBeGreaterThan(1000);
    expect(
      mismatches(
        comparable.map(([s]) => s),
        comparable.map(([, a]) => a?.[0] ?? ""),
        strRepr,
      ),
    ).toEqual([]);
  });
});
