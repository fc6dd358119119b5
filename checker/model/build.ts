// Builds the spec model (model/types.ts) at the end of the structure phase: typed views of the
// contracts, functions, flows, steps and workflow block, in declaration order, with resolved step
// kinds, functions and target flows. Name maps are Maps (names may be any string, `__proto__`
// included). Nothing here reports: cascades are avoided by the validity of fields.

import { PyFloat } from "../../stdlib/values/value";
import { isTypedStepKind } from "../base/step-kinds";
import type { Version } from "../base/version";
import { enumValues } from "../schema/resolve-shape";
import type { StructureFindings } from "../schema/walk";
import type { SpecSource } from "../source";
import type { MapEntry, MapNode, SeqNode, SpecNode } from "../yaml/nodes";
import { MapFields } from "./fields";
import type {
  ContractDecl,
  ContractFieldDecl,
  Field,
  FieldDefDecl,
  FieldShorthand,
  FlowDecl,
  FunctionDecl,
  FunctionMode,
  SpecModel,
  StepDecl,
  StepKind,
  TypedStepKind,
  WorkflowDecl,
} from "./types";

type Tainted = ReadonlySet<SpecNode>;

class FieldDef extends MapFields implements FieldDefDecl {
  readonly type: Field<string> | null;
  readonly shorthand: FieldShorthand | null;
  private itemsDecl: FieldDefDecl | null | undefined;

  constructor(
    node: MapNode,
    private readonly version: Version,
    private readonly taintedNodes: Tainted,
    private readonly contractNames: ReadonlySet<string>,
    itemsShorthand: MapEntry | null = null,
  ) {
    super(node, "fieldDef", version, taintedNodes);
    const type = this.string("type");
    const enumType =
      type !== null && type.value === "enum" && !contractNames.has("enum") ? this.enumType() : null;
    if (itemsShorthand !== null && type !== null) {
      this.type = type;
      this.shorthand = { kind: "items", entry: itemsShorthand, canonical: `{type: ${type.value}}` };
    } else if (type !== null && enumType !== null) {
      this.type = { value: enumType, entry: type.entry };
      this.shorthand = { kind: "enum", entry: type.entry, canonical: enumType };
    } else {
      this.type = type;
      this.shorthand = null;
    }
  }

  /** The type of the `values` of `type: enum` when they all have one (nulls aside), else null. */
  private enumType(): string | null {
    const values = this.seq("values");
    if (values === null) return null;
    const kinds = new Set<string>();
    for (const item of values.value.items) {
      if (item.kind !== "scalar") return null;
      const v = item.value;
      if (v === null) continue;
      if (typeof v === "string") kinds.add("string");
      else if (typeof v === "boolean") kinds.add("boolean");
      else if (typeof v === "number" || typeof v === "bigint") kinds.add("integer");
      else if (v instanceof PyFloat) kinds.add("number");
      else return null;
    }
    if (kinds.size === 1) return [...kinds][0] ?? null;
    if (kinds.size === 2 && kinds.has("integer") && kinds.has("number")) return "number";
    return null;
  }

  /** Built on first use: `items` may nest as deep as the document does. */
  get items(): FieldDefDecl | null {
    if (this.itemsDecl === undefined) {
      const entry = this.entry("items");
      const items = entry?.value;
      if (items?.kind === "map") {
        this.itemsDecl = new FieldDef(items, this.version, this.taintedNodes, this.contractNames);
      } else if (entry !== undefined && items?.kind === "scalar" && typeof items.value === "string") {
        // The reference's shorthand `items: <type>` means `items: {type: <type>}`.
        const synthetic = shorthandMap(items);
        this.itemsDecl = new FieldDef(synthetic, this.version, this.taintedNodes, this.contractNames, entry);
      } else {
        this.itemsDecl = null;
      }
    }
    return this.itemsDecl;
  }
}

