// Completion in the YAML structure of a spec: the keys valid at the cursor (per version, from the
// spec schema, minus the ones present), and values — step ids for depends_on/next/on_fail and the
// gate routes (on_revise: earlier steps only), function/flow/contract names, enum values,
// booleans, the version, contract field types, a step's function's declared input names, and a
// property's flow.
import { isTypedStepKind, STEP_KINDS, type StepKind } from "../base/step-kinds";
import type { Version } from "../base/version";
import { CHECKER_KINDS } from "../kinds/index";
import { forVersion, resolveShape } from "../schema/resolve-shape";
import { PROPERTY_KINDS } from "../schema/spec-schema-properties";
import type { KeySpec, ShapeName, ValueSpec } from "../schema/spec-schema-types";
import type { MapNode } from "../yaml/nodes";
import {
  describeValue,
  keysAt,
  nodeAt,
  stepOfPath,
  stepsOf,
  stringValue,
  valueSpecAt,
} from "./context-schema";
import { contractSummary, stepKindText } from "./context-summary";
import type { PathSeg, YamlCursor } from "./cursor";
import type { DocView } from "./cursor-view";
import type { CompletionItemInfo, OffsetRange } from "./types";

/** Keys whose value names a step of the same flow. */
const STEP_ROUTE_KEYS: ReadonlySet<string> = new Set([
  "next",
  "on_fail",
  "on_approve",
  "on_revise",
  "on_kill",
]);
/** Routes that may be null (end or complete the flow). */
const NULLABLE_ROUTES: ReadonlySet<string> = new Set(["on_approve", "on_revise", "on_kill"]);
/** The step keys that select its kind: at most one of them. */
const STEP_MODE_KEYS = ["function", "intent", "flow"] as const;
const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;

export function keyCompletions(view: DocView, cursor: YamlCursor & { kind: "key" }): CompletionItemInfo[] {
  const spec = valueSpecAt(cursor.path, view.version);
  const present = new Set(cursor.map?.entries.flatMap((e) => (e.name === null ? [] : [e.name])) ?? []);
  // The key being typed is not "present".
  const typed = cursor.map?.entries.find((e) => e.key.range.start === cursor.replace.start)?.name;
  if (typed != null) present.delete(typed);
  if (spec?.kind === "shape") {
    const excluded =
      spec.shape === "step" && cursor.map !== null
        ? stepKeyExclusions(view, cursor.map)
        : spec.shape === "property"
          ? propertyKindExclusions(present)
          : [];
    return shapeKeys(spec.shape, view.version, present, cursor.replace, excluded);
  }
  if (spec?.kind === "mapOf") return freeKeys(view, cursor.path, present, cursor.replace);
  return [];
}

function shapeKeys(
  shape: ShapeName,
  version: Version,
  present: ReadonlySet<string>,
  replace: OffsetRange,
  exclusions: readonly string[] = [],
): CompletionItemInfo[] {
  const resolved = resolveShape(shape, version);
  const required = new Set(resolved.required);
  const excluded = new Set(exclusions);
  const items: CompletionItemInfo[] = [];
  [...resolved.keys.values()].forEach((key: KeySpec, i) => {
    if (present.has(key.name) || excluded.has(key.name)) return;
    const scalar = isScalarSpec(key.value);
    items.push({
      label: key.name,
      kind: "key",
      detail: describeValue(key.value, version),
      documentation: `${key.description}${key.since !== undefined ? ` (since ${key.since})` : ""}`,
      insertText: scalar ? `${key.name}: ` : `${key.name}:`,
      replace,
      sortText: `${required.has(key.name) ? 0 : 1}${String(i).padStart(3, "0")}`,
    });
  });
  return items;
}

const GATE_ONLY = ["on_approve", "on_revise", "on_kill", "policy", "policy_fallback"];
const FUNCTION_STEP_FIELDS = [
  "ensure",
  "retries",
  "output_contract",
  "model",
  "budget",
  "guardrails",
  "reasoning_template",
];
const NOT_ON_GATES = [
  "next",
  "on_fail",
  "output_schema",
  "exit_criterion",
  "accumulate",
  "accumulate_key",
  "score_expr",
  "max_iterations",
];

/** A property states exactly one kind (SPEC-PROPERTY-KIND): once one is written, not the others. */
function propertyKindExclusions(present: ReadonlySet<string>): string[] {
  return PROPERTY_KINDS.some((k) => present.has(k)) ? [...PROPERTY_KINDS] : [];
}

/** A step's keys whose value names a contract. */
const CONTRACT_VALUE_KEYS: ReadonlySet<string> = new Set([
  "output_contract",
  "member_contract",
  "argument_contract",
]);

