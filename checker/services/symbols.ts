// The symbol index of a checked document: every definition and reference of a step
// id, function, flow, contract, contract field and flow input (in properties too), with the exact range of the name in
// the file (inside quoted, escaped and block scalars too, through the scalar maps). Navigation and
// rename (navigation.ts, navigation-rename.ts) are lookups in this index. Built from the model and
// the expression table only; memoised per check result.
import type { PathRef } from "../../grammar/ast";
import { MAX_EXPRESSION_LENGTH } from "../../grammar/diagnostics";
import type { PathPayload } from "../../grammar/lex-path";
import { DollarPath, tokenize } from "../../grammar/tokens";
import { walk } from "../../grammar/walk";
import type { CheckResult } from "../check-spec";
import { flowOf, propertiesOf } from "../model/properties";
import type { FieldDefDecl, FlowDecl, SpecModel, StepDecl } from "../model/types";
import { isBuiltinType } from "../rules/contracts/definitions";
import { entryFlow } from "../rules/workflow/entry-flow";
import { WORKFLOW_NAME_PATTERN } from "../schema/spec-schema";
import { isReference, parseInputReference } from "../spec-expr/input-refs";
import { checkedStepExpressions } from "../spec-expr/step-expressions";
import type { CheckedExpression, ExpressionTable } from "../spec-expr/types";
import type { MapEntry, MapNode, ScalarNode, SpecNode } from "../yaml/nodes";
import { stateNames } from "./symbols-properties";
import type { OffsetRange, SpecDocument } from "./types";

export type NamedSymbolKind = "step" | "function" | "flow" | "contract" | "field" | "input";

export interface SymbolInfo {
  readonly key: string;
  readonly kind: NamedSymbolKind;
  readonly name: string;
  /** The flow of a step or input, the contract of a field; null for top-level names. */
  readonly scope: string | null;
  readonly definitions: Occurrence[];
  readonly references: Occurrence[];
}

/** How the name is written at an occurrence: a whole scalar (key or value), or one `$` path segment. */
type OccurrenceTarget =
  | { readonly form: "scalar"; readonly node: ScalarNode }
  | { readonly form: "segment"; readonly node: ScalarNode; readonly start: number; readonly end: number };

export interface Occurrence {
  /** The name itself in the file (quotes and block headers excluded). */
  readonly range: OffsetRange;
  /**
   * The symbols named here: one, except in a function's ensure, whose `$` paths read the flow of
   * every step using the function (the same text names the step of each such flow).
   */
  readonly symbols: readonly string[];
  readonly declaration: boolean;
  readonly target: OccurrenceTarget;
  /** For a mapping key: the mapping (a new name must not already be a key of it). */
  readonly container: MapNode | null;
  /** A pattern every name written here must match (`workflow.name`), with where it comes from. */
  readonly constraint: { readonly pattern: RegExp; readonly what: string } | null;
}

export interface SymbolIndex {
  readonly symbols: ReadonlyMap<string, SymbolInfo>;
  /** Every occurrence, ordered by start offset. */
  readonly occurrences: readonly Occurrence[];
}

export function symbolKey(kind: NamedSymbolKind, scope: string | null, name: string): string {
  return JSON.stringify([kind, scope, name]);
}

const EMPTY_INDEX: SymbolIndex = { symbols: new Map(), occurrences: [] };
const cache = new WeakMap<CheckResult, SymbolIndex>();

/** The index of a document (empty when the document has no model, e.g. broken YAML). */
export function symbolIndex(doc: SpecDocument): SymbolIndex {
  const known = cache.get(doc.check);
  if (known !== undefined) return known;
  const { model, expressions } = doc.check;
  const index =
    model === null || expressions === null ? EMPTY_INDEX : new IndexBuilder(model, expressions).build();
  cache.set(doc.check, index);
  return index;
}

/**
 * The occurrence under the cursor: one that contains `offset`, else one that ends exactly there
 * (the cursor just after a name).
 */
export function occurrenceAt(index: SymbolIndex, offset: number): Occurrence | null {
  let touching: Occurrence | null = null;
  for (const occ of index.occurrences) {
    if (occ.range.start > offset) break;
    if (offset < occ.range.end) return occ;
    if (offset === occ.range.end) touching ??= occ;
  }
  return touching;
}

/** The range of a string scalar's loaded value in the file (no quotes, no block header). */
export function nameRange(node: ScalarNode): OffsetRange {
  const text = typeof node.value === "string" ? node.value : "";
  const trimmed = text.replace(/\n+$/, "");
  const r = node.mapRange(0, trimmed.length);
  return r.end > r.start ? r : node.range;
}

const ROUTE_KEYS = ["next", "on_fail", "on_approve", "on_revise", "on_kill"] as const;
/** A step's keys that name a contract (a debate's synthesis has its own `output_contract`). */
const CONTRACT_KEYS = ["output_contract", "member_contract", "argument_contract"] as const;
const WORKFLOW_NAME = new RegExp(WORKFLOW_NAME_PATTERN);

