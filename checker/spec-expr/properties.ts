// The expressions of the `properties` block (docs/guides/testing-a-spec.md "Properties"): each is
// parsed and typed like an ensure, but over the property state of its flow (property-state.ts) instead
// of `result`; its `$` paths are resolved there and their problems reported with the reference
// rules' codes, and its type must be a boolean (SPEC-PROPERTY-NOT-BOOL).
import type { Expr, Path } from "../../grammar/ast";
import type { ParseResult } from "../../grammar/parse";
import { walk } from "../../grammar/walk";
import { typeToString } from "../../stdlib/types/print";
import { ANY, type Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import type { ExprEnvironment } from "../expr/types";
import {
  flowOf,
  kindOf,
  type PropertyExpressionDecl,
  propertiesOf,
  propertyExpressions,
} from "../model/properties";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { PROPERTY_NAME_PATTERN } from "../schema/spec-schema-properties";
import { checkPosition } from "./check-position";
import type { OutputTypeOf } from "./path-types";
import { PropertyState } from "./property-state";
import { reportRefProblem } from "./ref-report";
import { SPEC_PROPERTY_NOT_BOOL } from "./rules/SPEC-PROPERTY-NOT-BOOL";
import type { CheckedExpression, CheckedProperty } from "./types";

const RESULT_IN_PROPERTY = "a property reads the run's state through $ paths, e.g. $.steps.<id>.output";
const ITEM_IN_PROPERTY = "item is bound only in accumulate_key";

/** Checks every property whose name, kind and flow are valid; the others were reported already. */
export function checkProperties(
  model: SpecModel,
  reporter: Reporter,
  outputType: OutputTypeOf,
  parse: (text: string) => ParseResult,
): CheckedProperty[] {
  const out: CheckedProperty[] = [];
  const states = new Map<string, PropertyState>();
  for (const p of propertiesOf(model)) {
    const kind = kindOf(p);
    const flowName = flowOf(p)?.value;
    const flow = flowName === undefined ? undefined : model.flowByName.get(flowName);
    if (kind === null || p.name === null || !PROPERTY_NAME_PATTERN.test(p.name) || flow === undefined)
      continue;
    let state = states.get(flow.name);
    if (state === undefined) {
      state = new PropertyState(flow, outputType);
      states.set(flow.name, state);
    }
    const name = p.name;
    const expressions = propertyExpressions(p).map((e) => checkOne(model, reporter, state, name, e, parse));
    out.push({ name, flow: flow.name, kind, decl: p.decl, expressions });
  }
  return out;
}

/**
 * The environment of a property's expression: no position names, every `$` path read in the
 * property state (`any` without one: a property whose flow is unknown, in the editor).
 */
export function propertyEnvironment(state: PropertyState | null, name: string): ExprEnvironment {
  return {
    kind: "property",
    names: new Map(),
    unavailable: new Map([
      ["result", RESULT_IN_PROPERTY],
      ["item", ITEM_IN_PROPERTY],
    ]),
    statePath: (node) => (state === null ? ANY : state.resolve(node).type),
    owner: `Property '${name}'`,
  };
}

function checkOne(
  model: SpecModel,
  reporter: Reporter,
  state: PropertyState,
  name: string,
  e: PropertyExpressionDecl,
  parse: (text: string) => ParseResult,
): CheckedExpression {
  const env = propertyEnvironment(state, name);
  const checked = checkPosition({
    src: model.source,
    reporter,
    kind: "property",
    node: e.node,
    path: e.path,
    env,
    refs: null,
    parse,
  });
  if (checked.ast === null) return checked;
  const pathsOk = reportPaths(model, reporter, state, e, checked.ast);
  let ok = checked.ok && pathsOk;
  if (ok && !booleanish(checked.type)) {
    reporter.report(SPEC_PROPERTY_NOT_BOOL, {
      message: SPEC_PROPERTY_NOT_BOOL.message(name, typeToString(checked.type)),
      path: e.path,
      range: e.node.range,
    });
    ok = false;
  }
  return ok ? checked : { ...checked, ok };
}

/** Reports the problem of every `$` path of the expression; false when one was reported. */
function reportPaths(
  model: SpecModel,
  reporter: Reporter,
  state: PropertyState,
  e: PropertyExpressionDecl,
  ast: Expr,
): boolean {
  const paths: Path[] = [];
  walk(ast, {
    enter(node) {
      if (node.kind === "Path") paths.push(node);
      return true;
    },
  });
  let ok = true;
  for (const path of paths) {
    const { problem } = state.resolve(path);
    if (problem === null) continue;
    ok = false;
    reportRefProblem(
      {
        src: model.source,
        reporter,
        node: e.node,
        text: path.text,
        path: e.path,
        flow: state.flow,
        range: (start, end) => e.node.mapRange(start, end),
      },
      problem,
    );
  }
  return ok;
}

/** bool, possibly with None (an optional boolean field), or unknown. */
function booleanish(t: Type): boolean {
  if (t.k === "any") return true;
  return members(t).every((m) => m.k === "bool" || m.k === "none" || m.k === "any");
}
