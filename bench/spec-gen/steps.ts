// Adds one step to a flow: its kind, inputs and dependencies, and the optional fields of that kind
// (routing, gates, skip_if, iterations, output_schema), each well-formed for a valid spec.
import type { SpecBuilder } from "./builder";
import { ensureList, iterationExprs, untypedEnsure } from "./expressions";
import type { Contract, Entry, FlowModel, Rendered, StepKind, StepModel } from "./model";
import { uniqueName } from "./names";
import { blockScalar, doubleQuoted, flowScalar, inline, prose } from "./scalars";
import { AGENTS, COMMENTS, MODELS, NOUNS, PHRASES, VERBS } from "./words";

const stepIds = new WeakMap<FlowModel, Set<string>>();

function idsOf(flow: FlowModel): Set<string> {
  let ids = stepIds.get(flow);
  if (ids === undefined) {
    ids = new Set(flow.steps.map((s) => s.id));
    stepIds.set(flow, ids);
  }
  return ids;
}

function chooseKind(b: SpecBuilder, flow: FlowModel): StepKind {
  if (!b.v2) return "function";
  const { rng } = b;
  const hasNonGate = flow.steps.some((s) => s.kind !== "gate");
  const last = flow.steps[flow.steps.length - 1];
  const r = rng.next();
  if (flow.leaf) return r < 0.6 ? "function" : "inline";
  if (r < 0.45) return "function";
  if (r < 0.7) return "inline";
  if (r < 0.85 && hasNonGate && last?.kind !== "gate") return "gate";
  return r < 0.95 ? "flow" : "inline";
}

/** The steps whose output this step may read: earlier non-gate steps. */
function readable(flow: FlowModel): StepModel[] {
  return flow.steps.filter((s) => s.kind !== "gate");
}

interface Deps {
  /** Steps this step depends on directly (inputs references and depends_on). */
  readonly direct: Set<string>;
}

function stepInputs(b: SpecBuilder, flow: FlowModel, deps: Deps, names?: readonly string[]): Entry | null {
  const { rng, model } = b;
  const pairs: [string, string][] = [];
  const used = new Set<string>();
  const fromInputs = names ?? rng.sample(flow.inputs, rng.int(0, 2)).map((i) => i.name);
  for (const n of fromInputs) {
    const own = flow.inputs.find((i) => i.name === n) ?? rng.pick(flow.inputs);
    pairs.push([uniqueName(used, n), `$.input.${own.name}`]);
  }
  const earlier = readable(flow);
  if (earlier.length > 0 && names === undefined && rng.chance(0.65)) {
    const src = rng.chance(0.7) ? earlier[earlier.length - 1]! : rng.pick(earlier);
    const contract = src.resultContract === null ? undefined : model.contracts.get(src.resultContract);
    const field = contract !== undefined && rng.chance(0.5) ? rng.pick(contract.fields) : undefined;
    pairs.push([
      uniqueName(used, field?.name ?? rng.pick(NOUNS)),
      `$.steps.${src.id}.output${field ? `.${field.name}` : ""}`,
    ]);
    deps.direct.add(src.id);
  }
  if (rng.chance(0.12))
    pairs.push([uniqueName(used, "style"), rng.pick(["concise", "markdown", "bullet points"])]);
  if (pairs.length === 0) return b.v2 && rng.chance(0.6) ? null : { key: "inputs", value: inline("{}") };
  if (rng.chance(0.45)) {
    return {
      key: "inputs",
      value: inline(`{${pairs.map(([k, v]) => `${k}: ${flowScalar(rng, v)}`).join(", ")}}`),
    };
  }
  return {
    key: "inputs",
    value: { head: "", body: pairs.map(([k, v]) => `${k}: ${blockScalar(rng, v, false).head}`) },
  };
}

function dependsOn(b: SpecBuilder, flow: FlowModel, deps: Deps): Entry | null {
  const { rng } = b;
  if (flow.steps.length === 0 || !rng.chance(0.25)) return null;
  const ids = rng.sample(
    flow.steps.map((s) => s.id),
    rng.int(1, 2),
  );
  for (const id of ids) deps.direct.add(id);
  return rng.chance(0.6)
    ? { key: "depends_on", value: inline(`[${ids.join(", ")}]`) }
    : { key: "depends_on", value: { head: "", body: ids.map((id) => `- ${id}`) } };
}

