// Completion inside an expression string (and inside a step input's `$` reference): names in
// scope for the position (docs/reference/language.md §10.6), comprehension variables, builtins with signatures,
// True/False/None, fields and methods after `x.` by the static type of x, and `$` path segments
// (`$.input.<name>`, `$.steps.<id>.output.<field>`; in a property, the property state's paths).
// Works on incomplete text: the tree comes
// from the grammar's error recovery with a placeholder name at the cursor.
import type { IToken } from "chevrotain";
import type { Expr, Path, PathRef, PathSegment } from "../../grammar/ast";
import * as T from "../../grammar/tokens";
import { walk } from "../../grammar/walk";
import { BUILTINS } from "../../stdlib/builtins/registry";
import { typeToString } from "../../stdlib/types/print";
import { ANY, type Type } from "../../stdlib/types/type";
import { withoutNone } from "../../stdlib/types/union";
import type { ExprEnvironment } from "../expr/types";
import { fieldItems, memberItems } from "./completion-members";
import {
  CURSOR_NAME,
  type ExprSite,
  repairedTree,
  siteEnvironment,
  toExprOffset,
  toFileRange,
} from "./context-expr";
import { stepsOf } from "./context-schema";
import { stepKindText } from "./context-summary";
import type { DocView } from "./cursor-view";
import { stateSegmentItems } from "./property-expr";
import type { CompletionItemInfo, OffsetRange } from "./types";

/** Documentation of the position names. */
export const POSITION_NAME_DOCS: ReadonlyMap<string, string> = new Map([
  [
    "result",
    "The step's result: its fields are the output contract's fields (and output_schema properties).",
  ],
  ["item", "One element extracted by `accumulate` (accumulate_key only)."],
  ["accumulator", "Every element kept so far by the iteration loop."],
  ["accumulated_count", "The number of elements kept so far."],
  ["new_count", "The number of elements this iteration added (None before the first report)."],
  ["dry_streak", "The number of reports in a row that added nothing."],
  [
    "best_score",
    "The best score of the loop so far, this iteration included (None while nothing scored; exit_criterion next to score_expr).",
  ],
  [
    "prior_scores",
    "The scores of the earlier iterations that gave one, oldest first (exit_criterion next to score_expr).",
  ],
  ["iteration", "This iteration's number, from 1 (exit_criterion next to score_expr)."],
  ["results", "The completed tasks' results, in task order; fields of `member_contract` (validate only)."],
  ["tasks", "Every judged task result as reported (validate only)."],
  ["completed", "The ids of the completed tasks (validate only)."],
  ["failed", "The ids of the failed tasks (validate only)."],
  ["round", "This round's arguments, in debater order; fields of `argument_contract` (converge only)."],
  ["history", "Every round's arguments so far, this round last (converge only)."],
  ["round_number", "The number of the round just played, from 1 (converge only)."],
]);

/** The scopes of the property state (docs/guides/testing-a-spec.md "Properties"). */
const STATE_SCOPES = ["input", "flow", "steps", "gates"];

function isIdentChar(c: string): boolean {
  return /[A-Za-z0-9_]/.test(c);
}

/** [start, end) of the identifier around `off`. */
function wordAround(text: string, off: number): OffsetRange {
  let start = off;
  while (start > 0 && isIdentChar(text.charAt(start - 1))) start--;
  let end = off;
  while (end < text.length && isIdentChar(text.charAt(end))) end++;
  return { start, end };
}

/** The token whose text contains the cursor (or ends at it). */
function tokenAt(tokens: readonly IToken[], off: number): IToken | null {
  for (const tok of tokens) {
    if (tok.startOffset < off && off <= tok.startOffset + tok.image.length) return tok;
  }
  return null;
}

interface Raw {
  readonly items: CompletionItemInfo[];
  /** Expression offsets of what the items replace. */
  readonly range: OffsetRange;
}

export function expressionCompletions(
  view: DocView,
  site: ExprSite,
  fileOffset: number,
): CompletionItemInfo[] {
  const off = toExprOffset(site, fileOffset);
  const env = siteEnvironment(view, site);
  const raw =
    site.kind === "input" ? inputCompletions(view, site, env, off) : exprCompletions(view, site, env, off);
  if (raw === null) return [];
  // An empty word is replaced at the cursor itself; a mapped word must contain the cursor (a
  // cursor on a quote or in indentation maps to the nearest character, which editors reject).
  const mapped = toFileRange(site, raw.range.start, raw.range.end, fileOffset);
  const replace =
    raw.range.start === raw.range.end || mapped.start > fileOffset || mapped.end < fileOffset
      ? { start: fileOffset, end: fileOffset }
      : mapped;
  return raw.items.map((item) => ({ ...item, replace: item.replace ?? replace }));
}

