// The expression under a cursor: which expression field of which step or function, the cursor as
// an offset into the expression text (through the scalar's value-index → source map, so escapes of
// double-quoted scalars and folded/literal block scalars are exact), the environment of that
// position (docs/reference/language.md §10.6) and a typed, possibly partial, syntax tree. Incomplete text
// (`result.`, `len(`) is parsed by the grammar's own error recovery and typed by the checker's own
// expression checker; nothing is evaluated.
import type { Expr, PathRef } from "../../grammar/ast";
import { parseExpression } from "../../grammar/parse";
import * as T from "../../grammar/tokens";
import { ANY, type Type } from "../../stdlib/types/type";
import { Checker } from "../expr/checker";
import type { ExprEnvironment, ExpressionKind } from "../expr/types";
import type { FlowDecl, FunctionDecl, StepDecl } from "../model/types";
import { contractRecords } from "../spec-expr/contracts";
import { argumentType, convergeEnvironment } from "../spec-expr/debate-converge";
import { elementType, environment } from "../spec-expr/environment";
import { commonProperties, outputSchemaProperties } from "../spec-expr/output-schema";
import { memberResultType, validateEnvironment } from "../spec-expr/parallel-validate";
import { resolveRef } from "../spec-expr/path-types";
import { propertyEnvironment } from "../spec-expr/properties";
import { PropertyState } from "../spec-expr/property-state";
import { functionResultType } from "../spec-expr/result-type";
import { isStepExpressionField, type StepExpressionField } from "../spec-expr/step-expressions";
import type { ScalarNode } from "../yaml/nodes";
import { nodeAt, stepOfPath, stringValue } from "./context-schema";
import type { PathSeg } from "./cursor";
import type { DocView } from "./cursor-view";

/**
 * A step's expression field or `ensure` (a step's or a function's), a step input value, or an
 * expression of a property (`always`, `never`, `eventually`, `leads_to.from|to`).
 */
export type SiteKind = StepExpressionField | "ensure" | "input" | "property";

/** An expression (or a step input value) at a YAML path. */
export interface ExprSite {
  /** `input`: a step input value or `source`, a `$` reference or a literal. */
  readonly kind: SiteKind;
  readonly node: ScalarNode | null;
  /** The loaded text (what the checker checks). */
  readonly text: string;
  /** The owning step (null for a function's ensure or without a model). */
  readonly step: StepDecl | null;
  readonly fn: FunctionDecl | null;
  /** The property whose expression this is (null for the other kinds). */
  readonly property: string | null;
  /** The flow whose `$` paths the expression reads. */
  readonly flow: FlowDecl | null;
  /** Names of the flow and step when the model has none (broken documents). */
  readonly flowName: string | null;
  readonly stepIndex: number | null;
}

/** The expression site of a YAML value path, or null when the path holds no expression. */
export function exprSiteOf(
  view: DocView,
  path: readonly PathSeg[],
  node: ScalarNode | null,
): ExprSite | null {
  const kind = siteKind(path);
  if (kind === null) return null;
  const text = scalarText(view.text, node);
  const at = stepOfPath(path);
  if (at !== null) {
    const flow = view.model?.flowByName.get(at.flow) ?? null;
    const step = flow?.steps.find((s) => s.index === at.index) ?? null;
    return { kind, node, text, step, fn: null, property: null, flow, flowName: at.flow, stepIndex: at.index };
  }
  if (kind === "property") {
    const property = String(path[1]);
    const flowName = stringValue(nodeAt(view.root, ["properties", property, "flow"]));
    const flow = flowName === null ? null : (view.model?.flowByName.get(flowName) ?? null);
    return { kind, node, text, step: null, fn: null, property, flow, flowName, stepIndex: null };
  }
  const fnName = path[1];
  const fn = typeof fnName === "string" ? (view.model?.functionByName.get(fnName) ?? null) : null;
  const user = fn === null ? null : usersOf(view, fn)[0];
  const flow = user?.flow ?? null;
  return {
    kind,
    node,
    text,
    step: null,
    fn,
    property: null,
    flow,
    flowName: flow?.name ?? null,
    stepIndex: null,
  };
}

