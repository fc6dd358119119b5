// Semantic tokens of every expression string (a step's ensure and expression fields as
// spec-expr/step-expressions.ts lists them, a function's ensure, a property's conditions) and of the `$` references of step
// inputs, from the grammar's own lexer, mapped into the file through each scalar's value-index →
// source map and split so that every token lies on one line (folded and multi-line scalars). The
// names a field's position binds (`result`, `results`, `round`…) are parameters there only.
import { type IToken, tokenMatcher } from "chevrotain";
import * as T from "../../grammar/tokens";
import { BUILTINS } from "../../stdlib/builtins/registry";
import { isStepExpressionField } from "../spec-expr/step-expressions";
import type { ScalarNode, SpecNode } from "../yaml/nodes";
import { positionNamesOf, type SiteKind } from "./context-expr";
import type { DocView } from "./cursor-view";
import type { OffsetRange, SemanticTokenInfo, TokenType } from "./types";

/** The legend: token type names in the order the LSP encodes them. */
export const TOKEN_TYPES = [
  "variable",
  "parameter",
  "property",
  "function",
  "method",
  "keyword",
  "string",
  "number",
  "operator",
  "namespace",
] as const satisfies readonly TokenType[];

/** The position names of each kind of site (docs/reference/language.md §10.6), computed once. */
const positionNames = new Map<SiteKind, ReadonlySet<string>>();

function positionNamesFor(kind: SiteKind): ReadonlySet<string> {
  let names = positionNames.get(kind);
  if (names === undefined) {
    names = positionNamesOf(kind);
    positionNames.set(kind, names);
  }
  return names;
}

interface ExpressionScalar {
  readonly scalar: ScalarNode;
  readonly kind: SiteKind;
}

const KEYWORD_TYPES = [T.And, T.Or, T.Not, T.In, T.Is, T.If, T.Else, T.For, T.NotIn, T.IsNot];

export function expressionTokens(view: DocView): SemanticTokenInfo[] {
  const out: SemanticTokenInfo[] = [];
  for (const { scalar, kind } of expressionScalars(view.root)) {
    tokensOfExpression(view.text, scalar, positionNamesFor(kind), out);
  }
  for (const scalar of inputReferences(view.root)) {
    pushMapped(view.text, scalar.mapRange(0, String(scalar.value).length), "namespace", out);
  }
  out.sort((a, b) => a.range.start - b.range.start);
  return out;
}

function mapOf(node: SpecNode | undefined): (SpecNode & { kind: "map" }) | null {
  return node?.kind === "map" ? node : null;
}

function stringScalar(node: SpecNode | undefined): ScalarNode | null {
  return node?.kind === "scalar" && typeof node.value === "string" ? node : null;
}

function stepMaps(root: SpecNode | null): (SpecNode & { kind: "map" })[] {
  const flows = mapOf(mapOf(root ?? undefined)?.get("flows")?.value);
  const out: (SpecNode & { kind: "map" })[] = [];
  for (const flow of flows?.entries ?? []) {
    const steps = mapOf(flow.value)?.get("steps")?.value;
    if (steps?.kind !== "seq") continue;
    for (const item of steps.items) if (item.kind === "map") out.push(item);
  }
  return out;
}

function ensureItems(owner: SpecNode & { kind: "map" }): ExpressionScalar[] {
  const ensure = owner.get("ensure")?.value;
  if (ensure?.kind !== "seq") return [];
  return ensure.items.flatMap((item) => {
    const s = stringScalar(item);
    return s === null ? [] : [{ scalar: s, kind: "ensure" as const }];
  });
}

/** Every expression scalar of the tree: step expression fields, function ensures, properties. */
function expressionScalars(root: SpecNode | null): ExpressionScalar[] {
  const out: ExpressionScalar[] = [];
  for (const step of stepMaps(root)) {
    for (const entry of step.entries) {
      const s = stringScalar(entry.value);
      if (s !== null && entry.name !== null && isStepExpressionField(entry.name)) {
        out.push({ scalar: s, kind: entry.name });
      }
    }
    out.push(...ensureItems(step));
  }
  const functions = mapOf(mapOf(root ?? undefined)?.get("functions")?.value);
  for (const fn of functions?.entries ?? []) {
    const map = mapOf(fn.value);
    if (map !== null) out.push(...ensureItems(map));
  }
  out.push(...propertyConditions(root));
  return out;
}

