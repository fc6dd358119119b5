// The `source` of a parallel_dispatch step (version 0.3): parsed and resolved exactly like a `$`
// step input (input-refs.ts, path-types.ts, the SPEC-REF-* problems), then checked for what fails
// on every run (a literal, a known non-list type, `require` above a known maximum) and for
// intent_template placeholders that no task can fill (a warning: they are left as written).
import type { PathRef } from "../../grammar/ast";
import { typeToString } from "../../stdlib/types/print";
import type { RecordType, Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import { fromKeyLine, valueRange } from "../anchors";
import type { JsonValue } from "../base/json";
import { MESSAGES } from "../messages";
import type { SpecModel, StepDecl } from "../model/types";
import type { Reporter } from "../report";
import { toJson } from "../yaml/to-json";
import { exprRule } from "./expr-rules";
import { isReference, parseInputReference } from "./input-refs";
import { type OutputTypeOf, resolveRef } from "./path-types";
import { type RefSite, reportRefProblem } from "./ref-report";
import {
  SPEC_PARALLEL_REQUIRE_EXCEEDS_TASKS,
  SPEC_PARALLEL_SOURCE_NOT_LIST,
  SPEC_PARALLEL_SOURCE_NOT_REFERENCE,
  SPEC_PARALLEL_TEMPLATE_FIELD,
} from "./rules/index";
import type { CheckedSource } from "./types";

type IdStep = StepDecl & { readonly id: string };

/** Checks the source (and what depends on its type) of a parallel_dispatch step; null without one. */
export function checkParallelSource(
  model: SpecModel,
  reporter: Reporter,
  step: IdStep,
  outputType: OutputTypeOf,
): CheckedSource | null {
  const field = step.string("source");
  const node = field?.entry.value;
  if (field === null || node?.kind !== "scalar" || field.value === "") return null; // SPEC-PARALLEL-MISSING-KEY
  const raw = field.value;
  const path = `flows.${step.flow.name}.steps.${step.id}.source`;
  if (!isReference(raw)) {
    reporter.report(SPEC_PARALLEL_SOURCE_NOT_REFERENCE, {
      message: SPEC_PARALLEL_SOURCE_NOT_REFERENCE.message(step.id, raw),
      path,
      range: valueRange(model.source, field.entry),
      suggestion: `Write a $ reference to the task list: source: "$.steps.<step id>.output.tasks"`,
    });
    return { raw, ref: null };
  }
  const site: RefSite = {
    src: model.source,
    reporter,
    node,
    text: raw,
    path,
    flow: step.flow,
    range: (start, end) => fromKeyLine(model.source, field.entry, node.mapRange(start, end)),
  };
  const ref = parseInputReference(raw);
  if (ref === null) {
    reporter.report(exprRule("SPEC-REF-MALFORMED"), {
      message: MESSAGES["SPEC-REF-MALFORMED"].message(raw),
      path,
      range: site.range(0, raw.length),
    });
    return { raw, ref: null };
  }
  const resolved = resolveRef(ref, step.flow, outputType);
  if (resolved.problem !== null) {
    reportRefProblem(site, resolved.problem);
    return { raw, ref };
  }
  const kinds = members(resolved.type).filter((t) => t.k !== "none");
  const known = kinds.length > 0 && kinds.every((t) => NOT_LISTS.has(t.k));
  if (known) {
    reporter.report(SPEC_PARALLEL_SOURCE_NOT_LIST, {
      message: SPEC_PARALLEL_SOURCE_NOT_LIST.message(step.id, raw, typeToString(resolved.type)),
      path,
      range: valueRange(model.source, field.entry),
      suggestion: "Point source at the list of tasks, e.g. $.steps.<step id>.output.tasks",
    });
    return { raw, ref };
  }
  checkTemplate(model, reporter, step, taskRecord(kinds));
  checkRequire(model, reporter, step, ref);
  return { raw, ref };
}

/** Kinds that are certainly not a list (`any`, unions with a list and the like are not). */
const NOT_LISTS: ReadonlySet<Type["k"]> = new Set(["bool", "int", "float", "str", "dict", "record"]);

/** The record every task has, when the source is a list of one contract's records. */
function taskRecord(kinds: readonly Type[]): RecordType | null {
  const [only] = kinds;
  if (kinds.length !== 1 || only?.k !== "list") return null;
  const elems = members(only.elem).filter((t) => t.k !== "none");
  const [elem] = elems;
  return elems.length === 1 && elem?.k === "record" ? elem.record : null;
}

/** `{task.<field>}` and `{<field>}` (docs/reference/runtime.md, parallel steps: the placeholders that expand). */
const PLACEHOLDER = /\{(task\.)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

function checkTemplate(model: SpecModel, reporter: Reporter, step: IdStep, record: RecordType | null): void {
  const field = step.string("intent_template");
  const node = field?.entry.value;
  if (record === null || field === null || node?.kind !== "scalar") return;
  for (const m of field.value.matchAll(PLACEHOLDER)) {
    const name = m[2] ?? "";
    if (record.fields.has(name)) continue;
    const start = m.index ?? 0;
    reporter.report(SPEC_PARALLEL_TEMPLATE_FIELD, {
      message: SPEC_PARALLEL_TEMPLATE_FIELD.message(m[0], record.name),
      path: `flows.${step.flow.name}.steps.${step.id}.intent_template`,
      range: fromKeyLine(model.source, field.entry, node.mapRange(start, start + m[0].length)),
      suggestion: `Use one of the fields of ${record.name}: ${[...record.fields.keys()].join(", ")}`,
    });
  }
}

function checkRequire(model: SpecModel, reporter: Reporter, step: IdStep, ref: PathRef): void {
  const require = step.integer("require");
  if (require === null || ref.scope !== "steps") return;
  const target = step.flow.stepById.get(ref.name.name);
  const schema = target?.map("output_schema");
  if (schema === null || schema === undefined) return;
  const max = maxItems(
    toJson(schema.value),
    ref.fields.map((f) => f.name),
  );
  if (max === null || require.value <= max) return;
  reporter.report(SPEC_PARALLEL_REQUIRE_EXCEEDS_TASKS, {
    message: SPEC_PARALLEL_REQUIRE_EXCEEDS_TASKS.message(step.id, require.value, max),
    path: `flows.${step.flow.name}.steps.${step.id}.require`,
    range: valueRange(model.source, require.entry),
    suggestion: `Use require: ${max} or less, or require: all`,
  });
}

/** The `maxItems` of the schema at `fields` (through `properties`), or null when not stated. */
function maxItems(schema: JsonValue, fields: readonly string[]): number | null {
  let at: JsonValue | undefined = schema;
  for (const name of fields) at = objectOf(objectOf(at)?.properties)?.[name];
  const max = objectOf(at)?.maxItems;
  return typeof max === "number" && Number.isInteger(max) && max >= 0 ? max : null;
}

function objectOf(v: JsonValue | undefined): { readonly [k: string]: JsonValue } | null {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v)
    ? (v as { readonly [k: string]: JsonValue })
    : null;
}
