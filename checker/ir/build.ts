// Builds the checked IR (ir/types.ts) from the model of a spec without errors. Only valid fields
// are read (the spec has no errors, so every present field is valid); defaults follow
// docs/reference/language.md §4–docs/reference/language.md §7 (the retry counts are the ones schema/spec-schema.ts documents). The result is
// frozen: nothing downstream can change it.

import { PyFloat } from "../../stdlib/values/value";
import { JSON_FIELD_TYPES, type JsonObject, type JsonValue } from "../base/json";
import type { FlowGraph } from "../graph/types";
import { CHECKER_KINDS } from "../kinds/index";
import type { KindIRPart, KindRetries } from "../kinds/types";
import type {
  ContractDecl,
  Field,
  FieldDefDecl,
  FlowDecl,
  FunctionDecl,
  SpecModel,
  StepDecl,
} from "../model/types";
import {
  DEFAULT_FUNCTION_RETRIES,
  DEFAULT_GATE_POLICY,
  DEFAULT_ISOLATION,
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_MERGE,
  DEFAULT_REQUIRE,
  DEFAULT_TASK_TIMEOUT,
} from "../schema/spec-schema";
import { contractRecords } from "../spec-expr/contracts";
import type { CheckedExpression, CheckedProperty, ExpressionTable } from "../spec-expr/types";
import type { MapNode, ScalarNode } from "../yaml/nodes";
import { toJson } from "../yaml/to-json";
import { deepFreeze } from "./freeze";
import { judgeIR } from "./judge-ir";
import { debateIR, raceIR } from "./members-ir";
import { pipelineIR } from "./pipeline-ir";
import { quorumIR } from "./quorum-ir";
import { reasoningTemplateIR } from "./reasoning-ir";
import type {
  BudgetIR,
  CheckedSpec,
  ContractIR,
  ExpressionIR,
  FieldDefIR,
  FieldKind,
  FlowIR,
  FunctionIR,
  ParallelDispatchIR,
  PropertyIR,
  StepIR,
  WorkflowIR,
  WrittenNumberIR,
} from "./types";

const EMPTY_OBJECT: JsonObject = Object.freeze(Object.create(null) as JsonObject);

export function buildIR(
  model: SpecModel,
  expressions: ExpressionTable,
  graphOf: (flow: FlowDecl) => FlowGraph,
): CheckedSpec {
  const records = contractRecords(model);
  const contracts = new Map<string, ContractIR>();
  for (const c of model.contracts) {
    const record = records.get(c.name);
    if (record !== undefined) contracts.set(c.name, contractIR(c, record));
  }
  const functions = new Map<string, FunctionIR>();
  for (const fn of model.functions) functions.set(fn.name, functionIR(fn, expressions));
  const flows = new Map<string, FlowIR>();
  for (const flow of model.flows) flows.set(flow.name, flowIR(flow, expressions, graphOf(flow)));
  const spec: CheckedSpec = {
    version: model.version,
    contracts,
    functions,
    flows,
    workflow: workflowIR(model, flows),
    properties: propertiesIR(expressions.properties),
  };
  return deepFreeze(spec);
}

function fieldDefIR(def: FieldDefDecl | null): FieldDefIR {
  const type = def?.type?.value ?? "object";
  const kind: FieldKind = JSON_FIELD_TYPES.has(type) ? (type as FieldKind) : "contract";
  const values = def?.seq("values");
  return {
    type,
    ...(def?.shorthand?.kind === "enum" ? { writtenType: "enum" } : {}),
    kind,
    values: values ? (values.value.items.map(toJson) as JsonValue[]) : null,
    items: kind === "array" && def?.items ? fieldDefIR(def.items) : null,
    required: def?.boolean("required")?.value ?? true,
  };
}

function contractIR(c: ContractDecl, record: ContractIR["record"]): ContractIR {
  const fields = new Map<string, FieldDefIR>();
  for (const f of c.fields) fields.set(f.name, fieldDefIR(f.def));
  return { name: c.name, fields, record, range: c.decl.key.range };
}

function budgetIR(budget: Field<MapNode> | null): BudgetIR | null {
  if (budget === null) return null;
  const num = (k: string): number | null => {
    const entry = budget.value.get(k);
    if (entry === undefined) return null;
    const j = toJson(entry.value);
    return typeof j === "number" ? j : null;
  };
  return {
    ms: num("ms"),
    usd: num("usd"),
    max_agent_dispatches: num("max_agent_dispatches"),
    max_tokens: num("max_tokens"),
  };
}

function expressionIR(e: CheckedExpression | null): ExpressionIR | null {
  if (e === null || e.ast === null) return null;
  return { kind: e.kind, text: e.text, ast: e.ast, type: e.type, range: e.node.range };
}

