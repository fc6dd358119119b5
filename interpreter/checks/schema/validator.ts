// The walker of `output_schema` validation: applies a (sub)schema to a value by visiting its
// keywords in the order the schema writes them, as Python's jsonschema does for draft 2020-12
// (`iter_errors`: every error, in keyword order, depth first). One validator per root schema; it
// resolves local `$ref`s against that root. Schemas are trusted to be statically valid, but a
// surprising one never makes validation throw: unknown keywords and unusable values are ignored,
// and a schema that would apply itself to the same value forever (`{$ref: "#"}`) adds nothing.
import type { JsonObject, JsonValue } from "../../../checker/base/json";
import { repr } from "../../../stdlib/values/repr";
import type { PyValue } from "../../../stdlib/values/value";
import { KEYWORDS, type KeywordCheck } from "./keywords";
import { searchMatches, type Unsupported } from "./regex";
import { isDone, isSchemaObject, newSink, report, type Sink } from "./sink";

/** Nesting beyond this many schema applications is not looked into (no stack overflow). */
const MAX_DEPTH = 800;

/**
 * The work one check of one result may do, in steps: one per schema applied, one per code unit of
 * text a pattern searches (plus one). Far above any sensible result (a 100 000-item array checked
 * against a small schema spends about 200 000); reached, the check stops with a violation. Steps, not
 * a clock: the verdict on a result does not depend on the machine's speed.
 */
const CHECK_BUDGET = 5_000_000;

/** The keyword checks of a schema object, in its key order (computed once per schema object). */
const compiled = new WeakMap<JsonObject, ReadonlyArray<readonly [KeywordCheck, JsonValue]>>();

function keywordsOf(schema: JsonObject): ReadonlyArray<readonly [KeywordCheck, JsonValue]> {
  let list = compiled.get(schema);
  if (list === undefined) {
    const built: Array<readonly [KeywordCheck, JsonValue]> = [];
    for (const key of Object.keys(schema)) {
      const check = KEYWORDS.get(key);
      const value = schema[key];
      if (check !== undefined && value !== undefined) built.push([check, value]);
    }
    list = built;
    compiled.set(schema, list);
  }
  return list;
}

export class SchemaValidator {
  /** Schema objects being applied right now, with the values they are applied to (cycle guard). */
  private readonly active = new Map<JsonObject, Set<PyValue>>();
  private depth = 0;
  private readonly refs = new Map<string, JsonValue | undefined>();
  private spent = 0;
  private exhausted = false;

  constructor(
    readonly root: JsonValue,
    readonly budget: number = CHECK_BUDGET,
  ) {}

  /** Every error of `instance` against `schema`, in order (all of them). */
  errors(instance: PyValue, schema: JsonValue = this.root): string[] {
    this.spent = 0;
    this.exhausted = false;
    const errors = this.subErrors(instance, schema);
    if (this.exhausted) {
      errors.push(
        `the check was stopped after ${this.budget} steps (the result is too large, or has too much text for its patterns); the result is not accepted`,
      );
    }
    return errors;
  }

  /**
   * Whether `errors(instance)` would be empty: the same walk with a fresh budget, stopped at the
   * first error, no text built. A walk that spends the budget does not conform (errors reports it).
   */
  conforms(instance: PyValue): boolean {
    this.spent = 0;
    this.exhausted = false;
    return this.isValid(instance, this.root) && !this.exhausted;
  }

  /** Every error of `instance` against a subschema, inside a check (the budget goes on). */
  subErrors(instance: PyValue, schema: JsonValue): string[] {
    const sink = newSink(false);
    this.descend(instance, schema, sink);
    return sink.errors;
  }

  /** Charges `steps`; false (and every later check does nothing) once the budget is spent. */
  private charge(steps: number): boolean {
    if (this.exhausted) return false;
    this.spent += steps;
    if (this.spent > this.budget) this.exhausted = true;
    return !this.exhausted;
  }

  /** A pattern search, charged to the budget (null, "ignore the keyword", once it is spent). */
  search(pattern: string, text: string): boolean | null | Unsupported {
    if (!this.charge(text.length + 1)) return null;
    return searchMatches(pattern, text);
  }

  /** Applies `schema` to `instance`, adding its errors to `sink`. */
  descend(instance: PyValue, schema: JsonValue, sink: Sink): void {
    if (schema === true) return;
    if (schema === false) {
      report(sink, () => `False schema does not allow ${repr(instance)}`);
      return;
    }
    if (!isSchemaObject(schema) || this.depth >= MAX_DEPTH || !this.charge(1)) return;
    let values = this.active.get(schema);
    if (values?.has(instance)) return; // the same schema on the same value again: nothing new
    if (values === undefined) {
      values = new Set();
      this.active.set(schema, values);
    }
    values.add(instance);
    this.depth++;
    try {
      for (const [check, value] of keywordsOf(schema)) {
        if (isDone(sink) || this.exhausted) break;
        check(this, value, instance, schema, sink);
      }
    } finally {
      this.depth--;
      values.delete(instance);
      if (values.size === 0) this.active.delete(schema);
    }
  }

  /** Whether `instance` is valid under `schema` (stops at the first error). */
  isValid(instance: PyValue, schema: JsonValue): boolean {
    const sink = newSink(true);
    this.descend(instance, schema, sink);
    return sink.errors.length === 0;
  }

  /** The target of a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any `#/…` pointer); else undefined. */
  resolve(ref: string): JsonValue | undefined {
    if (this.refs.has(ref)) return this.refs.get(ref);
    const target = resolvePointer(this.root, ref);
    this.refs.set(ref, target);
    return target;
  }
}

function resolvePointer(root: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined; // remote and relative references are not supported
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined; // `#anchor` names are not supported
  let node: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      node = /^(0|[1-9][0-9]*)$/.test(token) ? (node as readonly JsonValue[])[Number(token)] : undefined;
    } else if (isSchemaObject(node)) {
      node = Object.hasOwn(node, token) ? node[token] : undefined;
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}