class IndexBuilder {
  private readonly symbols = new Map<string, SymbolInfo>();
  private readonly occurrences: Occurrence[] = [];
  /** Aliases can make one node appear twice: each (range, role) is recorded once. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly model: SpecModel,
    private readonly table: ExpressionTable,
  ) {}

  build(): SymbolIndex {
    for (const contract of this.model.contracts) {
      this.defineKey("contract", null, contract.decl, this.model.root.get("contracts")?.value);
      for (const field of contract.fields) {
        this.defineKey("field", contract.name, field.decl, contract.node ?? undefined);
        for (let def = field.def; def !== null; def = def.items) this.fieldType(def);
      }
    }
    for (const fn of this.model.functions) {
      this.defineKey("function", null, fn.decl, this.model.root.get("functions")?.value);
      this.valueRef("contract", null, fn.string("output")?.entry);
    }
    for (const flow of this.model.flows) this.flow(flow);
    for (const fn of this.model.functions) {
      // `$` paths in a function's ensure read the flow of each step using the function (docs/reference/language.md §10.12).
      const users = uniqueFlows(
        this.model.flows.flatMap((f) => f.steps.filter((s) => s.kind === "function" && s.fn === fn)),
      );
      for (const checked of this.table.functionEnsure(fn)) this.expression(checked, users);
    }
    this.properties();
    this.workflow();
    this.occurrences.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
    return { symbols: this.symbols, occurrences: this.occurrences };
  }

  private flow(flow: FlowDecl): void {
    this.defineKey("flow", null, flow.decl, this.model.root.get("flows")?.value);
    this.valueRef("contract", null, flow.string("output")?.entry);
    const input = flow.entry("input")?.value;
    if (input?.kind === "map") {
      for (const entry of input.entries) {
        if (entry.name !== null) this.defineKey("input", flow.name, entry, input);
      }
    }
    for (const step of flow.steps) this.step(flow, step);
  }

  private step(flow: FlowDecl, step: StepDecl): void {
    const id = step.string("id");
    if (id !== null && id.entry.value.kind === "scalar") {
      this.add([this.symbol("step", flow.name, id.value)], true, id.entry.value, null);
    }
    this.valueRef("function", null, step.string("function")?.entry);
    this.valueRef("flow", null, step.string("flow")?.entry);
    for (const key of CONTRACT_KEYS) this.valueRef("contract", null, step.string(key)?.entry);
    const synthesis = step.entry("synthesis")?.value;
    if (synthesis?.kind === "map") this.valueRef("contract", null, synthesis.get("output_contract"));
    for (const node of step.strings("depends_on")?.value ?? []) {
      if (typeof node.value === "string")
        this.add([this.symbol("step", flow.name, node.value)], false, node, null);
    }
    for (const key of ROUTE_KEYS) {
      const route = step.nullableString(key) ?? step.string(key);
      if (route !== null && route.value !== null) this.valueRef("step", flow.name, route.entry);
    }
    this.stepInputs(flow, step);
    this.parallelSource(flow, step);
    for (const c of checkedStepExpressions(this.table, step)) this.expression(c, [flow]);
  }

  /** `$` references in input values; for a sub-flow step, its input names are the child's inputs. */
  private stepInputs(flow: FlowDecl, step: StepDecl): void {
    const inputs = step.entry("inputs")?.value;
    if (inputs?.kind !== "map") return;
    const child = step.kind === "flow" ? step.target : null;
    for (const entry of inputs.entries) {
      if (child !== null && entry.name !== null && entry.key.kind === "scalar") {
        this.add([this.symbol("input", child.name, entry.name)], false, entry.key, inputs);
      }
      const node = entry.value;
      if (node.kind !== "scalar" || typeof node.value !== "string" || !isReference(node.value)) continue;
      const ref = parseInputReference(node.value);
      if (ref === null) continue;
      const kind = ref.scope === "steps" ? "step" : "input";
      this.add([this.symbol(kind, flow.name, ref.name.name)], false, node, null, ref.name);
    }
  }

  /** The `$` reference of a parallel_dispatch step's `source` (docs/reference/language.md §6.4). */
  private parallelSource(flow: FlowDecl, step: StepDecl): void {
    const ref = this.table.parallelSource(step)?.ref ?? null;
    const node = step.string("source")?.entry.value;
    if (ref === null || node?.kind !== "scalar") return;
    const kind = ref.scope === "steps" ? "step" : "input";
    this.add([this.symbol(kind, flow.name, ref.name.name)], false, node, null, ref.name);
  }

  /**
   * The `$` paths of an expression. `flows` are the flows its paths read; with several (a
   * function's ensure) a path names the symbol of each flow that declares the name.
   */
  private expression(checked: CheckedExpression, flows: readonly FlowDecl[]): void {
    for (const ref of pathRefs(checked)) {
      const name = ref.name.name;
      const kind = ref.scope === "steps" ? "step" : "input";
      const owners =
        flows.length === 1
          ? flows
          : flows.filter((f) => (kind === "step" ? f.stepById.has(name) : f.inputNames.includes(name)));
      if (owners.length === 0) continue;
      const symbols = owners.map((f) => this.symbol(kind, f.name, name));
      this.add(symbols, false, checked.node, null, ref.name);
    }
  }

