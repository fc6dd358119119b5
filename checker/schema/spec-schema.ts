// The declarative description of the spec format, versions 0.1 and 0.2 (language.md §2–§7 and the
// structural table of §9.5.2). It is the single source of truth for the structure phase
// (walk.ts) and for the JSON Schema export (json-schema.ts): every mapping kind lists its keys in
// catalogue order with their value kinds, the keys it requires, the 0.2-only keys, the keys that
// are reported as SCHEMA-FEATURE-UNSUPPORTED and the reference's "beyond-surface" keys that are
// simply unknown.
import type { Version } from "../model/types";

export const VERSIONS: readonly Version[] = ["0.1", "0.2"];

/** The value kinds a key may require. */
export type ValueSpec =
  /** The root `version` (checked first, by the version lookup of §1.2). */
  | { readonly kind: "version" }
  | {
      readonly kind: "string";
      readonly nonEmpty?: boolean;
      /** An ECMAScript source with Python `re.search` semantics (see walk.ts). */
      readonly pattern?: string;
    }
  | { readonly kind: "nullableString" }
  /** An integer (an integral float such as `2.0` counts) that is at least `minimum`. */
  | { readonly kind: "integer"; readonly minimum: number }
  /** An int or float, not a boolean, at least `minimum`. */
  | { readonly kind: "number"; readonly minimum: number }
  | { readonly kind: "boolean" }
  /** A string out of a fixed list (the list may depend on the version). */
  | { readonly kind: "enum"; readonly values: VersionedList }
  /** Anything (its mapping keys must still be strings). */
  | { readonly kind: "any" }
  /** A mapping with free-form content (`input`, `output_schema`). */
  | { readonly kind: "freeMapping" }
  /** A mapping of one of the shapes below. */
  | { readonly kind: "shape"; readonly shape: ShapeName }
  /** A mapping from arbitrary names to values of one kind (`functions`, step `inputs`, …). */
  | { readonly kind: "mapOf"; readonly value: ValueSpec; readonly valueTitle: string }
  /** A sequence whose items all have one kind. */
  | { readonly kind: "seqOf"; readonly item: ValueSpec; readonly nonEmpty?: boolean };

/** A list that may differ between versions. */
export type VersionedList = readonly string[] | { readonly [V in Version]: readonly string[] };

export interface KeySpec {
  readonly name: string;
  readonly value: ValueSpec;
  /** Set for keys that exist only from that version on. */
  readonly since?: Version;
  /** One sentence from the spec (JSON Schema `description`). */
  readonly description: string;
}

/**
 * A key that is required only when another key has one of some values (0.2 infer/compute
 * functions require `output`).
 */
export interface ConditionalRequired {
  readonly key: string;
  readonly versions: readonly Version[];
  readonly when: { readonly key: string; readonly in: readonly string[] };
}

export type ShapeName =
  | "root"
  | "fieldDef"
  | "function"
  | "budget"
  | "flow"
  | "step"
  | "workflow"
  | "workflowInput";

export interface ShapeSpec {
  readonly name: ShapeName;
  readonly title: string;
  readonly description: string;
  /** Catalogue order (the order of the spec's tables). */
  readonly keys: readonly KeySpec[];
  readonly required: VersionedList;
  readonly requiredIf?: readonly ConditionalRequired[];
  /** `error`: any other key is SCHEMA-UNKNOWN-KEY; `any`: other keys are allowed with any value. */
  readonly otherKeys: "error" | "any";
  /** Keys of the reference's extensions: SCHEMA-FEATURE-UNSUPPORTED at the key, value not checked. */
  readonly unsupported?: readonly string[];
  /**
   * The reference's other beyond-surface keys, listed for documentation only: they are ordinary
   * unknown keys (SCHEMA-UNKNOWN-KEY), as in the reference's 0.2 schema.
   */
  readonly beyondSurface?: readonly string[];
}

const STRING: ValueSpec = { kind: "string" };
const NON_EMPTY_STRING: ValueSpec = { kind: "string", nonEmpty: true };
const NULLABLE_STRING: ValueSpec = { kind: "nullableString" };
const POSITIVE_INTEGER: ValueSpec = { kind: "integer", minimum: 1 };
const STRINGS: ValueSpec = { kind: "seqOf", item: STRING };
const BUDGET: ValueSpec = { kind: "shape", shape: "budget" };
const POLICY: ValueSpec = { kind: "enum", values: ["gate", "flag", "skip"] };

