// The editor's view of a property's expression (docs/guides/testing-a-spec.md "Properties"): its
// `$` paths read the property state of the property's flow, not a step's inputs and outputs. This
// module completes their segments (`$.flow.status`, `$.steps.<id>.attempts`, `$.gates.<id>.outcome`,
// `$.steps.<id>.output.<field>`) and explains each segment on hover, with the types the checker
// gives them (spec-expr/property-state.ts). The ids and the state's own fields come from the YAML
// tree, so they are offered while the document is broken; types then read `any`.
import type { Path } from "../../grammar/ast";
import { typeToString } from "../../stdlib/types/print";
import { ANY, type Type } from "../../stdlib/types/type";
import { withoutNone } from "../../stdlib/types/union";
import { PropertyState } from "../spec-expr/property-state";
import { fieldItems } from "./completion-members";
import type { ExprSite } from "./context-expr";
import { nodeAt, stepsOf, stringValue } from "./context-schema";
import { stepKindText, stepSummary } from "./context-summary";
import type { DocView } from "./cursor-view";
import type { CompletionItemInfo } from "./types";

/** A field of the state the property reads, with what it means. */
interface StateField {
  readonly name: string;
  /** The type when there is no model to compute it. */
  readonly written: string;
  readonly doc: string;
}

const ROOT_FIELDS: readonly StateField[] = [
  {
    name: "input",
    written: "the flow's inputs",
    doc: "The flow's inputs: `$.input.<name>` (None when not given).",
  },
  {
    name: "flow",
    written: "status, round",
    doc: "The run of the flow: `$.flow.status` and `$.flow.round`.",
  },
  {
    name: "steps",
    written: "status, attempts, output",
    doc: "Each step of the flow by id: `$.steps.<id>.status`, `.attempts`, `.output`.",
  },
  { name: "gates", written: "outcome", doc: "Each gate step of the flow by id: `$.gates.<id>.outcome`." },
];

const FLOW_FIELDS: readonly StateField[] = [
  {
    name: "status",
    written: "str{'running','complete','failed','killed'}",
    doc: "The run's status: `failed` when retries ran out with nowhere to go or the run budget stopped it, `killed` from a gate's kill on.",
  },
  { name: "round", written: "int", doc: "The revise round, 0 first." },
];

const STEP_FIELDS: readonly StateField[] = [
  {
    name: "status",
    written: "str{'pending','running','done','failed','skipped'}",
    doc: "The step's status: `running` from its dispatch (and while a rejected result is retried), `failed` when its retries ran out; a route back to an earlier step makes it `pending` again.",
  },
  {
    name: "attempts",
    written: "int",
    doc: "Attempts of the step's current dispatch (0 before, and after a route clears it).",
  },
  {
    name: "output",
    written: "the step's output | none",
    doc: "The step's last accepted output (None before), typed by its contract as in an `ensure`.",
  },
];

const GATE_FIELDS: readonly StateField[] = [
  {
    name: "outcome",
    written: "str{'approve','revise','kill'} | none",
    doc: "The gate's latest decision (a policy's approval included); None before the first.",
  },
];

/** The property state of the site's flow; null without a model or an expression table. */
function stateOf(view: DocView, site: ExprSite): PropertyState | null {
  const table = view.expressions;
  if (site.flow === null || table === null) return null;
  return new PropertyState(site.flow, (step) => table.outputType(step));
}

/** The type the checker gives `$.<segments>`, `any` without a state. */
function typeOf(state: PropertyState | null, segments: readonly string[]): Type {
  if (state === null) return ANY;
  const text = `$.${segments.join(".")}`;
  const node: Path = { kind: "Path", text, ref: null, start: 0, end: text.length };
  const resolved = state.resolve(node);
  return resolved.problem === null ? resolved.type : ANY;
}

function detail(state: PropertyState | null, segments: readonly string[], field: StateField): string {
  return state === null ? field.written : typeToString(typeOf(state, segments));
}

function fieldList(
  state: PropertyState | null,
  prior: readonly string[],
  fields: readonly StateField[],
): CompletionItemInfo[] {
  return fields.map((f, i) => ({
    label: f.name,
    kind: prior.length === 0 ? "keyword" : "field",
    detail: detail(state, [...prior, f.name], f),
    documentation: f.doc,
    sortText: String(i),
  }));
}

