// What an agent may legally report for a step, and what a caller may pass as flow inputs, as
// fast-check arbitraries of plain JSON values: from the step's output contract (docs/reference/language.md §3.2),
// its output_schema (a JSON Schema subset: type, properties, required, items, enum, const, bounds,
// lengths, pattern, anyOf/oneOf), or, for a step without either, an object with the fields its
// expressions read.
import fc from "fast-check";
import type { CheckedSpec, ContractIR, FieldDefIR, FlowIR, StepIR } from "../../checker/index";
import { JSON_FIELD_TYPES, type JsonObject, type JsonValue } from "../../checker/index";

import { walk } from "../../grammar/index";
import { certificateOf, conformsToContract, conformsToOutputSchema } from "../../interpreter/index";
import type { PyValue } from "../../stdlib/index";
import { ensureOf, type Literals } from "../target";
import { certified } from "./certificate";
import {
  ABSENT,
  anyJsonArb,
  floatArb,
  intArb,
  type Maybe,
  merged,
  numberArb,
  objectArb,
  objectOf,
  optional,
  stringArb,
} from "./json-arbs";

const MAX_DEPTH = 3;
const MAX_ITEMS = 4;

export class Shapes {
  private readonly cache = new Map<string, fc.Arbitrary<unknown>>();

  constructor(
    private readonly spec: CheckedSpec,
    readonly literals: Literals,
  ) {}

  /** A value accepted by a field definition (null/absent handled by the caller). */
  field(def: FieldDefIR, depth: number): fc.Arbitrary<unknown> {
    if (def.values !== null && def.values.length > 0) return fc.constantFrom(...(def.values as JsonValue[]));
    switch (def.kind) {
      case "string":
        return stringArb(this.literals);
      case "integer":
        return intArb(this.literals);
      case "number":
        return numberArb(this.literals);
      case "boolean":
        return fc.boolean();
      case "array": {
        if (depth >= MAX_DEPTH) return fc.constant([]);
        const item = def.items === null ? anyJsonArb(this.literals) : this.field(def.items, depth + 1);
        // Empty lists break max(), [0] and averages: drawn often on purpose.
        return fc.oneof(
          { arbitrary: fc.constant([]), weight: 1 },
          { arbitrary: fc.array(item, { minLength: 1, maxLength: MAX_ITEMS }), weight: 3 },
        );
      }
      case "object":
        return fc
          .dictionary(stringArb(this.literals), anyJsonArb(this.literals), { maxKeys: 3 })
          .map((d) => Object.fromEntries(Object.entries(d)));
      case "contract": {
        const contract = this.spec.contracts.get(def.type);
        return contract === undefined ? fc.constant({}) : this.contract(contract, depth + 1);
      }
    }
  }

  /** An object accepted by a contract: required fields present and non-null; optional ones absent, null or set. */
  contract(contract: ContractIR, depth = 0): fc.Arbitrary<Record<string, unknown>> {
    const names: string[] = [];
    const values: fc.Arbitrary<Maybe>[] = [];
    for (const [name, def] of contract.fields) {
      names.push(name);
      if (depth >= MAX_DEPTH && !def.required) values.push(fc.constant(ABSENT));
      else {
        const value = this.field(def, depth);
        values.push(def.required ? value : optional(value));
      }
    }
    return objectArb(names, values);
  }

