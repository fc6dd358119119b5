// Calls (docs/reference/language.md §10.8.9, docs/reference/language.md §10.9): builtins by name, methods, and calls of other values.
import type { Attribute, Call, Name, Span } from "../../grammar/ast";
import { arityError } from "../../stdlib/builtins/arity";
import { METHODS } from "../../stdlib/builtins/methods";
import { BUILTINS } from "../../stdlib/builtins/registry";
import type { AccessResult } from "../../stdlib/types/access";
import { attributeType, type CallShape, callType, methodCallType } from "../../stdlib/types/attribute";
import { builtinTypeRules } from "../../stdlib/types/builtin-rules";
import { ANY, type Type } from "../../stdlib/types/type";
import { MESSAGES } from "../messages";
import type { Checker } from "./checker";
import { boundType, reportDunderOrUnavailable } from "./names";
import { BUILTIN_NAMES, isBuiltin, isDunder, type Scope } from "./scope";

interface Arguments {
  readonly shape: CallShape;
  readonly argSpans: readonly Span[];
  readonly keywordSpans: ReadonlyMap<string, Span>;
  readonly keywordNames: readonly string[];
}

function visitArguments(c: Checker, e: Call, scope: Scope | null): Arguments {
  const args = e.args.map((a) => c.visit(a, scope));
  const keywords = new Map<string, Type>();
  const keywordSpans = new Map<string, Span>();
  for (const k of e.keywords) {
    if (isDunder(k.name)) c.dunder(k.nameSpan);
    keywords.set(k.name, c.visit(k.value, scope));
    keywordSpans.set(k.name, k);
  }
  const first = e.args[0];
  const literalKey = first?.kind === "Constant" && typeof first.value === "string" ? first.value : undefined;
  const shape: CallShape = literalKey === undefined ? { args, keywords } : { args, keywords, literalKey };
  return { shape, argSpans: e.args, keywordSpans, keywordNames: e.keywords.map((k) => k.name) };
}

function report(c: Checker, r: AccessResult, e: Call, name: Span, a: Arguments): Type {
  if (r.ok) return r.type;
  c.accessFailure(r, { name, op: e, call: e, args: a.argSpans, keywords: a.keywordSpans });
  return ANY;
}

/** `f(...)` where `f` is not a bound name: a builtin, or an unknown function. */
function builtinCall(c: Checker, e: Call, func: Name, a: Arguments): Type {
  c.record(func, ANY);
  if (reportDunderOrUnavailable(c, func)) return ANY;
  if (!isBuiltin(func.id)) {
    const message = MESSAGES["EXPR-UNKNOWN-FUNCTION"].message(func.id);
    c.reportWithSuggestion("EXPR-UNKNOWN-FUNCTION", message, func, func.id, BUILTIN_NAMES);
    return ANY;
  }
  const spec = BUILTINS.get(func.id);
  const arity = spec === undefined ? null : arityError(func.id, spec.params, e.args.length, a.keywordNames);
  if (arity !== null) {
    c.report("EXPR-ARITY", MESSAGES["EXPR-ARITY"].message(arity), e);
    return ANY;
  }
  const rule = builtinTypeRules[func.id];
  if (rule === undefined) return ANY;
  return report(c, rule(a.shape.args, a.shape.keywords), e, func, a);
}

/** `obj.name(...)`: a method call (or the attribute's value called). */
function methodCall(c: Checker, e: Call, func: Attribute, scope: Scope | null, a: () => Arguments): Type {
  const receiver = c.visit(func.value, scope);
  const args = a();
  if (isDunder(func.attr)) {
    c.dunder(func.attrSpan);
    c.record(func, ANY);
    return ANY;
  }
  const attr = attributeType(receiver, func.attr);
  c.record(func, attr.ok ? attr.type : ANY);
  const shape: CallShape = {
    ...args.shape,
    arity: (qualified) => {
      const spec = METHODS.get(qualified);
      return spec === undefined ? null : arityError(qualified, spec.params, e.args.length, args.keywordNames);
    },
  };
  const r = methodCallType(receiver, func.attr, shape);
  // An unknown field read through `.get('f')` is reported at the key literal.
  const nameSpan =
    !r.ok && r.code === "EXPR-UNKNOWN-FIELD" && func.attr === "get" && e.args[0] ? e.args[0] : func.attrSpan;
  return report(c, r, e, nameSpan, args);
}

export function visitCall(c: Checker, e: Call, scope: Scope | null): Type {
  const func = e.func;
  if (func.kind === "Name" && boundType(c, func.id, scope) === undefined) {
    return builtinCall(c, e, func, visitArguments(c, e, scope));
  }
  // Evaluation order: the callee (receiver) first, then the arguments.
  if (func.kind === "Attribute") return methodCall(c, e, func, scope, () => visitArguments(c, e, scope));
  const callee = c.visit(func, scope);
  const a = visitArguments(c, e, scope);
  return report(c, callType(callee, a.shape), e, func, a);
}