export const WORKFLOW_NAME_PATTERN = "^[a-z][a-z0-9-]*$";

const ROOT: ShapeSpec = {
  name: "root",
  title: "Stratum spec",
  description: "A .stratum.yaml spec: contracts, functions and flows.",
  keys: [
    {
      name: "version",
      value: { kind: "version" },
      description: 'Spec format version: "0.1" or "0.2" (quoted).',
    },
    {
      name: "contracts",
      value: {
        kind: "mapOf",
        value: { kind: "mapOf", value: { kind: "shape", shape: "fieldDef" }, valueTitle: "contract field" },
        valueTitle: "contract",
      },
      description: "Named output shapes: each contract maps field names to field definitions.",
    },
    {
      name: "functions",
      value: { kind: "mapOf", value: { kind: "shape", shape: "function" }, valueTitle: "function" },
      description: "Reusable step definitions, by name.",
    },
    {
      name: "flows",
      value: { kind: "mapOf", value: { kind: "shape", shape: "flow" }, valueTitle: "flow" },
      description: "Executable step graphs, by name.",
    },
    {
      name: "workflow",
      since: "0.2",
      value: { kind: "shape", shape: "workflow" },
      description: "Makes the file a discoverable workflow (0.2).",
    },
  ],
  required: ["version"],
  otherKeys: "error",
};

const FIELD_DEF: ShapeSpec = {
  name: "fieldDef",
  title: "Contract field definition",
  description: "The type and constraints of one contract field.",
  keys: [
    {
      name: "type",
      value: STRING,
      description:
        "string, number, integer, boolean, array, object, or the name of a contract declared in the same document.",
    },
    {
      name: "values",
      value: { kind: "seqOf", item: { kind: "any" } },
      description: "The value must equal one of these.",
    },
    {
      name: "items",
      value: { kind: "shape", shape: "fieldDef" },
      description: "Element definition; used only with type: array.",
    },
    {
      name: "required",
      value: { kind: "boolean" },
      description: "false: the field may be missing or null (default true).",
    },
    { name: "description", value: { kind: "any" }, description: "Documentation only, not checked." },
  ],
  required: ["type"],
  // Other keys are allowed and ignored (the semantic warning SPEC-CONTRACT-FIELD-UNKNOWN-KEY).
  otherKeys: "any",
};

const FUNCTION: ShapeSpec = {
  name: "function",
  title: "Function",
  description: "A reusable step definition.",
  keys: [
    {
      name: "mode",
      value: { kind: "enum", values: { "0.1": ["infer", "compute"], "0.2": ["infer", "compute", "gate"] } },
      description: "infer or compute (identical at run time); gate (0.2) for a human approval point.",
    },
    { name: "intent", value: NON_EMPTY_STRING, description: "What the function does, for the agent." },
    {
      name: "input",
      value: { kind: "freeMapping" },
      description: "Declared inputs (documentation; use {} for none).",
    },
    { name: "output", value: STRING, description: "The name of the output contract." },
    { name: "ensure", value: STRINGS, description: "Postcondition expressions over result." },
    {
      name: "retries",
      value: POSITIVE_INTEGER,
      description: "Maximum number of attempts (default 3); not allowed on gate functions.",
    },
    {
      name: "budget",
      value: BUDGET,
      description: "Recorded budget (ms, usd); not allowed on gate functions.",
    },
    { name: "model", value: STRING, description: "Model name, recorded." },
    {
      name: "timeout",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Seconds until a gate may be auto-killed (gate functions only).",
    },
  ],
  required: { "0.1": ["mode", "intent", "input", "output"], "0.2": ["mode"] },
  requiredIf: [{ key: "output", versions: ["0.2"], when: { key: "mode", in: ["infer", "compute"] } }],
  otherKeys: "error",
  unsupported: ["guardrails", "cache"],
};

const BUDGET_SHAPE: ShapeSpec = {
  name: "budget",
  title: "Budget",
  description: "A recorded, not enforced, budget.",
  keys: [
    { name: "ms", value: POSITIVE_INTEGER, description: "Time budget in milliseconds." },
    { name: "usd", value: { kind: "number", minimum: 0 }, description: "Cost budget in US dollars." },
  ],
  required: [],
  otherKeys: "error",
  unsupported: ["max_agent_dispatches", "max_tokens"],
};