/** The keys of a property whose value is one expression. */
const PROPERTY_CONDITIONS: ReadonlySet<string> = new Set(["always", "never", "eventually"]);

function siteKind(path: readonly PathSeg[]): SiteKind | null {
  if (stepOfPath(path) !== null) {
    const key = path[4];
    if (path.length === 5 && typeof key === "string" && isStepExpressionField(key)) return key;
    if (path.length === 6 && key === "ensure" && typeof path[5] === "number") return "ensure";
    if (path.length === 6 && key === "inputs" && typeof path[5] === "string") return "input";
    // A parallel_dispatch step's `source` is a `$` reference resolved like an input's (docs/reference/language.md §6.4).
    if (path.length === 5 && key === "source") return "input";
    return null;
  }
  if (path.length === 4 && path[0] === "functions" && path[2] === "ensure" && typeof path[3] === "number") {
    return "ensure";
  }
  if (path[0] === "properties" && typeof path[1] === "string") {
    const [, , key, role] = path;
    if (path.length === 3 && typeof key === "string" && PROPERTY_CONDITIONS.has(key)) return "property";
    if (path.length === 4 && key === "leads_to" && (role === "from" || role === "to")) return "property";
  }
  return null;
}

/** The text the checker sees: a string scalar's value; a plain scalar of another type as written. */
function scalarText(text: string, node: ScalarNode | null): string {
  if (node === null) return "";
  if (typeof node.value === "string") return node.value;
  return node.style === "plain" ? text.slice(node.range.start, node.range.end) : "";
}

