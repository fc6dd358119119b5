// Well-typed expressions over a contract's fields, the way people write them in `ensure`,
// `exit_criterion`, `accumulate` and `accumulate_key`.
import type { Contract, FieldDef } from "./model";
import type { Rng } from "./rng";

export type Contracts = ReadonlyMap<string, Contract>;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function isContract(type: string): boolean {
  return !JSON_TYPES.has(type);
}

function quoted(v: string): string {
  return `'${v}'`;
}

/** A boolean test of `subject.field` for a required field, or null when none fits. */
function requiredFieldTest(
  rng: Rng,
  subject: string,
  f: FieldDef,
  contracts: Contracts,
  depth: number,
): string | null {
  const x = `${subject}.${f.name}`;
  if (f.type === "string" && f.values !== undefined) {
    return rng.chance(0.6)
      ? `${x} in [${rng.sample(f.values, rng.int(1, f.values.length)).map(quoted).join(", ")}]`
      : `${x} != ${quoted(rng.pick(f.values))}`;
  }
  switch (f.type) {
    case "string":
      return rng.pick([
        `len(${x}) > 0`,
        `${x}.strip() != ''`,
        `len(${x}.split()) >= 3`,
        `'TODO' not in ${x}`,
        `not ${x}.startswith(' ')`,
        `${x}.lower() != 'n/a'`,
      ]);
    case "number":
      return rng.pick([
        `${x} >= 0.5`,
        `0 <= ${x} <= 1`,
        `${x} > 0`,
        `round(${x}, 2) >= 0.1`,
        `abs(${x}) < 1000`,
      ]);
    case "integer":
      return rng.pick([`${x} >= 0`, `${x} > 0`, `${x} <= 100`, `${x} % 2 == 0 or ${x} > 1`]);
    case "boolean":
      return rng.pick([x, `${x} == True`, `bool(${x})`]);
    case "object":
      return rng.pick([`len(${x}) >= 0`, `'version' in ${x} or len(${x}) == 0`, `len(${x}.keys()) < 100`]);
    case "array":
      return arrayTest(rng, x, f, contracts, depth);
    default: {
      const c = contracts.get(f.type);
      const g = c === undefined || depth > 0 ? undefined : pickRequired(rng, c);
      return g === undefined ? null : requiredFieldTest(rng, x, g, contracts, depth + 1);
    }
  }
}

function arrayTest(rng: Rng, x: string, f: FieldDef, contracts: Contracts, depth: number): string {
  const items = f.items;
  if (items === "string") {
    return rng.pick([`len(${x}) > 0`, `all(len(s) > 0 for s in ${x})`, `len(${x}) <= 20`, `'' not in ${x}`]);
  }
  if (items !== undefined && isContract(items) && depth === 0) {
    const c = contracts.get(items);
    const g = c === undefined ? undefined : pickRequired(rng, c);
    if (g !== undefined) {
      const inner = requiredFieldTest(rng, "e", g, contracts, depth + 1);
      if (inner !== null) {
        const r = rng.next();
        if (r < 0.4) return `all(${inner} for e in ${x})`;
        if (r < 0.55) return `any(${inner} for e in ${x}) or len(${x}) == 0`;
        if (r < 0.75 && (g.type === "number" || g.type === "integer"))
          return `sum(e.${g.name} for e in ${x}) >= 0`;
        if (r < 0.9) return `len([e for e in ${x} if ${inner}]) <= len(${x})`;
      }
    }
  }
  return rng.pick([`len(${x}) > 0`, `len(${x}) <= 50`]);
}

function pickRequired(rng: Rng, c: Contract): FieldDef | undefined {
  const required = c.fields.filter((f) => f.required);
  return required.length === 0 ? undefined : rng.pick(required);
}

/** A test of one field of `contract` (optional fields through `.get`). */
function fieldTest(rng: Rng, subject: string, contract: Contract, contracts: Contracts): string | null {
  if (contract.fields.length === 0) return null;
  const f = rng.pick(contract.fields);
  if (!f.required) return optionalFieldTest(subject, f);
  return requiredFieldTest(rng, subject, f, contracts, 0);
}