/** The conditions of each property: always / never / eventually, leads_to's from and to. */
function propertyConditions(root: SpecNode | null): ExpressionScalar[] {
  const out: ExpressionScalar[] = [];
  const push = (node: SpecNode | undefined) => {
    const s = stringScalar(node);
    if (s !== null) out.push({ scalar: s, kind: "property" });
  };
  const properties = mapOf(mapOf(root ?? undefined)?.get("properties")?.value);
  for (const p of properties?.entries ?? []) {
    const map = mapOf(p.value);
    for (const key of ["always", "never", "eventually"]) push(map?.get(key)?.value);
    const leads = mapOf(map?.get("leads_to")?.value);
    push(leads?.get("from")?.value);
    push(leads?.get("to")?.value);
  }
  return out;
}

/** Step input values and parallel_dispatch `source` values that are `$` references. */
function inputReferences(root: SpecNode | null): ScalarNode[] {
  const out: ScalarNode[] = [];
  const push = (node: SpecNode | undefined) => {
    const s = stringScalar(node);
    if (s !== null && (s.value as string).startsWith("$") && (s.value as string).length > 0) out.push(s);
  };
  for (const step of stepMaps(root)) {
    for (const entry of mapOf(step.get("inputs")?.value)?.entries ?? []) push(entry.value);
    push(step.get("source")?.value);
  }
  return out;
}

function tokensOfExpression(
  text: string,
  scalar: ScalarNode,
  names: ReadonlySet<string>,
  out: SemanticTokenInfo[],
): void {
  const source = scalar.value as string;
  const tokens = T.tokenize(source);
  tokens.forEach((tok, i) => {
    const type = classify(tok, tokens[i - 1], tokens[i + 1], names);
    if (type === null) return;
    pushMapped(text, scalar.mapRange(tok.startOffset, tok.startOffset + tok.image.length), type, out);
  });
}

function classify(
  tok: IToken,
  prev: IToken | undefined,
  next: IToken | undefined,
  positionNames: ReadonlySet<string>,
): TokenType | null {
  const type = tok.tokenType;
  if (type === T.Name) {
    const called = next?.tokenType === T.LParen;
    if (prev?.tokenType === T.Dot) return called ? "method" : "property";
    if (positionNames.has(tok.image)) return "parameter";
    if (called && BUILTINS.has(tok.image)) return "function";
    return "variable";
  }
  if (
    KEYWORD_TYPES.includes(type) ||
    tokenMatcher(tok, T.LiteralKeyword) ||
    tokenMatcher(tok, T.ReservedKeyword)
  ) {
    return "keyword";
  }
  if (type === T.StringLit) return "string";
  if (type === T.NumberLit) return "number";
  if (type === T.DollarPath || type === T.LoneDollar) return "namespace";
  if (tokenMatcher(tok, T.BinaryOperator) || tokenMatcher(tok, T.PrefixOperator) || type === T.Assign) {
    return "operator";
  }
  return null;
}

/** Pushes `range` as one token per line it covers (indentation of continuation lines left out). */
function pushMapped(text: string, range: OffsetRange, type: TokenType, out: SemanticTokenInfo[]): void {
  let start = range.start;
  const end = Math.min(range.end, text.length);
  while (start < end) {
    let lineEnd = start;
    while (lineEnd < end && text.charCodeAt(lineEnd) !== 10 && text.charCodeAt(lineEnd) !== 13) lineEnd++;
    if (lineEnd > start) out.push({ range: { start, end: lineEnd }, type });
    start = lineEnd;
    while (start < end && (text.charCodeAt(start) === 10 || text.charCodeAt(start) === 13)) start++;
    while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  }
}