function exprCompletions(view: DocView, site: ExprSite, env: ExprEnvironment, off: number): Raw | null {
  const text = site.text;
  const tokens = T.tokenize(text);
  const tok = tokenAt(tokens, off);
  if (tok !== null) {
    const type = tok.tokenType;
    if (type === T.StringLit || type === T.Comment || type === T.NumberLit) return null;
    if (type === T.DollarPath || type === T.LoneDollar)
      return pathCompletions(view, site, env, text, tok.startOffset, off);
  }
  const word = wordAround(text, off);
  const tree = repairedTree(text, env, word);
  if (text.charAt(word.start - 1) === ".") {
    const attr = attributeAt(tree.expr, word.start);
    const receiver = attr === null ? ANY : (tree.types.get(attr.value) ?? ANY);
    return { items: memberItems(receiver), range: word };
  }
  return { items: nameItems(env, tree.expr, tree.types, word.start), range: word };
}

function attributeAt(root: Expr | null, attrStart: number): (Expr & { kind: "Attribute" }) | null {
  if (root === null) return null;
  let found: (Expr & { kind: "Attribute" }) | null = null;
  walk(root, {
    enter(node) {
      if (node.kind === "Attribute" && node.attrSpan.start === attrStart) found = node;
      return found === null;
    },
  });
  return found;
}

/** Comprehension variables visible at `off`, innermost comprehension first, with their types. */
export function comprehensionNames(
  root: Expr | null,
  types: ReadonlyMap<Expr, Type>,
  off: number,
): Map<string, Type> {
  const found = new Map<string, Type>();
  if (root === null) return found;
  const scopes: { names: [string, Type][]; size: number }[] = [];
  walk(root, {
    enter(node) {
      if (node.kind !== "ListComp" && node.kind !== "GeneratorExp") return true;
      if (off < node.start || off > node.end) return true;
      const names: [string, Type][] = [];
      const inElt = off >= node.elt.start && off <= node.elt.end;
      for (const g of node.generators) {
        // A clause sees its own target after it (in its ifs, and in later clauses), never in its
        // own iterable; the element sees every target.
        const inIter = off >= g.iter.start && off <= g.iter.end;
        if (inElt || (off > g.target.end && !inIter)) collectTargets(g.target, types, names);
      }
      scopes.push({ names, size: node.end - node.start });
      return true;
    },
  });
  scopes.sort((a, b) => a.size - b.size);
  for (const scope of scopes) for (const [n, t] of scope.names) if (!found.has(n)) found.set(n, t);
  return found;
}

function collectTargets(
  target: Expr | { kind: "TargetList"; elts: readonly unknown[] },
  types: ReadonlyMap<Expr, Type>,
  out: [string, Type][],
): void {
  if (target.kind === "Name") {
    const name = target as Expr & { kind: "Name" };
    if (name.id !== CURSOR_NAME) out.push([name.id, types.get(name) ?? ANY]);
    return;
  }
  if (target.kind === "TargetList") {
    for (const elt of target.elts) collectTargets(elt as Expr, types, out);
  }
}

function nameItems(
  env: ExprEnvironment,
  root: Expr | null,
  types: ReadonlyMap<Expr, Type>,
  off: number,
): CompletionItemInfo[] {
  const items: CompletionItemInfo[] = [];
  const seen = new Set<string>();
  for (const [name, type] of comprehensionNames(root, types, off)) {
    seen.add(name);
    items.push({ label: name, kind: "variable", detail: typeToString(type), sortText: `0${name}` });
  }
  for (const [name, type] of env.names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const doc = POSITION_NAME_DOCS.get(name);
    items.push({
      label: name,
      kind: "variable",
      detail: typeToString(type),
      ...(doc !== undefined ? { documentation: doc } : {}),
      sortText: `1${name}`,
    });
  }
  for (const spec of BUILTINS.values()) {
    // A bound name shadows the builtin (converge's `round`).
    if (seen.has(spec.name)) continue;
    items.push({
      label: spec.name,
      kind: "builtin",
      detail: spec.signature,
      documentation: spec.doc,
      sortText: `2${spec.name}`,
    });
  }
  for (const word of ["True", "False", "None", "not"]) {
    items.push({ label: word, kind: "keyword", sortText: `3${word}` });
  }
  return items;
}