/** Optional fields may be null or absent: read them through `.get` first. */
function optionalFieldTest(subject: string, f: FieldDef): string {
  const get = `${subject}.get('${f.name}')`;
  switch (f.type) {
    case "string":
      return `${get} is None or len(${subject}.${f.name}) > 0`;
    case "number":
    case "integer":
      return `${get} is None or ${subject}.${f.name} >= 0`;
    case "boolean":
      return `${subject}.get('${f.name}', False) in [True, False]`;
    case "array":
      return `len(${get} or []) <= 50`;
    default:
      return `'${f.name}' in ${subject} or ${get} is None`;
  }
}

/** 1–`max` ensure expressions over `contract`; sometimes two tests joined with `and`/`or`. */
export function ensureList(rng: Rng, contract: Contract, contracts: Contracts, max: number): string[] {
  const out: string[] = [];
  const n = rng.int(1, max);
  for (let i = 0; i < n * 2 && out.length < n; i++) {
    const a = fieldTest(rng, "result", contract, contracts);
    if (a === null || out.includes(a)) continue;
    if (rng.chance(0.2)) {
      const b = fieldTest(rng, "result", contract, contracts);
      if (b !== null && b !== a) {
        out.push(rng.chance(0.8) ? `${a} and ${b}` : `(${a}) or (${b})`);
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

/** Ensure expressions for a step whose result is an untyped dict (inline step without contract). */
export function untypedEnsure(rng: Rng): string {
  return rng.pick([
    "len(result) > 0",
    "result.get('summary') is not None",
    "'answer' in result",
    "len(str(result.get('notes', ''))) < 5000",
  ]);
}

export interface IterationExprs {
  readonly exitCriterion: string;
  readonly accumulate?: string;
  readonly accumulateKey?: string;
}

/** exit_criterion, and accumulate/accumulate_key when the contract has an array field. */
export function iterationExprs(rng: Rng, contract: Contract, contracts: Contracts): IterationExprs {
  const arrays = contract.fields.filter((f) => f.required && f.type === "array");
  const bools = contract.fields.filter((f) => f.required && f.type === "boolean");
  const numbers = contract.fields.filter((f) => f.required && f.type === "number");
  const exit =
    bools.length > 0
      ? `result.${rng.pick(bools).name}`
      : numbers.length > 0
        ? `result.${rng.pick(numbers).name} >= 0.9`
        : (fieldTest(rng, "result", contract, contracts) ?? "len(result) > 0");
  const arr = arrays.length > 0 && rng.chance(0.7) ? rng.pick(arrays) : undefined;
  if (arr === undefined) return { exitCriterion: exit };
  const accumulate = `result.${arr.name}`;
  const stop = rng.pick([
    "dry_streak >= 2",
    "new_count == 0",
    "accumulated_count >= 20",
    `dry_streak >= 2 or ${exit}`,
  ]);
  return {
    exitCriterion: stop,
    accumulate,
    ...(rng.chance(0.8) ? { accumulateKey: keyExpr(rng, arr, contracts) } : {}),
  };
}

function keyExpr(rng: Rng, arr: FieldDef, contracts: Contracts): string {
  if (arr.items === "string") return rng.pick(["item", "item.lower()", "item.strip()"]);
  const c = arr.items === undefined ? undefined : contracts.get(arr.items);
  const strings = c?.fields.filter((f) => f.required && f.type === "string") ?? [];
  const ints = c?.fields.filter((f) => f.required && f.type === "integer") ?? [];
  if (strings.length > 0 && ints.length > 0 && rng.chance(0.5)) {
    return `item.${rng.pick(strings).name} + ':' + str(item.${rng.pick(ints).name})`;
  }
  if (strings.length > 0) return `item.${rng.pick(strings).name}`;
  return "str(item)";
}