  /** A value valid under a JSON Schema (best effort for the keywords listed above). */
  schema(schema: JsonValue, depth = 0): fc.Arbitrary<unknown> {
    if (schema === true || schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      return anyJsonArb(this.literals);
    }
    const s = schema as JsonObject;
    if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as JsonValue[]));
    if ("const" in s) return fc.constant(s.const);
    for (const key of ["anyOf", "oneOf"] as const) {
      const alts = s[key];
      if (Array.isArray(alts) && alts.length > 0)
        return fc.oneof(...alts.map((a) => this.schema(a, depth + 1)));
    }
    const allOf = s.allOf;
    if (Array.isArray(allOf) && allOf.length > 0 && s.type === undefined && s.properties === undefined) {
      return this.schema(allOf[0] ?? true, depth + 1);
    }
    const types = typesOf(s);
    if (types.length === 0) return anyJsonArb(this.literals);
    return fc.oneof(...types.map((t) => this.schemaOfType(s, t, depth)));
  }

  private schemaOfType(s: JsonObject, type: string, depth: number): fc.Arbitrary<unknown> {
    const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
    switch (type) {
      case "object": {
        const props = s.properties;
        const required = new Set(
          Array.isArray(s.required) ? s.required.filter((r) => typeof r === "string") : [],
        );
        if (props === null || typeof props !== "object" || Array.isArray(props) || depth >= MAX_DEPTH) {
          return fc.constant(objectOf([...required].map((r) => [r as string, null] as const)));
        }
        const names: string[] = [];
        const values: fc.Arbitrary<Maybe>[] = [];
        for (const [name, sub] of Object.entries(props as JsonObject)) {
          const value = this.schema(sub, depth + 1);
          names.push(name);
          values.push(required.has(name) ? value : fc.option(value, { nil: ABSENT as Maybe }));
        }
        return objectArb(names, values);
      }
      case "array": {
        const item = depth >= MAX_DEPTH ? fc.constant(null) : this.schema(s.items ?? true, depth + 1);
        const minLength = num("minItems") ?? 0;
        const maxLength = Math.max(minLength, Math.min(num("maxItems") ?? MAX_ITEMS, minLength + MAX_ITEMS));
        return fc.array(item, { minLength, maxLength });
      }
      case "string": {
        const minLength = num("minLength");
        const maxLength = num("maxLength");
        if (typeof s.pattern === "string") {
          const re = safeRegExp(s.pattern);
          if (re !== null) {
            return fc
              .stringMatching(re)
              .filter(
                (x) =>
                  (minLength === undefined || [...x].length >= minLength) &&
                  (maxLength === undefined || [...x].length <= maxLength),
              );
          }
        }
        return stringArb(this.literals, {
          ...(minLength === undefined ? {} : { minLength }),
          ...(maxLength === undefined ? {} : { maxLength }),
        });
      }
      case "integer":
      case "number": {
        const exMin = num("exclusiveMinimum");
        const exMax = num("exclusiveMaximum");
        const min =
          num("minimum") ??
          (exMin === undefined ? undefined : type === "integer" ? Math.floor(exMin) + 1 : exMin + 1e-6);
        const max =
          num("maximum") ??
          (exMax === undefined ? undefined : type === "integer" ? Math.ceil(exMax) - 1 : exMax - 1e-6);
        const ints = intArb(
          this.literals,
          min === undefined ? undefined : Math.ceil(min),
          max === undefined ? undefined : Math.floor(max),
        );
        const multiple = num("multipleOf");
        const base = type === "integer" ? ints : fc.oneof(ints, floatArb(this.literals, min, max));
        return multiple === undefined || multiple <= 0
          ? base
          : ints
              .map((n) => Math.round(n / multiple) * multiple)
              .filter((n) => (min === undefined || n >= min) && (max === undefined || n <= max));
      }
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      default:
        return anyJsonArb(this.literals);
    }
  }

  /** A result an agent may report for a non-gate step: it passes the contract and (usually) the output_schema. */
  result(step: StepIR): fc.Arbitrary<unknown> {
    const key = `${step.id}\u0000${step.index}\u0000${step.function ?? ""}\u0000${step.outputContract ?? ""}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const arb = this.buildResult(step);
    this.cache.set(key, arb);
    return arb;
  }

  private buildResult(step: StepIR): fc.Arbitrary<unknown> {
    // A well-behaved agent writes the certificate a reasoning_template asks for (certificate.ts).
    // Without one, `certified` gives every value back as it is: no map layer for each draw.
    if (certificateOf(step) === null) return this.shapeResult(step);
    return this.shapeResult(step).map((plain) => certified(step, plain, (v) => this.conforms(step, v)));
  }

  /** Whether a result passes the step's contract and output_schema (the interpreter's own checks). */
  conforms(step: StepIR, value: PyValue): boolean {
    const contract = this.contractOf(step);
    if (contract !== null && !conformsToContract(value, contract, this.spec)) return false;
    return step.outputSchema === null || conformsToOutputSchema(value, step.outputSchema);
  }

  private shapeResult(step: StepIR): fc.Arbitrary<unknown> {
    const contract = this.contractOf(step);
    const schema = step.outputSchema;
    const fromContract = contract === null ? null : this.contract(contract);
    const fromSchema = schema === null ? null : this.schema(schema);
    if (fromContract !== null && fromSchema !== null) {
      // The schema is the more precise description: its properties win over the contract's.
      return fc
        .tuple(fromContract, fromSchema)
        .map(([c, s]) =>
          s !== null && typeof s === "object" && !Array.isArray(s)
            ? merged(c, s as Record<string, unknown>)
            : c,
        );
    }
    if (fromContract !== null) return fromContract;
    if (fromSchema !== null) return fromSchema;
    // A step with a task list of its own (`source`, `require`, …) reports its tasks' aggregate.
    if (step.parallel != null) return aggregateArb(this.literals);
    // No declared shape: the fields the step's expressions read, each maybe absent.
    const fields = resultFieldsRead(this.spec, step);
    const any = anyJsonArb(this.literals);
    return objectArb(
      fields,
      fields.map(() => optional(any)),
    );
  }

  /** The step's output contract (function output, output_contract), or null. */
  contractOf(step: StepIR): ContractIR | null {
    const name =
      step.kind === "function" && step.function !== null
        ? (this.spec.functions.get(step.function)?.output ?? "")
        : (step.outputContract ?? "");
    return name === "" ? null : (this.spec.contracts.get(name) ?? null);
  }

  /** Whether the step declares the shape of its results (a contract or an output_schema). */
  hasShape(step: StepIR): boolean {
    return this.contractOf(step) !== null || step.outputSchema !== null;
  }

  /** Flow inputs from the flow's `input` declarations; `required: false` ones may be absent. */
  inputs(flow: FlowIR): fc.Arbitrary<Record<string, unknown>> {
    const values = flow.inputNames.map((name) => {
      const value = this.declared(flow.input[name] ?? null);
      return optionalInput(this.spec, flow, name)
        ? fc.option(value, { nil: ABSENT as Maybe, freq: 3 })
        : value;
    });
    return objectArb(flow.inputNames, values);
  }

  /** A value for an input declaration `{type: …}` (any JSON value when the type is not one of the six). */
  declared(decl: JsonValue): fc.Arbitrary<unknown> {
    const d = decl !== null && typeof decl === "object" && !Array.isArray(decl) ? (decl as JsonObject) : null;
    const type = d?.type;
    if (typeof type !== "string" || !JSON_FIELD_TYPES.has(type)) return anyJsonArb(this.literals);
    const values = Array.isArray(d?.values) ? (d.values as JsonValue[]) : null;
    return this.field({ type, kind: type as FieldDefIR["kind"], values, items: null, required: true }, 0);
  }
}

/** A parallel step's aggregate (docs/reference/language.md §6.4), its lists consistent with its outcome. */
function aggregateArb(literals: Literals): fc.Arbitrary<unknown> {
  const result = fc.oneof(fc.record({ summary: stringArb(literals) }), anyJsonArb(literals));
  const task = (status: string) =>
    fc.record({ task_id: fc.constantFrom("t1", "t2", "t3"), status: fc.constant(status), result });
  return fc
    .record({
      completed: fc.array(task("complete"), { maxLength: 3 }),
      failed: fc.array(task("failed"), { maxLength: 3 }),
      merge_status: fc.constantFrom("clean", "clean", "conflict"),
    })
    .map(({ completed, failed, merge_status }) => ({
      tasks: [...completed, ...failed],
      merge_status,
      completed,
      failed,
      outcome: failed.length === 0 && merge_status === "clean" ? "complete" : "failed",
    }));
}

/** A flow input the caller may leave out: declared `required: false` (on the flow or its workflow block). */
export function optionalInput(spec: CheckedSpec, flow: FlowIR, name: string): boolean {
  const own = flow.input[name];
  if (
    own !== null &&
    typeof own === "object" &&
    !Array.isArray(own) &&
    (own as JsonObject).required === false
  )
    return true;
  if (spec.workflow?.entry === flow.name) {
    const wf = spec.workflow.input[name];
    if (wf !== null && typeof wf === "object" && !Array.isArray(wf) && (wf as JsonObject).required === false)
      return true;
  }
  return false;
}

function typesOf(s: JsonObject): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  if (s.properties !== undefined || s.required !== undefined) return ["object"];
  if (s.items !== undefined) return ["array"];
  return [];
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return null;
  }
}

/** Names read as `result.<f>` (or `result['f']`, `result.get('f')`) by a step's expressions. */
export function resultFieldsRead(spec: CheckedSpec, step: StepIR): string[] {
  const out = new Set<string>();
  const exprs = [...ensureOf(spec, step), step.exitCriterion, step.accumulate].filter((e) => e !== null);
  for (const e of exprs) {
    walk(e.ast, {
      enter(node) {
        if (node.kind === "Attribute" && node.value.kind === "Name" && node.value.id === "result")
          out.add(node.attr);
        if (
          node.kind === "Subscript" &&
          node.value.kind === "Name" &&
          node.value.id === "result" &&
          node.index.kind === "Constant" &&
          typeof node.index.value === "string"
        ) {
          out.add(node.index.value);
        }
        if (
          node.kind === "Call" &&
          node.func.kind === "Attribute" &&
          node.func.attr === "get" &&
          node.func.value.kind === "Name" &&
          node.func.value.id === "result"
        ) {
          const first = node.args[0];
          if (first?.kind === "Constant" && typeof first.value === "string") out.add(first.value);
        }
        return true;
      },
    });
  }
  return [...out].sort();
}
