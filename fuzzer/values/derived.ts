// Results a well-behaved agent would write, derived without randomness from what the step declares
// (its contract, its output_schema) and what its expressions test (expr-hints.ts): every `values`
// and `enum` member, numeric strings for a string field that reaches int()/float(), texts and list
// members that `in` tests look for, sizes around the ones `len()` is compared with, strings that
// match a `pattern`, and the compared literals with their neighbours. The list is the same on every
// seed, so a search over it finds the same results whatever the seed (docs/guides/fuzzing.md).
import fc from "fast-check";
import type { CheckedSpec, FieldDefIR, JsonObject, JsonValue, StepIR } from "../../checker/index";
import type { Literals } from "../target";
import { ExprHints, type FieldHint, stepHints } from "./expr-hints";
import { ABSENT, type Maybe, objectOf } from "./json-arbs";
import { resultFieldsRead } from "./shapes";

const MAX_DEPTH = 3;
/** Values kept per field, and candidates kept per step. */
const MAX_VALUES = 24;
const MAX_CANDIDATES = 240;
/** Strings that int() and float() accept, plus one that float() alone accepts. */
const NUMERIC_STRINGS = ["1", "0", "3", "-1", "2.5"];
/** A fixed seed for the strings drawn from a pattern: the same examples whatever the run's seed. */
const PATTERN_SEED = 0x5eed;

type Values = readonly Maybe[];

function uniq(values: readonly Maybe[], cap = MAX_VALUES): Maybe[] {
  const seen = new Set<string>();
  const out: Maybe[] = [];
  for (const v of values) {
    const key = v === ABSENT ? "\u0000absent" : JSON.stringify(v);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
    if (out.length >= cap) break;
  }
  return out;
}

/** Integers around a number: floor - 1 … ceil + 1. */
function integersNear(n: number): number[] {
  const f = Math.floor(n);
  const c = Math.ceil(n);
  return [f - 1, f, c, c + 1].filter((v) => Number.isSafeInteger(v));
}

/** Numbers around a number, floats included (for `number` fields). */
function numbersNear(n: number): number[] {
  return [n, ...integersNear(n), n - 0.5, n + 0.5, n - 0.01, n + 0.01].filter((v) => Number.isFinite(v));
}

/** Numbers around each compared literal, and halfway between neighbouring ones (`x > 0.9 and x < 1`). */
function numbersAround(values: readonly number[]): number[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const between = sorted.slice(1).map((v, i) => (v + sorted[i]!) / 2);
  return [...sorted.flatMap(numbersNear), ...between];
}

function numbersOf(values: readonly JsonValue[]): number[] {
  return values.filter((v): v is number => typeof v === "number");
}

/** Strings of `n` characters that contain each of `parts` when they fit: at the start, and at the end. */
function sized(n: number, parts: readonly string[]): string[] {
  const joined = parts.join(" ");
  if (joined.length > n) return ["a".repeat(n)];
  const pad = "a".repeat(n - joined.length);
  return [joined + pad, pad + joined];
}

/** Examples of a pattern (fixed seed), shortest first, within the length bounds. */
export function patternExamples(pattern: string, minLength?: number, maxLength?: number): string[] {
  let re: RegExp;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    return [];
  }
  const fits = (s: string) =>
    (minLength === undefined || [...s].length >= minLength) &&
    (maxLength === undefined || [...s].length <= maxLength);
  const drawn = fc.sample(fc.stringMatching(re), { seed: PATTERN_SEED, numRuns: 40 }).filter(fits);
  return [...new Set(drawn)].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, 8);
}

export class Derived {
  private readonly cache = new Map<StepIR, readonly unknown[]>();

  constructor(
    private readonly spec: CheckedSpec,
    private readonly literals: Literals,
  ) {}

  /** The derived results of a step (plain JSON), in a fixed order; empty for a parallel step's aggregate. */
  results(step: StepIR): readonly unknown[] {
    let list = this.cache.get(step);
    if (list === undefined) {
      list = this.build(step);
      this.cache.set(step, list);
    }
    return list;
  }

  /** A value for a flow input declaration `{type: …, values: …}`: the first derived one. */
  declared(decl: JsonValue): unknown {
    const d = decl !== null && typeof decl === "object" && !Array.isArray(decl) ? (decl as JsonObject) : null;
    const type = typeof d?.type === "string" ? d.type : "";
    const kinds = ["string", "integer", "number", "boolean", "array", "object"];
    const values = Array.isArray(d?.values) ? (d.values as JsonValue[]) : null;
    const hints = new ExprHints({ k: "any" });
    if (!kinds.includes(type)) return this.any(undefined, hints, [], 0)[0];
    const def: FieldDefIR = { type, kind: type as FieldDefIR["kind"], values, items: null, required: true };
    return this.fieldValues(def, hints, [], 0)[0];
  }