const FLOW: ShapeSpec = {
  name: "flow",
  title: "Flow",
  description: "An executable step graph.",
  keys: [
    {
      name: "input",
      value: { kind: "freeMapping" },
      description: "The flow's declared inputs: input name → documentation such as {type: string}.",
    },
    {
      name: "output",
      value: STRING,
      description: "The name of the output contract (documentation; optional in 0.2).",
    },
    { name: "budget", value: BUDGET, description: "Recorded budget (ms, usd)." },
    {
      name: "steps",
      value: { kind: "seqOf", item: { kind: "shape", shape: "step" }, nonEmpty: true },
      description: "The steps, in declaration order.",
    },
    {
      name: "max_rounds",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Maximum number of gate revise resolutions in one execution of the flow.",
    },
  ],
  required: { "0.1": ["input", "output", "steps"], "0.2": ["input", "steps"] },
  otherKeys: "error",
};

const STEP: ShapeSpec = {
  name: "step",
  title: "Step",
  description: "One step of a flow: a function, gate, inline (intent) or sub-flow step.",
  keys: [
    { name: "id", value: STRING, description: "The step id, unique in the flow." },
    {
      name: "function",
      value: STRING,
      description: "The function this step runs (function and gate steps).",
    },
    { name: "intent", since: "0.2", value: STRING, description: "The instruction of an inline step." },
    { name: "flow", since: "0.2", value: STRING, description: "The flow a sub-flow step runs." },
    {
      name: "agent",
      since: "0.2",
      value: STRING,
      description: "Agent name, echoed in payloads and records.",
    },
    {
      name: "inputs",
      value: { kind: "mapOf", value: STRING, valueTitle: "step input" },
      description: "Input name → a $ reference ($.input.x, $.steps.id.output…) or a literal string.",
    },
    { name: "depends_on", value: STRINGS, description: "Ids of steps of the same flow that must run first." },
    {
      name: "output_schema",
      value: { kind: "freeMapping" },
      description: "A JSON Schema (draft 2020-12) the result must satisfy (not on gates).",
    },
    {
      name: "on_approve",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on approve: a step id, or null to complete the flow.",
    },
    {
      name: "on_kill",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on kill: a step id, or null to end the flow.",
    },
    {
      name: "on_revise",
      since: "0.2",
      value: NULLABLE_STRING,
      description: "Gate route on revise: an earlier step id.",
    },
    {
      name: "on_fail",
      since: "0.2",
      value: STRING,
      description: "Where to go when the step exhausts its attempts.",
    },
    { name: "next", since: "0.2", value: STRING, description: "Where to go after success." },
    {
      name: "skip_if",
      since: "0.2",
      value: STRING,
      description: "Expression: a true value skips the step (or auto-approves a gate).",
    },
    { name: "skip_reason", since: "0.2", value: STRING, description: "Reason recorded for a skip." },
    { name: "policy", since: "0.2", value: POLICY, description: "Gate policy: gate, flag or skip." },
    {
      name: "policy_fallback",
      since: "0.2",
      value: POLICY,
      description: "Gate policy fallback: gate, flag or skip (needs policy).",
    },
    {
      name: "ensure",
      since: "0.2",
      value: STRINGS,
      description: "Postcondition expressions (inline and sub-flow steps).",
    },
    {
      name: "retries",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Maximum number of attempts (inline steps).",
    },
    {
      name: "output_contract",
      since: "0.2",
      value: STRING,
      description: "Contract of the result (inline and sub-flow steps).",
    },
    { name: "model", since: "0.2", value: STRING, description: "Model name (inline steps)." },
    { name: "budget", since: "0.2", value: BUDGET, description: "Recorded budget (inline steps)." },
    {
      name: "max_iterations",
      since: "0.2",
      value: POSITIVE_INTEGER,
      description: "Enables the iteration loop: at most this many iterations.",
    },
    {
      name: "exit_criterion",
      since: "0.2",
      value: STRING,
      description: "Expression: a true value ends the iteration loop.",
    },
    {
      name: "accumulate",
      since: "0.2",
      value: STRING,
      description: "Expression giving the list of items found by one iteration.",
    },
    {
      name: "accumulate_key",
      since: "0.2",
      value: STRING,
      description: "Expression over item giving its deduplication key.",
    },
  ],
  required: { "0.1": ["id", "function", "inputs"], "0.2": ["id"] },
  otherKeys: "error",
  unsupported: [
    "guardrails",
    "score_expr",
    "reasoning_template",
    "task_reasoning_template",
    "judge",
    "cache",
  ],
  beyondSurface: [
    "type",
    "source",
    "isolation",
    "require",
    "merge",
    "intent_template",
    "task_timeout",
    "max_concurrent",
    "capture_diff",
    "defer_advance",
    "stages",
    "pre_merge_verify",
  ],
};