function propertiesIR(list: readonly CheckedProperty[]): Map<string, PropertyIR> {
  const out = new Map<string, PropertyIR>();
  for (const p of list) {
    const [first, second] = p.expressions;
    const condition = expressionIR(first ?? null);
    const to = expressionIR(second ?? null);
    // A valid spec has every expression (a missing one was reported).
    if (condition === null || (p.kind === "leads_to") !== (to !== null)) continue;
    out.set(p.name, { name: p.name, flow: p.flow, kind: p.kind, condition, to, range: p.decl.key.range });
  }
  return out;
}

function expressionList(list: readonly CheckedExpression[]): ExpressionIR[] {
  const out: ExpressionIR[] = [];
  for (const e of list) {
    const ir = expressionIR(e);
    if (ir !== null) out.push(ir);
  }
  return out;
}

function jsonObject(field: Field<MapNode> | null): JsonObject {
  if (field === null) return EMPTY_OBJECT;
  const j = toJson(field.value);
  return j !== null && typeof j === "object" && !Array.isArray(j) ? (j as JsonObject) : EMPTY_OBJECT;
}

function functionIR(fn: FunctionDecl, expressions: ExpressionTable): FunctionIR {
  const mode = fn.mode ?? "infer";
  return {
    name: fn.name,
    mode,
    intent: fn.string("intent")?.value ?? "",
    input: jsonObject(fn.map("input")),
    output: fn.string("output")?.value ?? "",
    ensure: expressionList(expressions.functionEnsure(fn)),
    guardrails: stringList(fn.strings("guardrails")),
    retries: fn.integer("retries")?.value ?? DEFAULT_FUNCTION_RETRIES,
    budget: budgetIR(fn.map("budget")),
    model: fn.string("model")?.value ?? null,
    timeout: fn.integer("timeout")?.value ?? null,
    cache: fn.boolean("cache")?.value ?? false,
    range: fn.decl.key.range,
  };
}

function stringList(field: Field<readonly ScalarNode[]> | null): string[] {
  if (field === null) return [];
  return field.value.map((n) => String(n.value));
}

/** The attempts a step gets: its kind's default (checker/kinds/<kind>.ts, `retries`). */
export function stepRetries(step: StepDecl, retries: KindRetries): number {
  if ("fixed" in retries) return retries.fixed;
  if (retries.from === "step") return step.integer("retries")?.value ?? retries.default;
  return step.fn?.integer("retries")?.value ?? DEFAULT_FUNCTION_RETRIES;
}

type KindParts = Pick<StepIR, KindIRPart>;

/** How each kind-specific part of StepIR is built from a step of its kind. */
const PART_BUILDERS: { readonly [P in KindIRPart]: (step: StepDecl, x: ExpressionTable) => StepIR[P] } = {
  parallel: (step, x) => parallelIR(step, x),
  pipeline: (step, x) => pipelineIR(step, x, parallelIR(step, x)),
  quorum: (step, x) => quorumIR(step, expressionIR(x.step(step).agreeOn ?? null)),
  race: (step) => raceIR(step),
  debate: (step, x) => debateIR(step, expressionIR(x.debateConverge(step))),
  judge: (step) => judgeIR(step),
};

/** The kind's own part of StepIR, every other part null (the keys in StepIR's order). */
function kindParts(step: StepDecl, part: KindIRPart | null, expressions: ExpressionTable): KindParts {
  const parts: { -readonly [P in KindIRPart]: StepIR[P] } = {
    parallel: null,
    pipeline: null,
    quorum: null,
    race: null,
    debate: null,
    judge: null,
  };
  if (part !== null) Object.assign(parts, { [part]: PART_BUILDERS[part](step, expressions) });
  return parts;
}

function stepIR(step: StepDecl, expressions: ExpressionTable, graph: FlowGraph): StepIR {
  const kind = step.kind ?? "inline";
  const id = step.id ?? String(step.index);
  const e = expressions.step(step);
  const dependsOn = stringList(step.strings("depends_on"));
  const deps = new Set<string>();
  for (const edge of graph.edges) if (edge.from === step && edge.to.id !== null) deps.add(edge.to.id);
  const policy = (k: string) => (step.string(k)?.value ?? null) as StepIR["policy"];
  const retries = stepRetries(step, CHECKER_KINDS[kind].retries);
  const inputs = expressions.inputs(step).map((i) => ({ name: i.name, raw: i.raw, ref: i.ref }));
  return {
    id,
    index: step.index,
    kind,
    function: step.string("function")?.value || null,
    intent: step.string("intent")?.value || null,
    flow: step.string("flow")?.value || null,
    agent: step.string("agent")?.value ?? null,
    inputs,
    dependsOn,
    dependencies: [...deps],
    outputSchema: step.map("output_schema") === null ? null : jsonObject(step.map("output_schema")),
    onApprove: step.nullableString("on_approve")?.value ?? null,
    onRevise: step.nullableString("on_revise")?.value ?? null,
    onKill: step.nullableString("on_kill")?.value ?? null,
    onFail: step.string("on_fail")?.value ?? null,
    next: step.string("next")?.value ?? null,
    skipIf: expressionIR(e.skipIf),
    skipReason: step.string("skip_reason")?.value ?? null,
    policy: kind === "gate" ? (policy("policy") ?? DEFAULT_GATE_POLICY) : policy("policy"),
    policyFallback: policy("policy_fallback"),
    ensure: expressionList(e.ensure),
    guardrails: stringList(step.strings("guardrails")),
    retries,
    outputContract: CHECKER_KINDS[kind].outputContract(step),
    model: step.string("model")?.value ?? null,
    budget: budgetIR(step.map("budget")),
    maxIterations: step.integer("max_iterations")?.value ?? null,
    exitCriterion: expressionIR(e.exitCriterion),
    accumulate: expressionIR(e.accumulate),
    accumulateKey: expressionIR(e.accumulateKey),
    scoreExpr: expressionIR(e.scoreExpr),
    cache: step.boolean("cache")?.value ?? false,
    preMergeVerify: preMergeVerifyIR(step),
    reasoningTemplate: reasoningTemplateIR(step.map("reasoning_template")?.value ?? null),
    ...kindParts(step, CHECKER_KINDS[kind].irPart, expressions),
    resultType: expressions.resultType(step),
    range: step.node.range,
  };
}