/** `{type: <scalar>}` for the shorthand `items: <type>`: the scalar is both key and value node. */
function shorthandMap(scalar: SpecNode): MapNode {
  const entry: MapEntry = { key: scalar, name: "type", value: scalar };
  return {
    kind: "map",
    range: scalar.range,
    flow: true,
    entries: [entry],
    get: (name: string) => (name === "type" ? entry : undefined),
  };
}

class FunctionModel extends MapFields implements FunctionDecl {
  readonly mode: FunctionMode | null;

  constructor(
    readonly name: string,
    readonly decl: MapEntry & { readonly value: MapNode },
    version: Version,
    tainted: Tainted,
  ) {
    super(decl.value, "function", version, tainted);
    const mode = this.string("mode")?.value;
    this.mode =
      mode !== undefined && enumValues("function", "mode", version).includes(mode)
        ? (mode as FunctionMode)
        : null;
  }
}

class FlowModel extends MapFields implements FlowDecl {
  readonly steps: StepDecl[] = [];
  readonly stepsNode: SeqNode | null;
  readonly stepById = new Map<string, StepDecl>();
  readonly inputNames: readonly string[];

  constructor(
    readonly name: string,
    readonly decl: MapEntry & { readonly value: MapNode },
    version: Version,
    tainted: Tainted,
  ) {
    super(decl.value, "flow", version, tainted);
    // The sequence is kept even when an item is broken: the other steps still need their anchors.
    const steps = this.entry("steps")?.value;
    this.stepsNode = steps?.kind === "seq" ? steps : null;
    const input = this.entry("input")?.value;
    this.inputNames = input?.kind === "map" ? stringKeys(input) : [];
  }
}

class StepModel extends MapFields implements StepDecl {
  readonly id: string | null;
  kind: StepKind | null = null;
  fn: FunctionDecl | null = null;
  target: FlowDecl | null = null;

  constructor(
    readonly flow: FlowDecl,
    readonly index: number,
    node: MapNode,
    version: Version,
    tainted: Tainted,
  ) {
    super(node, "step", version, tainted);
    this.id = this.string("id")?.value ?? null;
  }
}

class WorkflowModel extends MapFields implements WorkflowDecl {
  constructor(
    readonly decl: MapEntry & { readonly value: MapNode },
    version: Version,
    tainted: Tainted,
  ) {
    super(decl.value, "workflow", version, tainted);
  }
}

export function buildModel(
  source: SpecSource,
  root: MapNode,
  version: Version,
  findings: StructureFindings,
): SpecModel {
  const tainted = findings.tainted;
  const contracts = buildContracts(root, version, tainted);
  const functions: FunctionDecl[] = [];
  for (const entry of mapEntries(root, "functions")) {
    if (isMapEntry(entry)) functions.push(new FunctionModel(entry.name, entry, version, tainted));
  }
  const flows: FlowModel[] = [];
  for (const entry of mapEntries(root, "flows")) {
    if (isMapEntry(entry)) flows.push(new FlowModel(entry.name, entry, version, tainted));
  }
  const functionByName = byName(functions);
  const flowByName = byName<FlowDecl>(flows);
  for (const flow of flows) buildSteps(flow, version, tainted, functionByName, flowByName);
  const workflowEntry = version !== "0.1" ? root.get("workflow") : undefined;
  const workflow =
    workflowEntry !== undefined && isMapEntry(workflowEntry)
      ? new WorkflowModel(workflowEntry, version, tainted)
      : null;
  return {
    source,
    version,
    root,
    contracts,
    functions,
    flows,
    workflow,
    contractByName: byName(contracts),
    functionByName,
    flowByName,
    invalid: findings.invalid,
  };
}

function buildContracts(root: MapNode, version: Version, tainted: Tainted): ContractDecl[] {
  const out: ContractDecl[] = [];
  const names = new Set<string>();
  for (const decl of mapEntries(root, "contracts")) if (decl.name !== null) names.add(decl.name);
  for (const decl of mapEntries(root, "contracts")) {
    if (decl.name === null) continue;
    const node = decl.value.kind === "map" ? decl.value : null;
    const fields: ContractFieldDecl[] = [];
    for (const field of node?.entries ?? []) {
      if (field.name === null) continue;
      const def = field.value.kind === "map" ? new FieldDef(field.value, version, tainted, names) : null;
      fields.push({ name: field.name, decl: field, def });
    }
    out.push({ name: decl.name, decl, node, fields });
  }
  return out;
}

