// The help (`suggestion`) of the structural diagnostics that have no specific one: what to write,
// and where, derived from the declarative schema (spec-schema.ts). The reference's generic
// "See IR schema documentation" told the author nothing; every text here names the key and shows
// a value to write.
import type { MapNode, SpecNode } from "../yaml/nodes";
import { WORKFLOW_NAME_PATTERN } from "./spec-schema";
import type { ShapeName, ValueSpec } from "./spec-schema-types";

/** The example value written for a key of a given kind (one YAML line). */
const SHAPE_EXAMPLES: { readonly [N in ShapeName]: string } = {
  root: 'version: "0.2"',
  fieldDef: "{type: string}",
  function: '{mode: infer, intent: "<what it does>", input: {}, output: <contract name>}',
  budget: "{ms: 60000, usd: 1.0}",
  flow: '{input: {}, steps: [{id: <step id>, intent: "<what to do>"}]}',
  step: '{id: <step id>, intent: "<what to do>"}',
  workflow: '{name: <workflow-name>, description: "<what it does>", input: {}}',
  workflowInput: "{type: string}",
  member: '{id: <member id>, intent: "<what to do>"}',
  synthesis: '{intent: "<what to decide>", output_contract: <contract name>}',
  judge: '{predicates: [{id: <predicate id>, type: deterministic, statement: "<expression>"}]}',
  judgePredicate: '{id: <predicate id>, type: deterministic, statement: "<expression>"}',
  judgeBudget: "{max_turns: 3}",
  stage: '{intent_template: "<what to do with {item}>"}',
  fanout: "{max: <lanes>}",
  property: '{flow: <flow name>, always: "<expression>"}',
  leadsTo: '{from: "<expression>", to: "<expression>"}',
};

/** Example values of keys whose value kind alone says too little. */
const KEY_EXAMPLES: ReadonlyMap<string, string> = new Map([
  ["version", '"0.2"'],
  ["mode", "infer"],
  ["intent", '"<what to do>"'],
  ["description", '"<what it does>"'],
  ["input", "{}"],
  ["inputs", '{<name>: "$.input.<name>"}'],
  ["output", "<contract name>"],
  ["output_contract", "<contract name>"],
  ["output_schema", "{type: object, properties: {<field>: {type: string}}}"],
  ["steps", '[{id: <step id>, intent: "<what to do>"}]'],
  ["id", "<step id>"],
  ["function", "<function name>"],
  ["flow", "<flow name>"],
  ["name", "<workflow-name>"],
  ["type", "string"],
  ["depends_on", "[<step id>]"],
  ["ensure", '["result.<field> == <value>"]'],
  ["values", "[<value>, <value>]"],
  ["contracts", "{<Contract>: {<field>: {type: string}}}"],
  ["functions", '{<name>: {mode: infer, intent: "<what it does>", input: {}, output: <contract name>}}'],
  ["flows", '{<name>: {input: {}, steps: [{id: <step id>, intent: "<what to do>"}]}}'],
  ["skip_if", '"<expression>"'],
  ["exit_criterion", '"<expression>"'],
  ["accumulate", '"<expression>"'],
  ["accumulate_key", '"<expression>"'],
  ["score_expr", '"<expression>"'],
  ["source", '"$.steps.<step id>.output.tasks"'],
  ["intent_template", '"<what to do with {task.<field>}>"'],
]);

/** A YAML value to write for `key` of kind `spec`. */
function exampleValue(key: string, spec: ValueSpec): string {
  const known = KEY_EXAMPLES.get(key);
  if (known !== undefined) return known;
  switch (spec.kind) {
    case "shape":
      return SHAPE_EXAMPLES[spec.shape];
    case "freeMapping":
      return "{}";
    case "mapOf":
      return `{<name>: ${spec.value.kind === "string" ? '"<text>"' : exampleValue("", spec.value)}}`;
    case "seqOf":
      return `[${exampleValue("", spec.item)}]`;
    case "boolean":
      return "true";
    case "integer":
    case "number":
    case "nullableInteger":
      return String(Math.max(1, spec.minimum));
    case "enumOrInteger":
      return spec.values[0] ?? String(spec.minimum);
    case "countOrSeqOf":
      return String(Math.max(1, spec.minimum));
    case "stringOrSeqOf":
      return `[${exampleValue("", spec.item)}]`;
    case "enum":
      return Array.isArray(spec.values) ? String(spec.values[0] ?? "") : "<value>";
    case "nullableString":
    case "string":
      return '"<text>"';
    default:
      return "<value>";
  }
}

function what(spec: ValueSpec): string {
  switch (spec.kind) {
    case "string":
      return "a string";
    case "nullableString":
      return "a string or null";
    case "boolean":
      return "true or false";
    case "integer":
      return spec.maximum === undefined
        ? `a whole number of at least ${spec.minimum}`
        : `a whole number from ${spec.minimum} to ${spec.maximum}`;
    case "number":
      return `a number of at least ${spec.minimum}`;
    case "nullableInteger":
      return `a whole number of at least ${spec.minimum}, or null`;
    case "enumOrInteger":
      return `one of ${spec.values.join(", ")}, or a whole number of at least ${spec.minimum}`;
    case "countOrSeqOf":
      return `a whole number of at least ${spec.minimum}, or a non-empty list`;
    case "stringOrSeqOf":
      return `a string, or a list of ${what(spec.item).replace(/^an? /, "")}s`;
    case "enum":
      return "one of the listed words";
    case "shape":
    case "freeMapping":
    case "mapOf":
      return "a mapping";
    case "seqOf":
      return spec.nonEmpty === true ? "a non-empty list" : "a list";
    default:
      return "a value";
  }
}