  /** A property's `flow`, and the steps and inputs its conditions' `$` paths name in that flow. */
  private properties(): void {
    for (const p of propertiesOf(this.model)) this.valueRef("flow", null, flowOf(p)?.entry);
    for (const p of this.table.properties) {
      const flow = this.model.flowByName.get(p.flow);
      if (flow === undefined) continue;
      for (const checked of p.expressions) {
        for (const named of stateNames(checked)) {
          const known =
            named.kind === "step" ? flow.stepById.has(named.name) : flow.inputNames.includes(named.name);
          if (known)
            this.add([this.symbol(named.kind, flow.name, named.name)], false, checked.node, null, named);
        }
      }
    }
  }

  private fieldType(def: FieldDefDecl): void {
    const type = def.type;
    if (type === null || isBuiltinType(type.value)) return;
    this.valueRef("contract", null, type.entry);
  }

  private workflow(): void {
    const wf = this.model.workflow;
    const name = wf?.string("name") ?? null;
    if (wf === null || name === null || name.entry.value.kind !== "scalar") return;
    if (this.model.flowByName.has(name.value)) {
      const constraint = {
        pattern: WORKFLOW_NAME,
        what: `workflow.name must match ${WORKFLOW_NAME_PATTERN}`,
      };
      this.add([this.symbol("flow", null, name.value)], false, name.entry.value, null, undefined, constraint);
    }
    const input = wf.entry("input")?.value;
    const entry = entryFlow(this.model, name.value);
    if (input?.kind !== "map" || entry.kind !== "flow") return;
    // The workflow's inputs are the entry flow's inputs (SPEC-WORKFLOW-INPUT-MISMATCH).
    for (const e of input.entries) {
      if (e.name !== null && e.key.kind === "scalar") {
        this.add([this.symbol("input", entry.flow.name, e.name)], false, e.key, input);
      }
    }
  }

  private defineKey(
    kind: NamedSymbolKind,
    scope: string | null,
    entry: MapEntry,
    container: SpecNode | undefined,
  ): void {
    if (entry.name === null || entry.key.kind !== "scalar") return;
    this.add(
      [this.symbol(kind, scope, entry.name)],
      true,
      entry.key,
      container?.kind === "map" ? container : null,
    );
  }

  /** A reference written as the whole (string) value of an entry. */
  private valueRef(kind: NamedSymbolKind, scope: string | null, entry: MapEntry | undefined): void {
    const node = entry?.value;
    if (node?.kind !== "scalar" || typeof node.value !== "string" || node.value === "") return;
    this.add([this.symbol(kind, scope, node.value)], false, node, null);
  }

  private symbol(kind: NamedSymbolKind, scope: string | null, name: string): SymbolInfo {
    const key = symbolKey(kind, scope, name);
    let info = this.symbols.get(key);
    if (info === undefined) {
      info = { key, kind, name, scope, definitions: [], references: [] };
      this.symbols.set(key, info);
    }
    return info;
  }

  private add(
    symbols: readonly SymbolInfo[],
    declaration: boolean,
    node: ScalarNode,
    container: MapNode | null,
    segment?: { readonly start: number; readonly end: number },
    constraint: Occurrence["constraint"] = null,
  ): void {
    const range = segment === undefined ? nameRange(node) : node.mapRange(segment.start, segment.end);
    const seenKey = `${range.start}:${range.end}:${declaration}:${symbols.map((s) => s.key).join()}`;
    if (this.seen.has(seenKey)) return;
    this.seen.add(seenKey);
    const target: OccurrenceTarget =
      segment === undefined
        ? { form: "scalar", node }
        : { form: "segment", node, start: segment.start, end: segment.end };
    const occ: Occurrence = {
      range,
      symbols: symbols.map((s) => s.key),
      declaration,
      target,
      container,
      constraint,
    };
    this.occurrences.push(occ);
    for (const s of symbols) (declaration ? s.definitions : s.references).push(occ);
  }
}

/**
 * The well-formed `$` paths of an expression: from its AST, or, when it does not parse (while
 * typing), from the grammar's tokens, so that paths outside the broken part still navigate.
 */
function pathRefs(checked: CheckedExpression): PathRef[] {
  const refs: PathRef[] = [];
  if (checked.ast !== null) {
    walk(checked.ast, {
      enter(node) {
        if (node.kind === "Path" && node.ref !== null) refs.push(node.ref);
        return true;
      },
    });
    return refs;
  }
  if (checked.text.length > MAX_EXPRESSION_LENGTH) return refs;
  for (const token of tokenize(checked.text)) {
    if (token.tokenType !== DollarPath) continue;
    const ref = (token.payload as PathPayload | undefined)?.ref;
    if (ref !== null && ref !== undefined) refs.push(ref);
  }
  return refs;
}

function uniqueFlows(steps: readonly StepDecl[]): FlowDecl[] {
  return [...new Set(steps.map((s) => s.flow))];
}