/** The keys only one kind takes (checker/kinds/<kind>.ts, `ownKeys`: SPEC-<KIND>-ONLY-KEY and the like). */
function ownKeysOfOtherKinds(kind: StepKind | null): string[] {
  return STEP_KINDS.filter((k) => k !== kind).flatMap((k) => CHECKER_KINDS[k].ownKeys);
}
const NOT_ON_TYPED_KINDS = [
  "function",
  "flow",
  "accumulate",
  "accumulate_key",
  "score_expr",
  "cache",
  ...GATE_ONLY,
];

/**
 * Keys a step of the kind it already has may not take (the SPEC-STEP-MODE, SPEC-FN-STEP-FIELD,
 * gate, sub-flow and 0.3 parallel rules): offering them would only lead to a diagnostic.
 */
function stepKeyExclusions(view: DocView, step: MapNode): string[] {
  const type = stringValue(step.get("type")?.value);
  // `type: decompose | parallel_dispatch | quorum | race | debate` decides the kind (0.3);
  // function / flow are ignored.
  if (isTypedStepKind(type))
    return [...NOT_ON_TYPED_KINDS, ...CHECKER_KINDS[type].notOffered, ...ownKeysOfOtherKinds(type)];
  const fn = stringValue(step.get("function")?.value);
  const mode =
    step.get("function") !== undefined || step.get("intent") !== undefined || step.get("flow") !== undefined;
  const out: string[] = mode ? [...STEP_MODE_KEYS, ...ownKeysOfOtherKinds(null)] : [];
  if (fn !== null) {
    const fnMode = stringValue(nodeAt(view.root, ["functions", fn, "mode"]));
    const gate = fnMode === "gate";
    out.push(...FUNCTION_STEP_FIELDS, ...(gate ? NOT_ON_GATES : GATE_ONLY));
    // Only a compute function's results may be cached (SPEC-CACHE-INELIGIBLE).
    if (fnMode !== "compute") out.push("cache");
  } else if (step.get("flow") !== undefined) {
    out.push(
      "retries",
      "model",
      "budget",
      "guardrails",
      "agent",
      "reasoning_template",
      "cache",
      ...GATE_ONLY,
    );
  } else if (step.get("intent") !== undefined) {
    out.push("cache", ...GATE_ONLY);
  }
  return out;
}

function isScalarSpec(spec: ValueSpec): boolean {
  return !(
    spec.kind === "shape" ||
    spec.kind === "mapOf" ||
    spec.kind === "seqOf" ||
    spec.kind === "freeMapping"
  );
}

/** Keys of free mappings: a step's `inputs` get its function's declared input names. */
function freeKeys(
  view: DocView,
  path: readonly PathSeg[],
  present: ReadonlySet<string>,
  replace: OffsetRange,
): CompletionItemInfo[] {
  const at = stepOfPath(path);
  if (at === null || path.length !== 5 || path[4] !== "inputs") return [];
  const fn = stringValue(nodeAt(view.root, ["flows", at.flow, "steps", at.index, "function"]));
  if (fn === null) return [];
  return keysAt(view.root, ["functions", fn, "input"])
    .filter((name) => !present.has(name))
    .map((name, i) => ({
      label: name,
      kind: "input",
      detail: `input of ${fn}`,
      insertText: `${name}: `,
      replace,
      sortText: String(i).padStart(4, "0"),
    }));
}