/** The source text of a scalar (what the author wrote), or null for collections. */
function written(text: string, node: SpecNode): string | null {
  return node.kind === "scalar" ? text.slice(node.range.start, node.range.end) : null;
}

/**
 * The help of a value diagnostic. `key` is the key holding the value; `item` is true when the
 * value is an item of the sequence under `key`.
 */
export function valueHelp(
  code: string,
  spec: ValueSpec,
  key: string,
  item: boolean,
  node: SpecNode,
  text: string,
): string {
  const src = written(text, node);
  const where = item ? `each item of '${key}'` : `'${key}'`;
  if (code === "SCHEMA-MINIMUM" && spec.kind !== "number" && "minimum" in spec) {
    return `Write ${what(spec)} for ${where}: ${key}: ${Math.max(spec.minimum, 1)}`;
  }
  if (code === "SCHEMA-MAXIMUM" && spec.kind === "integer" && spec.maximum !== undefined) {
    return `Write ${what(spec)} for ${where}: ${key}: ${spec.maximum}`;
  }
  if (code === "SCHEMA-MINIMUM" && spec.kind === "number") {
    const least = spec.minimum;
    return `Write ${what(spec)} for ${where}: ${key}: ${least}`;
  }
  if (code === "SCHEMA-NON-EMPTY") {
    if (spec.kind === "seqOf") return `Add at least one item: ${key}: ${exampleValue(key, spec)}`;
    return `Write some text for ${where}: ${key}: ${exampleValue(key, spec)}`;
  }
  if (code === "SCHEMA-PATTERN" && spec.kind === "string" && spec.pattern === WORKFLOW_NAME_PATTERN) {
    return `Use lowercase letters, digits and '-', starting with a letter: ${key}: ${workflowName(node)}`;
  }
  // SCHEMA-TYPE.
  const stringLike = spec.kind === "string" || spec.kind === "nullableString" || spec.kind === "enum";
  if (stringLike && src !== null && node.kind === "scalar" && typeof node.value !== "string") {
    // YAML 1.1 typed a word or number the author meant as text.
    const quoted = JSON.stringify(src.trim());
    return item ? `Quote the item: - ${quoted}` : `Quote the value: ${key}: ${quoted}`;
  }
  if (
    (spec.kind === "integer" || spec.kind === "number" || spec.kind === "nullableInteger") &&
    node.kind === "scalar" &&
    typeof node.value === "string" &&
    /^\s*-?\d+(\.\d+)?\s*$/.test(node.value)
  ) {
    return `Remove the quotes: ${key}: ${node.value.trim()}`;
  }
  if (
    spec.kind === "shape" &&
    spec.shape === "fieldDef" &&
    node.kind === "scalar" &&
    typeof node.value === "string"
  ) {
    // `score: number`: a field is defined by a mapping (`items` alone has a shorthand).
    return `Write a field definition: ${key}: {type: ${node.value}}`;
  }
  if (spec.kind === "seqOf" && node.kind === "scalar" && src !== null && node.value !== null) {
    return `Write ${what(spec)}, even for one item: ${key}: [${src.trim()}]`;
  }
  if (item) return `Write ${what(spec)} as each item of '${key}': - ${exampleValue("", spec)}`;
  return `Write ${what(spec)} for '${key}': ${key}: ${exampleValue(key, spec)}`;
}

/** A workflow name close to what was written that matches WORKFLOW_NAME_PATTERN. */
function workflowName(node: SpecNode): string {
  const raw = node.kind === "scalar" && typeof node.value === "string" ? node.value : "";
  let name = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-$/, "");
  if (name === "") name = "my-workflow";
  return name;
}

/** Where a mapping of a shape sits, for "Add … to <place>". */
export function placeOf(shape: ShapeName, path: readonly string[], map: MapNode): string {
  const last = path[path.length - 1] ?? "";
  switch (shape) {
    case "root":
      return "the top level of the document";
    case "function":
      return `function '${last}'`;
    case "flow":
      return `flow '${last}'`;
    case "step": {
      const id = map.get("id")?.value;
      const flow = path[path.length - 3] ?? "";
      return id?.kind === "scalar" && typeof id.value === "string" && id.value !== ""
        ? `step '${id.value}' of flow '${flow}'`
        : `step ${Number(last) + 1} of flow '${flow}'`;
    }
    case "fieldDef":
      return `the definition of '${path.slice(2).join(".")}' in contract '${path[1] ?? ""}'`;
    case "budget":
      return `'${path.join(".")}'`;
    case "workflow":
      return "the workflow block";
    case "workflowInput":
      return `workflow input '${last}'`;
    case "member":
      return `member ${Number(last) + 1} of '${path[path.length - 2] ?? ""}'`;
    case "synthesis":
      return "the synthesis";
    case "judge":
      return "the judge block";
    case "judgePredicate":
      return `predicate ${Number(last) + 1} of the judge`;
    case "judgeBudget":
      return "the judge's budget";
    case "stage":
      return `stage ${last} of the pipeline step`;
    case "fanout":
      return `the fanout of stage ${path[path.length - 2] ?? ""}`;
    case "property":
      return `property '${last}'`;
    case "leadsTo":
      return `the leads_to of property '${path[path.length - 2] ?? ""}'`;
  }
}

/** The help of SCHEMA-REQUIRED: only the missing keys, each with a value to write. */
export function requiredHelp(
  missing: readonly string[],
  keys: ReadonlyMap<string, { readonly value: ValueSpec }>,
  place: string,
): string {
  const parts = missing.map((k) => {
    const spec = keys.get(k)?.value;
    return `${k}: ${spec === undefined ? "<value>" : exampleValue(k, spec)}`;
  });
  return `Add ${parts.join(" and ")} to ${place}`;
}