/** The flow's steps in the tree (ids), gates only when `gates`. */
function stepIdsOf(view: DocView, flow: string, gates: boolean) {
  return stepsOf(view.root, flow).filter((s) => !gates || isGate(view, s.map.get("function")?.value));
}

function isGate(view: DocView, fn: Parameters<typeof stringValue>[0]): boolean {
  const name = stringValue(fn);
  return name !== null && stringValue(nodeAt(view.root, ["functions", name, "mode"])) === "gate";
}

/** The items for the segment after `$.<prior>.` in a property's expression. */
export function stateSegmentItems(
  view: DocView,
  site: ExprSite,
  prior: readonly string[],
): CompletionItemInfo[] {
  const state = stateOf(view, site);
  const [scope, name, third] = prior;
  if (scope === undefined) return fieldList(state, [], ROOT_FIELDS);
  const flowName = site.flowName;
  if (scope === "flow") return name === undefined ? fieldList(state, ["flow"], FLOW_FIELDS) : [];
  if (scope === "steps" || scope === "gates") {
    if (name === undefined) {
      if (flowName === null) return [];
      return stepIdsOf(view, flowName, scope === "gates").map((s) => ({
        label: s.id,
        kind: "step",
        detail: stepKindText(view, s.map),
        sortText: String(s.index).padStart(4, "0"),
      }));
    }
    if (third === undefined)
      return fieldList(state, [scope, name], scope === "steps" ? STEP_FIELDS : GATE_FIELDS);
    if (scope !== "steps" || third !== "output") return [];
    return fieldItems(withoutNone(typeOf(state, prior)));
  }
  if (scope !== "input") return [];
  if (name === undefined) {
    const names = site.flow?.inputNames ?? inputNamesOf(view, flowName);
    return names.map((n, i) => ({
      label: n,
      kind: "input",
      detail: typeToString(typeOf(state, ["input", n])),
      documentation: `Input \`${n}\` of flow \`${flowName ?? "?"}\`.`,
      sortText: String(i).padStart(4, "0"),
    }));
  }
  return fieldItems(withoutNone(typeOf(state, prior)));
}

function inputNamesOf(view: DocView, flow: string | null): string[] {
  const input = flow === null ? null : nodeAt(view.root, ["flows", flow, "input"]);
  return input?.kind === "map" ? input.entries.flatMap((e) => (e.name === null ? [] : [e.name])) : [];
}

/** What a state segment means: the state's own fields, and the step and gate ids. */
function segmentDoc(view: DocView, site: ExprSite, segments: readonly string[]): string | null {
  const [scope, name, third] = segments;
  const last = segments.length - 1;
  const pick = (fields: readonly StateField[], n: string | undefined) =>
    fields.find((f) => f.name === n)?.doc ?? null;
  if (last === 0) return pick(ROOT_FIELDS, scope);
  if (scope === "flow" && last === 1) return pick(FLOW_FIELDS, name);
  if (scope === "input" && last === 1) return `Input \`${name}\` of flow \`${site.flowName ?? "?"}\`.`;
  if ((scope === "steps" || scope === "gates") && last === 1 && name !== undefined) {
    const step =
      site.flowName === null ? undefined : stepsOf(view.root, site.flowName).find((s) => s.id === name);
    return step === undefined || site.flowName === null ? null : stepSummary(view, site.flowName, step.map);
  }
  if (scope === "steps" && last === 2) return pick(STEP_FIELDS, third);
  if (scope === "gates" && last === 2) return pick(GATE_FIELDS, third);
  return null;
}

/**
 * Hover on one segment of a `$` path of a property: the path up to that segment with its type,
 * and what the segment means. `off` is an expression offset inside `node`.
 */
export function stateSegmentHover(
  view: DocView,
  site: ExprSite,
  node: Path,
  off: number,
): { text: string; start: number; end: number } | null {
  const names = node.text.slice(2).split(".");
  if (!node.text.startsWith("$.")) return null;
  let start = node.start + 2;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] ?? "";
    const end = start + name.length;
    if (off >= start && off <= end && name !== "") {
      const segments = names.slice(0, i + 1);
      const type = typeOf(stateOf(view, site), segments);
      const doc = segmentDoc(view, site, segments);
      const head = `\`\`\`\n$.${segments.join(".")}: ${typeToString(type)}\n\`\`\``;
      return { text: doc === null ? head : `${head}\n\n${doc}`, start, end };
    }
    start = end + 1;
  }
  return null;
}