/** Values at a YAML path (not expressions: those are completed by completion-expr.ts). */
export function valueCompletions(
  view: DocView,
  cursor: YamlCursor & { kind: "value" },
): CompletionItemInfo[] {
  const path = cursor.path;
  const spec = valueSpecAt(path, view.version);
  const replace = cursor.replace;
  // A scalar where a mapping belongs: the author is typing its first key (`- i` in `steps`).
  if (spec?.kind === "shape") {
    const keys = shapeKeys(spec.shape, view.version, new Set(), replace);
    return cursor.node === null || typeof cursor.node.value === "string" || cursor.node.value === null
      ? keys
      : [];
  }
  const last = path[path.length - 1];
  const parentKey = path[path.length - 2];
  const step = stepOfPath(path);
  if (step !== null && path.length === 6 && parentKey === "depends_on") {
    const listed = new Set(keysOfSeq(view, path.slice(0, -1)).filter((_, i) => i !== last));
    return stepIdItems(view, step.flow, step.index, "any", replace).filter((i) => !listed.has(i.label));
  }
  if (step !== null && path.length === 5 && typeof last === "string") {
    if (STEP_ROUTE_KEYS.has(last)) {
      const items = stepIdItems(
        view,
        step.flow,
        step.index,
        last === "on_revise" ? "earlier" : "any",
        replace,
      );
      if (NULLABLE_ROUTES.has(last))
        items.push({ label: "null", kind: "value", detail: routeNullDetail(last), replace });
      return items;
    }
    if (last === "depends_on") {
      return stepIdItems(view, step.flow, step.index, "any", replace).map((i) => ({
        ...i,
        insertText: `[${i.label}]`,
      }));
    }
    if (last === "function") return nameItems(view, "functions", "function", replace);
    if (last === "flow")
      return nameItems(view, "flows", "flow", replace).filter((i) => i.label !== step.flow);
    if (CONTRACT_VALUE_KEYS.has(last)) return contractItems(view, replace);
  }
  if (step !== null && path.length === 6 && parentKey === "synthesis" && last === "output_contract") {
    return contractItems(view, replace);
  }
  if (path.length === 3 && (path[0] === "functions" || path[0] === "flows") && last === "output") {
    return contractItems(view, replace);
  }
  if (path[0] === "contracts" && last === "type" && path.length >= 4) {
    const primitives = FIELD_TYPES.map((t, i) => ({
      label: t,
      kind: "value" as const,
      replace,
      sortText: `0${i}`,
    }));
    return [...primitives, ...contractItems(view, replace)];
  }
  if (path.length === 2 && path[0] === "workflow" && last === "name") {
    return nameItems(view, "flows", "flow", replace);
  }
  if (path.length === 3 && path[0] === "properties" && last === "flow") {
    return nameItems(view, "flows", "flow", replace);
  }
  if (spec === null) return [];
  const quoted =
    (cursor.node?.style === "double" || cursor.node?.style === "single") &&
    cursor.replace.start > cursor.node.range.start;
  return scalarValues(spec, view.version, replace, quoted);
}

function keysOfSeq(view: DocView, path: readonly PathSeg[]): string[] {
  const node = nodeAt(view.root, path);
  if (node?.kind !== "seq") return [];
  return node.items.map((item) => stringValue(item) ?? "");
}

function routeNullDetail(key: string): string {
  return key === "on_approve" ? "complete the flow" : key === "on_kill" ? "end the flow" : "no route";
}

function stepIdItems(
  view: DocView,
  flow: string,
  self: number,
  which: "any" | "earlier",
  replace: OffsetRange,
): CompletionItemInfo[] {
  return stepsOf(view.root, flow)
    .filter((s) => s.index !== self && (which === "any" || s.index < self))
    .map((s) => ({
      label: s.id,
      kind: "step",
      detail: stepKindText(view, s.map),
      replace,
      sortText: String(s.index).padStart(4, "0"),
    }));
}

function nameItems(
  view: DocView,
  section: "functions" | "flows",
  kind: "function" | "flow",
  replace: OffsetRange,
): CompletionItemInfo[] {
  return keysAt(view.root, [section]).map((name, i) => {
    const detail =
      kind === "function"
        ? (stringValue(nodeAt(view.root, ["functions", name, "mode"])) ?? "function")
        : `${stepsCount(view, name)} steps`;
    return { label: name, kind, detail, replace, sortText: String(i).padStart(4, "0") };
  });
}

function stepsCount(view: DocView, flow: string): number {
  const steps = nodeAt(view.root, ["flows", flow, "steps"]);
  return steps?.kind === "seq" ? steps.items.length : 0;
}

function contractItems(view: DocView, replace: OffsetRange): CompletionItemInfo[] {
  return keysAt(view.root, ["contracts"]).map((name, i) => ({
    label: name,
    kind: "contract",
    detail: "contract",
    documentation: contractSummary(view, name),
    replace,
    sortText: `1${String(i).padStart(4, "0")}`,
  }));
}

function scalarValues(
  spec: ValueSpec,
  version: Version,
  replace: OffsetRange,
  quoted: boolean,
): CompletionItemInfo[] {
  switch (spec.kind) {
    case "enum":
      return forVersion(spec.values, version).map((v, i) => ({
        label: v,
        kind: "value",
        replace,
        sortText: String(i),
      }));
    case "boolean":
      return ["true", "false"].map((v, i) => ({ label: v, kind: "value", replace, sortText: String(i) }));
    case "version":
      // Quoted: an unquoted 0.2 loads as a float (SCHEMA-TYPE).
      return ["0.3", "0.2", "0.1"].map((v, i) => ({
        label: quoted ? v : `"${v}"`,
        kind: "value",
        detail: `spec format ${v}`,
        replace,
        sortText: String(i),
      }));
    default:
      return [];
  }
}