  private build(step: StepIR): unknown[] {
    const hints = stepHints(this.spec, step);
    const fields = new Map<string, Values>();
    const contract = this.contractOf(step);
    if (contract !== null) {
      for (const [name, def] of contract.fields) fields.set(name, this.field(def, hints, [name], 0));
    }
    const schema = step.outputSchema;
    if (schema !== null) {
      const s = schema as JsonObject;
      const props = s.properties;
      if (props !== null && typeof props === "object" && !Array.isArray(props)) {
        const required = new Set(Array.isArray(s.required) ? s.required : []);
        for (const [name, sub] of Object.entries(props as JsonObject)) {
          const values = this.schema(sub, hints, [name], 0);
          const optional = !required.has(name) && !(contract?.fields.get(name)?.required ?? false);
          fields.set(name, optional ? [...values, ABSENT] : values);
        }
      } else if (contract === null) {
        return this.schema(schema, hints, [], 0).filter((v) => v !== ABSENT);
      }
    }
    if (contract === null && schema === null) {
      // A step with a task list of its own reports its tasks' aggregate, never a result of its own.
      if (step.parallel != null) return [];
      for (const name of resultFieldsRead(this.spec, step)) {
        fields.set(name, [...this.any(hints.get([name]), hints, [name], 0), ABSENT]);
      }
    }
    return objects([...fields], MAX_CANDIDATES);
  }

  private contractOf(step: StepIR) {
    const name =
      step.kind === "function" && step.function !== null
        ? (this.spec.functions.get(step.function)?.output ?? "")
        : (step.outputContract ?? "");
    return name === "" ? null : (this.spec.contracts.get(name) ?? null);
  }

  /** Values of a contract field; an optional one also null and absent (last). */
  private field(def: FieldDefIR, hints: ExprHints, path: string[], depth: number): Values {
    const values = this.fieldValues(def, hints, path, depth);
    return def.required ? values : uniq([...values, null, ABSENT]);
  }

  private fieldValues(def: FieldDefIR, hints: ExprHints, path: string[], depth: number): Values {
    const hint = hints.get(path);
    if (def.values !== null && def.values.length > 0) {
      const asked = (hint?.values ?? []).filter((v) =>
        def.values!.some((m) => JSON.stringify(m) === JSON.stringify(v)),
      );
      return uniq([...asked, ...def.values]);
    }
    switch (def.kind) {
      case "string":
        return this.strings(hint);
      case "integer":
        return this.integers(hint);
      case "number":
        return this.numbers(hint);
      case "boolean":
        return this.booleans(hint);
      case "array": {
        const items =
          def.items === null
            ? this.any(undefined, hints, path, depth + 1)
            : this.fieldValues(def.items, hints, [...path, "\u0000item"], depth + 1);
        return this.lists(hint, items, depth);
      }
      case "object":
        return this.objectValues(hints, path, depth);
      case "contract": {
        const contract = this.spec.contracts.get(def.type);
        if (contract === undefined || depth >= MAX_DEPTH) return [{}];
        const entries = [...contract.fields].map(
          ([name, sub]) => [name, this.field(sub, hints, [...path, name], depth + 1)] as const,
        );
        return objects(entries, 8);
      }
    }
  }

  /** Strings: what the expressions compare the field with, numeric strings, texts `in` looks for, sizes `len()` needs. */
  private strings(hint: FieldHint | undefined, min = 0, max?: number): string[] {
    const out: string[] = [];
    if (hint !== undefined) {
      for (const v of hint.values) if (typeof v === "string") out.push(v);
      if (hint.numeric) {
        for (const m of numbersAround(numbersOf(hint.values))) out.push(String(m));
        out.push(...NUMERIC_STRINGS);
        for (const n of this.literals.numbers) out.push(String(n));
      }
      if (hint.contains.length > 0) out.push(hint.contains.join(" "), ...hint.contains);
      for (const n of hint.lengths) out.push(...sized(n, hint.contains));
    }
    out.push("a", "", ...this.literals.strings.slice(0, 8), "0");
    const fits = (s: string) => [...s].length >= min && (max === undefined || [...s].length <= max);
    const fitting = out.filter(fits);
    if (fitting.length === 0) fitting.push("a".repeat(min));
    // Room for the plain texts after the asked ones: they make conversions raise (FUZZ-ENSURE-RAISES).
    return uniq(fitting, 2 * MAX_VALUES) as string[];
  }

  private integers(hint: FieldHint | undefined): number[] {
    const asked = numbersOf(hint?.values ?? []).flatMap(integersNear);
    const spec = this.literals.numbers.slice(0, 8).flatMap(integersNear);
    return uniq([...asked, 1, 0, -1, 2, 3, 10, 100, ...spec]) as number[];
  }