const SELECTORS = ["function", "intent", "flow", "judge"] as const;

function buildSteps(
  flow: FlowModel,
  version: Version,
  tainted: Tainted,
  functions: ReadonlyMap<string, FunctionDecl>,
  flows: ReadonlyMap<string, FlowDecl>,
): void {
  const items = flow.stepsNode?.items ?? [];
  items.forEach((item, index) => {
    if (item.kind !== "map") return; // reported as SCHEMA-TYPE
    const step = new StepModel(flow, index, item, version, tainted);
    resolveKind(step, functions, flows);
    flow.steps.push(step);
    if (step.id !== null && !flow.stepById.has(step.id)) flow.stepById.set(step.id, step);
  });
}

/**
 * A 0.3 `type: decompose | parallel_dispatch` decides the kind first (the other selectors are then
 * ignored, as the reference's step mode does). Otherwise exactly one of function / intent / flow
 * selects the kind (an empty string counts as absent; in 0.1 only `function` is a key). A selector
 * or `type` with a structural error makes the kind unknown.
 */
function resolveKind(
  step: StepModel,
  functions: ReadonlyMap<string, FunctionDecl>,
  flows: ReadonlyMap<string, FlowDecl>,
): void {
  const typed = typedKind(step);
  if (typed === undefined) return;
  if (typed !== null) {
    step.kind = typed;
    return;
  }
  const chosen: { key: (typeof SELECTORS)[number]; name: string }[] = [];
  for (const key of SELECTORS) {
    if (step.entry(key) === undefined) continue;
    if (!step.valid(key)) {
      if (step.isSchemaKey(key)) return; // invalid value: kind unknown
      continue; // a 0.2-only key in a 0.1 document (SCHEMA-UNKNOWN-KEY)
    }
    if (key === "judge") {
      chosen.push({ key, name: "" });
      continue;
    }
    const name = step.string(key)?.value;
    if (name === undefined) return;
    if (name !== "") chosen.push({ key, name });
  }
  const only = chosen.length === 1 ? chosen[0] : undefined;
  if (only === undefined) return;
  switch (only.key) {
    case "function": {
      const fn = functions.get(only.name) ?? null;
      step.fn = fn;
      if (fn === null || fn.mode === null) return;
      step.kind = fn.mode === "gate" ? "gate" : "function";
      return;
    }
    case "intent":
      step.kind = "inline";
      return;
    case "flow":
      step.kind = "flow";
      step.target = flows.get(only.name) ?? null;
      return;
    case "judge":
      step.kind = "judge";
      return;
  }
}

/** The kind `type` selects; null when it selects none; undefined when `type` is invalid. */
function typedKind(step: MapFields): TypedStepKind | null | undefined {
  if (step.entry("type") === undefined) return null;
  if (!step.valid("type")) return step.isSchemaKey("type") ? undefined : null; // 0.1/0.2: unknown key
  const type = step.string("type")?.value;
  return isTypedStepKind(type) ? type : null;
}

/** Entries of a root section that is a mapping (none otherwise). */
function mapEntries(root: MapNode, key: string): readonly MapEntry[] {
  const section = root.get(key)?.value;
  return section?.kind === "map" ? section.entries : [];
}

function isMapEntry(entry: MapEntry): entry is MapEntry & { readonly name: string; readonly value: MapNode } {
  return entry.name !== null && entry.value.kind === "map";
}

function stringKeys(map: MapNode): string[] {
  const out: string[] = [];
  for (const e of map.entries) if (e.name !== null) out.push(e.name);
  return out;
}

function byName<T extends { readonly name: string }>(decls: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const d of decls) if (!out.has(d.name)) out.set(d.name, d);
  return out;
}