/** The expression offset of file offset `o`: the first character produced at or after `o`. */
export function toExprOffset(site: ExprSite, o: number): number {
  const node = site.node;
  if (node === null) return 0;
  let lo = 0;
  let hi = site.text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (node.mapRange(mid, mid).start >= o) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The file range of the expression range [start, end); at the cursor when there is no scalar yet. */
export function toFileRange(site: ExprSite, start: number, end: number, cursor: number) {
  if (site.node === null) return { start: cursor, end: cursor };
  if (start === end) {
    const at = site.node.mapRange(start, start).start;
    return { start: at, end: at };
  }
  return site.node.mapRange(start, end);
}

function usersOf(view: DocView, fn: FunctionDecl): StepDecl[] {
  return (view.model?.flows ?? []).flatMap((f) =>
    f.steps.filter((s) => s.kind === "function" && s.fn === fn),
  );
}

/**
 * The environment of the site's position, as the expression phase builds it (spec-expr/phase.ts):
 * `validate` and `converge` bind their own names (parallel-validate.ts, debate-converge.ts), every
 * other field the position names of docs/reference/language.md §10.6. Without a model, every type is `any`.
 */
export function siteEnvironment(view: DocView, site: ExprSite): ExprEnvironment {
  const table = view.expressions;
  const model = view.model;
  const flow = site.flow;
  const pathType =
    model === null || table === null || flow === null
      ? undefined
      : (ref: PathRef) => resolveRef(ref, flow, table.outputType).type;
  const step = model === null || table === null ? null : site.step;
  const fn = model === null || table === null ? null : site.fn;
  const owner = step !== null ? `Step '${step.id ?? ""}'` : fn !== null ? `Function '${fn.name}'` : "";
  if (site.kind === "property") {
    const state =
      table === null || flow === null ? null : new PropertyState(flow, (s) => table.outputType(s));
    return propertyEnvironment(state, site.property ?? "");
  }
  if (site.kind === "validate" || site.kind === "converge") {
    const records = model === null || step === null ? null : contractRecords(model);
    if (site.kind === "validate") {
      const member = step === null || records === null ? ANY : memberResultType(step, records);
      return validateEnvironment(member, pathType, owner);
    }
    const argument = step === null || records === null ? ANY : argumentType(step, records);
    return convergeEnvironment(argument, pathType, owner);
  }
  const kind: ExpressionKind = site.kind === "input" ? "ensure" : site.kind;
  const any = { result: ANY, element: ANY, accumulates: false, pathType, owner };
  if (model === null || table === null) return environment(kind, any);
  if (step !== null) {
    const accumulate = table.step(step).accumulate;
    return environment(kind, {
      ...any,
      result: table.resultType(step),
      element: accumulate === null ? ANY : elementType(accumulate.type),
      accumulates: step.string("accumulate") !== null,
      scores: step.string("score_expr") !== null,
    });
  }
  if (fn !== null) {
    const users = usersOf(view, fn);
    const result = functionResultType(
      fn,
      contractRecords(model),
      commonProperties(users.map(outputSchemaProperties)),
    );
    return environment(kind, { ...any, result });
  }
  return environment(kind, any);
}

/** The position names of a site kind (bound there or not), read from its environment without a model. */
export function positionNamesOf(kind: SiteKind): ReadonlySet<string> {
  const env = siteEnvironment(NO_MODEL, {
    kind,
    node: null,
    text: "",
    step: null,
    fn: null,
    property: null,
    flow: null,
    flowName: null,
    stepIndex: null,
  });
  return new Set([...env.names.keys(), ...(env.unavailable?.keys() ?? [])]);
}

const NO_MODEL: DocView = { text: "", root: null, model: null, expressions: null, version: "0.3" };

/** A typed (possibly partial) syntax tree of `text`. */
export interface TypedTree {
  readonly text: string;
  readonly expr: Expr | null;
  readonly types: ReadonlyMap<Expr, Type>;
}

/** Parses with error recovery and types every node the partial tree has. Never throws. */
function typedTree(text: string, env: ExprEnvironment): TypedTree {
  const parsed = parseExpression(text);
  const expr = parsed.expr;
  if (expr === null) return { text, expr: null, types: new Map() };
  const checker = new Checker(text, env);
  try {
    checker.visit(expr, null);
  } catch {
    // A partial tree the checker was not written for: keep the types found so far.
  }
  return { text, expr, types: checker.types };
}

/** A name that never clashes with a user's name, used to complete `x.` and empty operands. */
export const CURSOR_NAME = "stratumCursor";

/** Text ending where an operand must follow (`result.`, `len(`, `a and`). */
const DANGLING = /(?:[.([{,+\-*/%<>=!:]|\b(?:and|or|not|in|is|if|else|for))\s*$/;

/**
 * A typed tree for text being typed. The grammar's error recovery keeps little of an incomplete
 * expression, so we look for a small repair that parses: the word at the cursor replaced by a
 * placeholder name (or one added where an operand is missing), then the text cut after it with
 * its open string and brackets closed and, if needed, a missing `else` or `in` part. Offsets
 * before the cursor word are those of the original text.
 */
export function repairedTree(
  text: string,
  env: ExprEnvironment,
  word: { start: number; end: number } | null,
): TypedTree {
  const candidates: string[] = [];
  let head: string;
  if (word !== null) {
    head = text.slice(0, word.start) + CURSOR_NAME;
    candidates.push(head + text.slice(word.end));
  } else {
    candidates.push(text);
    head = DANGLING.test(text) ? text + CURSOR_NAME : text;
  }
  const closed = closeOpen(head);
  for (const suffix of ["", " else None", " in None", " in None else None"]) {
    candidates.push(closed.string + suffix + closed.brackets);
  }
  for (const candidate of candidates) {
    const parsed = parseExpression(candidate);
    if (parsed.diagnostics.length === 0 && parsed.expr !== null) return typedTree(candidate, env);
  }
  return typedTree(candidates[0] ?? text, env);
}

const CLOSER: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

/** The text with an unterminated last string literal closed, and the closers of its open brackets. */
function closeOpen(text: string): { string: string; brackets: string } {
  const tokens = T.tokenize(text);
  const open: string[] = [];
  let string = text;
  for (const tok of tokens) {
    const image = tok.image;
    if (image === "(" || image === "[" || image === "{") open.push(CLOSER[image] ?? "");
    else if (image === ")" || image === "]" || image === "}") open.pop();
    else if (tok.tokenType === T.StringLit && tok.startOffset + image.length === text.length) {
      const quote = /['"]/.exec(image)?.[0];
      const error = (tok.payload as { error: unknown } | undefined)?.error;
      if (quote !== undefined && error !== null && error !== undefined) string = text + quote;
    }
  }
  return { string, brackets: open.reverse().join("") };
}