  private numbers(hint: FieldHint | undefined): number[] {
    const asked = numbersAround(numbersOf(hint?.values ?? []));
    const spec = this.literals.numbers.slice(0, 8).flatMap(numbersNear);
    return uniq([...asked, 1, 0, 0.5, -1, 2.5, 100, ...spec]) as number[];
  }

  private booleans(hint: FieldHint | undefined): boolean[] {
    const asked = (hint?.values ?? []).filter((v): v is boolean => typeof v === "boolean");
    return uniq([...asked, true, false]) as boolean[];
  }

  /** Lists: the members `in` tests look for, the sizes `len()` is compared with, [] and single items. */
  private lists(
    hint: FieldHint | undefined,
    items: Values,
    depth: number,
    min = 0,
    max?: number,
  ): unknown[][] {
    const present = items.filter((v) => v !== ABSENT);
    const item = (i: number) => (present.length === 0 ? null : present[i % present.length]);
    const out: unknown[][] = [];
    if (hint !== undefined) {
      if (hint.elements.length > 0) out.push([...hint.elements], ...hint.elements.map((e) => [e]));
      for (const n of hint.lengths) {
        const base = [...(hint.elements ?? [])].slice(0, n);
        out.push([...base, ...Array.from({ length: n - base.length }, (_, i) => item(i))]);
      }
    }
    out.push([item(0)], []);
    if (depth < MAX_DEPTH) for (let i = 1; i < Math.min(present.length, 6); i++) out.push([item(i)]);
    out.push([item(0), item(1)]);
    const fits = (l: unknown[]) => l.length >= min && (max === undefined || l.length <= max);
    const fitting = out.filter(fits);
    if (fitting.length === 0) fitting.push(Array.from({ length: min }, (_, i) => item(i)));
    return uniq(fitting) as unknown[][];
  }

  /** Values of an untyped field: everything the hints ask for, then one of each kind. */
  private any(hint: FieldHint | undefined, hints: ExprHints, path: string[], depth: number): Values {
    const out: Maybe[] = [];
    if (hint !== undefined) {
      out.push(...hint.values);
      if (hint.numeric || hint.contains.length > 0 || hint.lengths.length > 0)
        out.push(...this.strings(hint).slice(0, 12));
      if (hint.elements.length > 0 || hint.lengths.length > 0) out.push(...this.lists(hint, ["a"], depth));
      out.push(...numbersAround(numbersOf(hint.values)));
    }
    const nested = depth < MAX_DEPTH ? this.objectValues(hints, path, depth) : [];
    out.push(...nested.filter((o) => Object.keys(o as object).length > 0));
    out.push("a", 1, 0, true, false, "", [], {}, null);
    return uniq(out);
  }

  /** Objects with the nested fields the expressions read (`result.meta.count`), else `{}`. */
  private objectValues(hints: ExprHints, path: string[], depth: number): Values {
    const keys = hints
      .all()
      .filter((h) => h.path.length === path.length + 1 && path.every((p, i) => h.path[i] === p))
      .map((h) => h.path[path.length]!);
    if (keys.length === 0 || depth >= MAX_DEPTH) return [{}];
    const entries = keys.map(
      (k) => [k, [...this.any(hints.get([...path, k]), hints, [...path, k], depth + 1)]] as const,
    );
    return [...objects(entries, 8), {}];
  }

  /** Values valid under a JSON Schema (the subset shapes.ts generates from). */
  private schema(schema: JsonValue, hints: ExprHints, path: string[], depth: number): Maybe[] {
    const hint = hints.get(path);
    if (schema === true || schema === null || typeof schema !== "object" || Array.isArray(schema))
      return [...this.any(hint, hints, path, depth)];
    const s = schema as JsonObject;
    if (Array.isArray(s.enum) && s.enum.length > 0) {
      const members = s.enum as readonly JsonValue[];
      const asked = (hint?.values ?? []).filter((v) =>
        members.some((m) => JSON.stringify(m) === JSON.stringify(v)),
      );
      return uniq([...asked, ...members]);
    }
    if ("const" in s) return [s.const as JsonValue];
    for (const key of ["anyOf", "oneOf"] as const) {
      const alts = s[key];
      if (Array.isArray(alts) && alts.length > 0)
        return uniq(alts.flatMap((a) => this.schema(a, hints, path, depth + 1)));
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0 && s.type === undefined && s.properties === undefined)
      return this.schema(s.allOf[0] ?? true, hints, path, depth + 1);
    const types =
      typeof s.type === "string"
        ? [s.type]
        : Array.isArray(s.type)
          ? s.type.filter((t): t is string => typeof t === "string")
          : s.properties !== undefined || s.required !== undefined
            ? ["object"]
            : s.items !== undefined
              ? ["array"]
              : [];
    if (types.length === 0) return [...this.any(hint, hints, path, depth)];
    return uniq(types.flatMap((t) => this.schemaOfType(s, t, hints, path, depth)));
  }

