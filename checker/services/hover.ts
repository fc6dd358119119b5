// Hover: inside an expression, the type of the innermost sub-expression under the cursor (from the
// checker's own types), builtin and method docs, contract field types on `result.x`, step
// summaries on `$.steps.<id>`, each segment of a property's `$` path with its meaning; in the YAML structure, key descriptions (spec schema), contract
// field types, and summaries of the step, function, flow or contract a name refers to.
import type { Expr } from "../../grammar/ast";
import { type Node, walk } from "../../grammar/walk";
import { BUILTINS } from "../../stdlib/builtins/registry";
import { typeToString } from "../../stdlib/types/print";
import { ANY, type RecordType, type Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import { contractRecords } from "../spec-expr/contracts";
import { checkedStepExpressions } from "../spec-expr/step-expressions";
import type { CheckedExpression } from "../spec-expr/types";
import type { ScalarNode } from "../yaml/nodes";
import { comprehensionNames, POSITION_NAME_DOCS } from "./completion-expr";
import { fieldDoc, methodsNamed } from "./completion-members";
import {
  type ExprSite,
  exprSiteOf,
  repairedTree,
  siteEnvironment,
  type TypedTree,
  toExprOffset,
  toFileRange,
} from "./context-expr";
import { describeValue, keySpecAt, nodeAt, stepOfPath, stepsOf, stringValue } from "./context-schema";
import { contractSummary, flowSummary, functionSummary, stepSummary } from "./context-summary";
import { type PathSeg, yamlCursorAt } from "./cursor";
import type { DocView } from "./cursor-view";
import { stateSegmentHover } from "./property-expr";
import type { HoverInfo, OffsetRange } from "./types";

const STEP_REF_KEYS: ReadonlySet<string> = new Set(["next", "on_fail", "on_approve", "on_revise", "on_kill"]);

export function hoverInfoAt(view: DocView, o: number): HoverInfo | null {
  const cursor = yamlCursorAt(view.text, view.root, o);
  if (cursor.kind === "key") {
    const entry = cursor.map?.entries.find((e) => e.key.range.start === cursor.replace.start);
    if (entry?.name == null || entry.key.kind !== "scalar") return null;
    const contents = keyHover(view, cursor.path, entry.name);
    return contents === null ? null : { contents, range: entry.key.range };
  }
  if (cursor.kind !== "value" || cursor.node === null) return null;
  const site = exprSiteOf(view, cursor.path, cursor.node);
  if (site !== null) return exprHover(view, site, o);
  const contents = valueHover(view, cursor.path, cursor.node);
  return contents === null ? null : { contents, range: cursor.node.range };
}

function code(text: string): string {
  return `\`\`\`\n${text}\n\`\`\``;
}

function keyHover(view: DocView, path: readonly PathSeg[], name: string): string | null {
  const [section, second] = path;
  if (path.length === 1 && section === "contracts") return contractSummary(view, name);
  if (path.length === 1 && section === "functions") return functionSummary(view, name);
  if (path.length === 1 && section === "flows") return flowSummary(view, name);
  if (path.length === 2 && section === "contracts" && typeof second === "string") {
    return contractFieldHover(view, second, name);
  }
  const spec = keySpecAt([...path, name], view.version);
  if (spec === null) return null;
  const since = spec.since !== undefined ? ` (since ${spec.since})` : "";
  return `${code(`${name}: ${describeValue(spec.value, view.version)}`)}\n\n${spec.description}${since}`;
}

function contractFieldHover(view: DocView, contract: string, field: string): string | null {
  const record = view.model === null ? undefined : contractRecords(view.model).get(contract);
  const def = record?.fields.get(field);
  if (record === undefined || def === undefined) {
    const written = stringValue(nodeAt(view.root, ["contracts", contract, field, "type"]));
    return written === null ? null : code(`${contract}.${field}: ${written}`);
  }
  return `${code(`${contract}.${field}: ${typeToString(def.type)}`)}\n\n${fieldDoc(record, field, def)}`;
}

function valueHover(view: DocView, path: readonly PathSeg[], node: ScalarNode): string | null {
  const value = stringValue(node);
  if (value === null) return null;
  const step = stepOfPath(path);
  const last = path[path.length - 1];
  if (step !== null) {
    const key = path[4];
    const refersToStep =
      (path.length === 5 && (key === "id" || (typeof key === "string" && STEP_REF_KEYS.has(key)))) ||
      (path.length === 6 && key === "depends_on");
    if (refersToStep) {
      const target = stepsOf(view.root, step.flow).find((s) => s.id === value);
      return target === undefined ? null : stepSummary(view, step.flow, target.map);
    }
    if (path.length === 5 && key === "function")
      return known(view, ["functions", value], () => functionSummary(view, value));
    if (path.length === 5 && key === "flow")
      return known(view, ["flows", value], () => flowSummary(view, value));
    const namesContract =
      (path.length === 5 &&
        (key === "output_contract" || key === "member_contract" || key === "argument_contract")) ||
      (path.length === 6 && key === "synthesis" && path[5] === "output_contract");
    if (namesContract) return known(view, ["contracts", value], () => contractSummary(view, value));
    return null;
  }
  if (last === "output" || (path[0] === "contracts" && last === "type")) {
    return known(view, ["contracts", value], () => contractSummary(view, value));
  }
  if (path.length === 2 && path[0] === "workflow" && last === "name") {
    return known(view, ["flows", value], () => flowSummary(view, value));
  }
  return null;
}

function known(view: DocView, path: readonly PathSeg[], summary: () => string): string | null {
  return nodeAt(view.root, path) === null ? null : summary();
}

/** The checked expression of the site's scalar, when the expression phase kept one. */
function checkedOf(view: DocView, site: ExprSite): CheckedExpression | null {
  const table = view.expressions;
  if (table === null || site.node === null) return null;
  let list: readonly CheckedExpression[] = [];
  if (site.step !== null) list = checkedStepExpressions(table, site.step);
  else if (site.fn !== null) list = table.functionEnsure(site.fn);
  else if (site.property !== null)
    list = table.properties.find((p) => p.name === site.property)?.expressions ?? [];
  return list.find((c) => c.node === site.node && c.ast !== null) ?? null;
}

function treeOf(view: DocView, site: ExprSite): TypedTree {
  const checked = checkedOf(view, site);
  if (checked !== null) return { text: checked.text, expr: checked.ast, types: checked.types };
  return repairedTree(site.text, siteEnvironment(view, site), null);
}

interface Found {
  readonly node: Expr;
  readonly parent: Node | null;
}

/** The innermost node whose span contains `off` (a node ending at `off` when none contains it). */
function innermostAt(root: Expr, off: number): Found | null {
  let inside: Found | null = null;
  let touching: Found | null = null;
  const size = (f: Found | null) => (f === null ? Number.POSITIVE_INFINITY : f.node.end - f.node.start);
  walk(root, {
    enter(node, parent) {
      if (node.kind === "Slice") return true;
      if (node.start <= off && off < node.end && node.end - node.start <= size(inside))
        inside = { node, parent };
      if (node.end === off && node.end - node.start <= size(touching)) touching = { node, parent };
      return true;
    },
  });
  return inside ?? touching;
}

function exprHover(view: DocView, site: ExprSite, o: number): HoverInfo | null {
  const off = toExprOffset(site, o);
  const tree = treeOf(view, site);
  if (tree.expr === null) return null;
  const found = innermostAt(tree.expr, off);
  if (found === null) return null;
  const { node, parent } = found;
  // The tree may come from a repaired text (a placeholder after the end): clip to the real text.
  const range = (start: number, end: number): OffsetRange =>
    toFileRange(site, Math.min(start, site.text.length), Math.min(end, site.text.length), o);
  const typeOf = (e: Expr): Type => tree.types.get(e) ?? ANY;
  const env = siteEnvironment(view, site);
  switch (node.kind) {
    case "Name": {
      const called = parent !== null && parent.kind === "Call" && parent.func === node;
      const local = comprehensionNames(tree.expr, tree.types, off).has(node.id);
      const builtin = BUILTINS.get(node.id);
      if (builtin !== undefined && !local && !env.names.has(node.id) && called) {
        return {
          contents: `${code(builtin.signature)}\n\n${builtin.doc}`,
          range: range(node.start, node.end),
        };
      }
      const role = local ? "variable" : env.names.has(node.id) ? "parameter" : "name";
      // A position name's doc where the position knows it (`round` is a builtin elsewhere).
      const positional = env.names.has(node.id) || env.unavailable?.has(node.id) === true;
      const doc = local || !positional ? undefined : POSITION_NAME_DOCS.get(node.id);
      const contents = `${code(`(${role}) ${node.id}: ${typeToString(typeOf(node))}`)}${doc !== undefined ? `\n\n${doc}` : ""}`;
      return { contents, range: range(node.start, node.end) };
    }
    case "Attribute": {
      if (off < node.attrSpan.start) break;
      const receiver = typeOf(node.value);
      const called = parent !== null && parent.kind === "Call" && parent.func === node;
      const field = fieldOf(receiver, node.attr);
      if (field !== null && !called) {
        const f = field.record.fields.get(node.attr);
        const doc = f === undefined ? "" : `\n\n${fieldDoc(field.record, node.attr, f)}`;
        const contents = `${code(`(field) ${field.record.name}.${node.attr}: ${typeToString(typeOf(node))}`)}${doc}`;
        return { contents, range: range(node.attrSpan.start, node.attrSpan.end) };
      }
      const methods = methodsNamed(receiver.k === "any" ? null : receiver, node.attr);
      if (methods.length > 0) {
        const contents = methods.map((m) => `${code(m.signature)}\n\n${m.doc}`).join("\n\n---\n\n");
        return { contents, range: range(node.attrSpan.start, node.attrSpan.end) };
      }
      const contents = code(`(attribute) ${node.attr}: ${typeToString(typeOf(node))}`);
      return { contents, range: range(node.attrSpan.start, node.attrSpan.end) };
    }
    case "Path": {
      if (site.kind === "property") {
        const segment = stateSegmentHover(view, site, node, off);
        if (segment !== null) return { contents: segment.text, range: range(segment.start, segment.end) };
      }
      const ref = node.ref;
      let extra = "";
      if (
        ref !== null &&
        ref.scope === "steps" &&
        off >= ref.name.start &&
        off <= ref.name.end &&
        site.flowName !== null
      ) {
        const target = stepsOf(view.root, site.flowName).find((s) => s.id === ref.name.name);
        if (target !== undefined) extra = `\n\n${stepSummary(view, site.flowName, target.map)}`;
      }
      return {
        contents: `${code(`${site.text.slice(node.start, node.end)}: ${typeToString(typeOf(node))}`)}${extra}`,
        range: range(node.start, node.end),
      };
    }
    default:
      break;
  }
  const shown = site.text.slice(node.start, node.end).replace(/\s+/g, " ");
  const label = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
  return { contents: code(`${label}: ${typeToString(typeOf(node))}`), range: range(node.start, node.end) };
}

/** The record (of a record or namespace member) that has field `name`. */
function fieldOf(t: Type, name: string): { record: RecordType } | null {
  for (const m of members(t)) {
    const record = m.k === "record" ? m.record : m.k === "ns" && m.of.k === "record" ? m.of.record : null;
    if (record?.fields.has(name)) return { record };
  }
  return null;
}