/** A skip_if over a flag input or a direct dependency's output, or null when none fits. */
function skipIf(b: SpecBuilder, flow: FlowModel, deps: Deps): string | null {
  const { rng, model } = b;
  const flag = flow.inputs.find((i) => i.type === "boolean");
  const typedDeps = flow.steps.filter((s) => deps.direct.has(s.id) && s.resultContract !== null);
  if (typedDeps.length > 0 && rng.chance(0.5)) {
    const d = rng.pick(typedDeps);
    const f = model.contracts
      .get(d.resultContract!)
      ?.fields.find((x) => x.type === "boolean" || x.type === "number");
    if (f !== undefined) {
      const ref = `$.steps.${d.id}.output.${f.name}`;
      return f.type === "boolean" ? rng.pick([`${ref} == True`, ref]) : `${ref} >= 0.95`;
    }
  }
  if (flag === undefined) return null;
  return rng.pick([`$.input.${flag.name} == True`, `$.input.${flag.name}`, `not $.input.${flag.name}`]);
}

function outputSchema(b: SpecBuilder, contract: Contract | undefined): Rendered {
  const { rng } = b;
  const props =
    contract?.fields.filter((f) => !f.block && f.type !== "array" && f.items === undefined).slice(0, 2) ?? [];
  const json = (t: string) =>
    ["string", "number", "integer", "boolean", "object"].includes(t) ? t : "object";
  const lines = props.map((f) => `  ${f.name}: {type: ${json(f.type)}}`);
  if (lines.length === 0 || (rng.chance(0.3) && !props.some((f) => f.name === "notes"))) {
    lines.push("  notes: {type: string, maxLength: 2000}");
  }
  const required = props.length > 0 ? [`required: [${props[0]!.name}]`] : [];
  return { head: "", body: ["type: object", ...required, "properties:", ...lines] };
}

function iteration(b: SpecBuilder, contract: Contract | undefined, entries: Entry[]): void {
  const { rng, model } = b;
  entries.push({ key: "max_iterations", value: inline(String(rng.int(2, 6))) });
  if (contract === undefined) {
    entries.push({ key: "exit_criterion", value: blockScalar(rng, "len(result) > 0") });
    return;
  }
  const it = iterationExprs(rng, contract, model.contracts);
  entries.push({ key: "exit_criterion", value: blockScalar(rng, it.exitCriterion) });
  if (it.accumulate !== undefined)
    entries.push({ key: "accumulate", value: blockScalar(rng, it.accumulate) });
  if (it.accumulateKey !== undefined)
    entries.push({ key: "accumulate_key", value: blockScalar(rng, it.accumulateKey) });
}