  private schemaOfType(
    s: JsonObject,
    type: string,
    hints: ExprHints,
    path: string[],
    depth: number,
  ): Maybe[] {
    const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
    const hint = hints.get(path);
    switch (type) {
      case "object": {
        const props = s.properties;
        const required = new Set(Array.isArray(s.required) ? s.required : []);
        if (props === null || typeof props !== "object" || Array.isArray(props) || depth >= MAX_DEPTH)
          return [objectOf([...required].map((r) => [String(r), null] as const))];
        const entries = Object.entries(props as JsonObject).map(([name, sub]) => {
          const values = this.schema(sub, hints, [...path, name], depth + 1);
          return [name, required.has(name) ? values : [...values, ABSENT]] as const;
        });
        return objects(entries, 8);
      }
      case "array": {
        const items =
          depth >= MAX_DEPTH
            ? [null]
            : this.schema(s.items ?? true, hints, [...path, "\u0000item"], depth + 1);
        return this.lists(hint, items, depth, num("minItems") ?? 0, num("maxItems"));
      }
      case "string": {
        const min = num("minLength") ?? 0;
        const max = num("maxLength");
        if (typeof s.pattern === "string") {
          const examples = patternExamples(s.pattern, min, max);
          let re: RegExp | null = null;
          try {
            re = new RegExp(s.pattern, "u");
          } catch {
            re = null;
          }
          if (re === null) return examples;
          // A text the expressions look for, written over the start or the end of an example
          // (`startswith('AB')` under `^[A-Z]{2}-[0-9]+$` gives `AB-0`), where the pattern still holds.
          const wanted = [...(hint?.contains ?? []), ...(hint?.values ?? [])].filter(
            (v): v is string => typeof v === "string" && v !== "",
          );
          const overlaid = wanted.flatMap((x) =>
            examples.flatMap((e) => [
              x + e.slice(x.length),
              e.slice(0, Math.max(0, e.length - x.length)) + x,
            ]),
          );
          const asked = [...this.strings(hint, min, max), ...overlaid].filter(
            (x) => re.test(x) && [...x].length >= min && (max === undefined || [...x].length <= max),
          );
          return uniq([...asked, ...examples]);
        }
        return this.strings(hint, min, max);
      }
      case "integer":
      case "number": {
        const exMin = num("exclusiveMinimum");
        const exMax = num("exclusiveMaximum");
        const min =
          num("minimum") ??
          (exMin === undefined ? undefined : type === "integer" ? Math.floor(exMin) + 1 : exMin + 0.5);
        const max =
          num("maximum") ??
          (exMax === undefined ? undefined : type === "integer" ? Math.ceil(exMax) - 1 : exMax - 0.5);
        const base = type === "integer" ? this.integers(hint) : this.numbers(hint);
        const bounds = [
          min,
          max,
          min === undefined ? undefined : min + 1,
          max === undefined ? undefined : max - 1,
        ];
        const all = [...base, ...bounds.filter((b): b is number => b !== undefined)];
        const multiple = num("multipleOf");
        const stepped =
          multiple === undefined || multiple <= 0 ? all : all.map((n) => Math.round(n / multiple) * multiple);
        return uniq(
          stepped.filter(
            (n) =>
              (min === undefined || n >= min) &&
              (max === undefined || n <= max) &&
              (type === "number" || Number.isInteger(n)),
          ),
        );
      }
      case "boolean":
        return this.booleans(hint);
      case "null":
        return [null];
      default:
        return [...this.any(hint, hints, path, depth)];
    }
  }
}

/**
 * Objects from per-field value lists: the first value of every field, then every field's i-th value
 * together, then each other value of one field with the first values of the rest.
 */
function objects(entries: readonly (readonly [string, Values])[], cap: number): Record<string, unknown>[] {
  const lists = entries.filter(([, vs]) => vs.length > 0);
  const pick = (i: number) => objectOf(lists.map(([name, vs]) => [name, vs[i % vs.length]] as const));
  const out: Record<string, unknown>[] = [pick(0)];
  const longest = Math.max(0, ...lists.map(([, vs]) => vs.length));
  for (let i = 1; i < longest; i++) out.push(pick(i));
  for (const [name, vs] of lists) {
    for (const v of vs.slice(1)) {
      out.push(objectOf(lists.map(([n, other]) => [n, n === name ? v : other[0]] as const)));
    }
  }
  return uniq(out, cap) as Record<string, unknown>[];
}