/** A `$` reference being typed: the segment at the cursor. */
function pathCompletions(
  view: DocView,
  site: ExprSite,
  env: ExprEnvironment,
  text: string,
  pathStart: number,
  off: number,
): Raw | null {
  const typed = text.slice(pathStart, off);
  if (typed === "$") {
    const range = { start: pathStart, end: off };
    const scopes = site.kind === "property" ? STATE_SCOPES : ["input", "steps"];
    return {
      items: scopes.map((scope, i) => ({
        label: `$.${scope}`,
        kind: "keyword",
        insertText: `$.${scope}.`,
        sortText: `${i}`,
      })),
      range,
    };
  }
  if (!typed.startsWith("$.")) return null;
  const segments = typed.slice(2).split(".");
  const current = segments.pop() ?? "";
  const start = off - current.length;
  let end = off;
  while (end < text.length && isIdentChar(text.charAt(end))) end++;
  const range = { start, end };
  return { items: segmentItems(view, site, env, segments), range };
}

function segmentItems(
  view: DocView,
  site: ExprSite,
  env: ExprEnvironment,
  prior: readonly string[],
): CompletionItemInfo[] {
  if (site.kind === "property") return stateSegmentItems(view, site, prior);
  const [scope, name, third, ...rest] = prior;
  if (scope === undefined) {
    return [
      { label: "input", kind: "keyword", detail: "the flow's inputs", sortText: "0" },
      { label: "steps", kind: "keyword", detail: "outputs of earlier steps", sortText: "1" },
    ];
  }
  if (scope === "input") {
    if (name === undefined) return inputItems(view, site, env);
    return fieldItems(withoutNone(pathType(env, "input", name, [third, ...rest].filter(isString))));
  }
  if (scope !== "steps") return [];
  if (name === undefined) return stepItems(view, site, "");
  if (third === undefined) return [{ label: "output", kind: "field", detail: "the step's stored output" }];
  if (third !== "output") return [];
  return fieldItems(withoutNone(pathType(env, "steps", name, rest)));
}

function isString(x: string | undefined): x is string {
  return x !== undefined;
}

function segment(name: string): PathSegment {
  return { name, start: 0, end: 0 };
}

function pathType(
  env: ExprEnvironment,
  scope: "input" | "steps",
  name: string,
  fields: readonly string[],
): Type {
  if (env.pathType === undefined) return ANY;
  const ref: PathRef = { scope, name: segment(name), fields: fields.map(segment) };
  const node: Path = { kind: "Path", text: "", ref, start: 0, end: 0 };
  return env.pathType(ref, node);
}

function inputItems(view: DocView, site: ExprSite, env: ExprEnvironment): CompletionItemInfo[] {
  const names = site.flow?.inputNames ?? inputNamesOf(view, site.flowName);
  return names.map((name, i) => ({
    label: name,
    kind: "input",
    detail: typeToString(pathType(env, "input", name, [])),
    documentation: `Input \`${name}\` of flow \`${site.flowName ?? "?"}\`.`,
    sortText: String(i).padStart(4, "0"),
  }));
}

function inputNamesOf(view: DocView, flow: string | null): string[] {
  if (flow === null || view.root?.kind !== "map") return [];
  const flows = view.root.get("flows")?.value;
  const f = flows?.kind === "map" ? flows.get(flow)?.value : undefined;
  const input = f?.kind === "map" ? f.get("input")?.value : undefined;
  return input?.kind === "map" ? input.entries.flatMap((e) => (e.name === null ? [] : [e.name])) : [];
}

/** The other steps of the flow, in declaration order (`prefix` prepended to the inserted text). */
function stepItems(view: DocView, site: ExprSite, prefix: string): CompletionItemInfo[] {
  if (site.flowName === null) return [];
  return stepsOf(view.root, site.flowName)
    .filter((s) => s.index !== site.stepIndex)
    .map((s) => ({
      label: `${prefix}${s.id}`,
      kind: "step",
      detail: stepKindText(view, s.map),
      sortText: String(s.index).padStart(4, "0"),
    }));
}

/** A step input value: a `$` reference being typed, or nothing yet (whole references offered). */
function inputCompletions(view: DocView, site: ExprSite, env: ExprEnvironment, off: number): Raw | null {
  const text = site.text;
  if (text.startsWith("$")) return pathCompletions(view, site, env, text, 0, off);
  if (text.trim() !== "") return null;
  const inputs = inputItems(view, site, env).map((item) => ({
    ...item,
    label: `$.input.${item.label}`,
  }));
  const steps = stepItems(view, site, "").map((item) => ({
    ...item,
    label: `$.steps.${item.label}.output`,
    sortText: `1${item.sortText ?? ""}`,
  }));
  return { items: [...inputs, ...steps], range: { start: 0, end: text.length } };
}