const WORKFLOW: ShapeSpec = {
  name: "workflow",
  title: "Workflow",
  description: "Makes the file a discoverable workflow.",
  keys: [
    {
      name: "name",
      value: { kind: "string", pattern: WORKFLOW_NAME_PATTERN },
      description: "Workflow name (lowercase letters, digits, '-'); names the entry flow.",
    },
    { name: "description", value: NON_EMPTY_STRING, description: "What the workflow does." },
    {
      name: "input",
      value: {
        kind: "mapOf",
        value: { kind: "shape", shape: "workflowInput" },
        valueTitle: "workflow input",
      },
      description: "Input name → {type, required?, default?}; must match the entry flow's inputs.",
    },
  ],
  required: ["name", "description", "input"],
  otherKeys: "error",
};

export const WORKFLOW_INPUT_TYPES = ["string", "boolean", "integer", "number", "array", "object"] as const;

const WORKFLOW_INPUT: ShapeSpec = {
  name: "workflowInput",
  title: "Workflow input",
  description: "One workflow input (metadata for tools that list workflows).",
  keys: [
    {
      name: "type",
      value: { kind: "enum", values: WORKFLOW_INPUT_TYPES },
      description: "The input's JSON type.",
    },
    { name: "required", value: { kind: "boolean" }, description: "Whether the input must be given." },
    { name: "default", value: { kind: "any" }, description: "Default value (metadata only)." },
  ],
  required: ["type"],
  otherKeys: "any",
};

export const SHAPES: { readonly [N in ShapeName]: ShapeSpec } = {
  root: ROOT,
  fieldDef: FIELD_DEF,
  function: FUNCTION,
  budget: BUDGET_SHAPE,
  flow: FLOW,
  step: STEP,
  workflow: WORKFLOW,
  workflowInput: WORKFLOW_INPUT,
};

export function forVersion(list: VersionedList, version: Version): readonly string[] {
  return isVersioned(list) ? list[version] : list;
}

function isVersioned(list: VersionedList): list is { readonly [V in Version]: readonly string[] } {
  return !Array.isArray(list);
}

/** A shape as one version sees it: its keys (by name, in catalogue order) and required list. */
export interface ResolvedShape {
  readonly spec: ShapeSpec;
  readonly version: Version;
  readonly keys: ReadonlyMap<string, KeySpec>;
  readonly required: readonly string[];
  /** Keys of this shape that exist only in a later version (for the 0.1 suggestion). */
  readonly laterKeys: ReadonlySet<string>;
  readonly unsupported: ReadonlySet<string>;
}

const resolvedCache = new Map<string, ResolvedShape>();

export function resolveShape(name: ShapeName, version: Version): ResolvedShape {
  const cacheKey = `${version}:${name}`;
  const hit = resolvedCache.get(cacheKey);
  if (hit !== undefined) return hit;
  const spec = SHAPES[name];
  const keys = new Map<string, KeySpec>();
  const laterKeys = new Set<string>();
  for (const key of spec.keys) {
    if (key.since !== undefined && key.since > version) laterKeys.add(key.name);
    else keys.set(key.name, key);
  }
  const resolved: ResolvedShape = {
    spec,
    version,
    keys,
    required: forVersion(spec.required, version),
    laterKeys,
    unsupported: new Set(spec.unsupported ?? []),
  };
  resolvedCache.set(cacheKey, resolved);
  return resolved;
}

/** The conditional requirements of a shape that apply in this version. */
export function conditionalRequired(shape: ResolvedShape): readonly ConditionalRequired[] {
  return (shape.spec.requiredIf ?? []).filter((c) => c.versions.includes(shape.version));
}

/** The allowed values of an enum key of a shape in a version (empty when the key is no enum). */
export function enumValues(name: ShapeName, key: string, version: Version): readonly string[] {
  const spec = resolveShape(name, version).keys.get(key)?.value;
  return spec?.kind === "enum" ? forVersion(spec.values, version) : [];
}