/** Appends a new step to `flow` (and whatever functions, contracts or sub-flows it needs). */
export function addStep(b: SpecBuilder, flow: FlowModel): void {
  const { rng, model } = b;
  const kind = chooseKind(b, flow);
  const id = uniqueName(idsOf(flow), `${rng.pick(VERBS)}${rng.chance(0.5) ? `_${rng.pick(NOUNS)}` : ""}`);
  const deps: Deps = { direct: new Set() };
  const entries: Entry[] = [{ key: "id", value: inline(id) }];
  let resultContract: string | null = null;
  let validated = false;
  let onApprove: Rendered | undefined;
  const earlier = readable(flow);

  if (kind === "function") {
    const fn = b.someFunction();
    entries.push({ key: "function", value: inline(fn.name) });
    resultContract = fn.output;
    validated = fn.entries.some((e) => e.key === "ensure");
  } else if (kind === "gate") {
    entries.push({ key: "function", value: inline(b.gate().name) });
  } else if (kind === "inline") {
    entries.push({ key: "intent", value: prose(rng, rng.pick(PHRASES)) });
  } else {
    const leaves = model.flows.filter((f) => f.leaf);
    const child = leaves.length > 0 && rng.chance(0.4) ? rng.pick(leaves) : newLeafFlow(b);
    entries.push({ key: "flow", value: inline(child.name) });
    const inputs = stepInputs(
      b,
      flow,
      deps,
      child.inputs.map((i) => i.name),
    );
    if (inputs !== null) entries.push(inputs);
  }
  if (kind !== "flow" && b.v2 && kind !== "gate" && rng.chance(0.15)) {
    entries.push({ key: "agent", value: inline(rng.pick(AGENTS)) });
  }
  if (kind !== "flow") {
    const inputs = kind === "gate" && rng.chance(0.7) ? null : stepInputs(b, flow, deps);
    if (inputs !== null) entries.push(inputs);
  }
  const dep = dependsOn(b, flow, deps);
  if (dep !== null) entries.push(dep);

  if (kind === "inline" || kind === "flow") {
    const contract = rng.chance(kind === "inline" ? 0.6 : 0.4) ? b.someContract() : undefined;
    if (contract !== undefined) {
      entries.push({ key: "output_contract", value: inline(contract.name) });
      resultContract = contract.name;
    }
    if (rng.chance(0.55)) {
      const exprs = contract ? ensureList(rng, contract, model.contracts, 2) : [untypedEnsure(rng)];
      entries.push({ key: "ensure", value: b.expressionList(exprs) });
      validated = true;
    }
    if (kind === "inline") {
      if (rng.chance(0.3)) entries.push({ key: "retries", value: inline(String(rng.int(1, 3))) });
      if (rng.chance(0.12)) entries.push({ key: "model", value: inline(rng.pick(MODELS)) });
      if (rng.chance(0.08)) entries.push({ key: "budget", value: b.budget() });
    }
  }
  const contract = resultContract === null ? undefined : model.contracts.get(resultContract);
  if (kind !== "gate" && rng.chance(0.1)) {
    entries.push({ key: "output_schema", value: outputSchema(b, contract) });
    validated = true;
  }
  if (kind === "gate") {
    const target = rng.chance(0.7) ? earlier[earlier.length - 1]! : rng.pick(earlier);
    onApprove = inline(rng.pick(["~", "null"]));
    entries.push({ key: "on_approve", value: onApprove });
    entries.push({ key: "on_revise", value: inline(target.id) });
    entries.push({ key: "on_kill", value: inline(rng.pick(["~", "null"])) });
    // A revise loop without a bound gets SPEC-REVISE-UNBOUNDED: the corpus bounds every one.
    if (!flow.header.some((e) => e.key === "max_rounds"))
      flow.header.push({ key: "max_rounds", value: inline("3") });
    if (rng.chance(0.25)) {
      entries.push({ key: "policy", value: inline(rng.pick(["gate", "flag", "skip"])) });
      if (rng.chance(0.3)) entries.push({ key: "policy_fallback", value: inline("gate") });
    }
  }
  if (b.v2 && flow.steps.length > 0 && rng.chance(0.12)) {
    const cond = skipIf(b, flow, deps);
    if (cond !== null) {
      entries.push({ key: "skip_if", value: blockScalar(rng, cond) });
      if (rng.chance(0.5))
        entries.push({ key: "skip_reason", value: inline(doubleQuoted(rng.pick(COMMENTS))) });
    }
  }
  if (b.v2 && kind !== "gate" && rng.chance(0.12)) iteration(b, contract, entries);
  if (b.v2 && kind !== "gate" && validated && earlier.length > 0 && rng.chance(0.2)) {
    entries.push({ key: "on_fail", value: inline(rng.pick(earlier).id) });
  } else if (
    b.v2 &&
    kind === "inline" &&
    earlier.length > 0 &&
    entries.some((e) => e.key === "skip_if") &&
    rng.chance(0.6)
  ) {
    // Back to an earlier step on every pass would be a loop no run leaves
    // (SPEC-FLOW-NEVER-COMPLETES): only a step that its skip_if may skip (and so fall through)
    // loops back.
    entries.push({ key: "next", value: inline(rng.pick(earlier).id) });
  }

  // A gate that was last routes its approval to the new step (otherwise the new step is unreachable).
  const last = flow.steps[flow.steps.length - 1];
  if (last?.onApprove !== undefined) last.onApprove.head = id;
  const comment = rng.chance(0.08) ? rng.pick(COMMENTS) : undefined;
  flow.steps.push({
    id,
    kind,
    resultContract,
    entries,
    ...(onApprove ? { onApprove } : {}),
    ...(comment ? { comment } : {}),
  });
}

/** A small flow for sub-flow steps to call: one to three function or inline steps. */
function newLeafFlow(b: SpecBuilder): FlowModel {
  const leaf = b.newFlow(true);
  const n = b.rng.int(1, 3);
  for (let i = 0; i < n; i++) addStep(b, leaf);
  return leaf;
}