/** `pre_merge_verify` as written: one string (resolved at dispatch) or a list of commands. */
function preMergeVerifyIR(step: StepDecl): string | readonly string[] | null {
  if (!step.valid("pre_merge_verify")) return null;
  const single = step.string("pre_merge_verify");
  if (single !== null) return single.value;
  return stringList(step.strings("pre_merge_verify"));
}

/** A number as written (`2.0` stays a float), or null when the field is absent or not a number. */
function writtenNumber(step: StepDecl, key: string): WrittenNumberIR | null {
  const node = step.entry(key)?.value;
  if (node?.kind !== "scalar") return null;
  const v = node.value;
  if (v instanceof PyFloat) return { value: v.v, float: true };
  if (typeof v === "number") return { value: v, float: false };
  if (typeof v === "bigint") return { value: Number(v), float: false };
  return null;
}

/** The keys of a parallel_dispatch step with the reference's dispatch defaults (spec-schema.ts). */
function parallelIR(step: StepDecl, expressions: ExpressionTable): ParallelDispatchIR {
  const source = expressions.parallelSource(step);
  const requireWord = step.string("require")?.value;
  const timeout = step.integer("task_timeout")?.value;
  return {
    source: source?.raw ?? step.string("source")?.value ?? "",
    sourceRef: source?.ref ?? null,
    intentTemplate: step.string("intent_template")?.value ?? "",
    maxConcurrent: writtenNumber(step, "max_concurrent") ?? { value: DEFAULT_MAX_CONCURRENT, float: false },
    isolation: (step.string("isolation")?.value ?? DEFAULT_ISOLATION) as ParallelDispatchIR["isolation"],
    require:
      requireWord === "all" || requireWord === "any"
        ? requireWord
        : (writtenNumber(step, "require") ?? DEFAULT_REQUIRE),
    merge: (step.string("merge")?.value ?? DEFAULT_MERGE) as ParallelDispatchIR["merge"],
    taskTimeout: timeout ?? DEFAULT_TASK_TIMEOUT,
    captureDiff: step.boolean("capture_diff")?.value ?? false,
    deferAdvance: step.boolean("defer_advance")?.value ?? false,
    taskReasoningTemplate: reasoningTemplateIR(step.map("task_reasoning_template")?.value ?? null),
    validate: expressionIR(expressions.parallelValidate(step)),
    memberContract: step.string("member_contract")?.value || null,
  };
}

function flowIR(flow: FlowDecl, expressions: ExpressionTable, graph: FlowGraph): FlowIR {
  // A spec without errors has no cycle, so `order` is present; declaration order is the fallback.
  const ordered = graph.order ?? flow.steps;
  const steps = ordered.map((s) => stepIR(s, expressions, graph));
  return {
    name: flow.name,
    input: jsonObject(flow.map("input")),
    inputNames: [...flow.inputNames],
    output: flow.string("output")?.value ?? "",
    budget: budgetIR(flow.map("budget")),
    maxRounds: flow.integer("max_rounds")?.value ?? null,
    steps,
    stepById: new Map(steps.map((s) => [s.id, s])),
    range: flow.decl.key.range,
  };
}

function workflowIR(model: SpecModel, flows: ReadonlyMap<string, FlowIR>): WorkflowIR | null {
  const w = model.workflow;
  if (w === null) return null;
  const name = w.string("name")?.value ?? "";
  const entry = flows.has(name) ? name : flows.size === 1 ? ([...flows.keys()][0] ?? "") : "";
  return {
    name,
    description: w.string("description")?.value ?? "",
    input: jsonObject(w.map("input")),
    entry,
  };
}
