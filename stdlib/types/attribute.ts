// Typing of attribute access, method calls and calls of values (docs/reference/language.md §10.8.9).
import { type AccessResult, liftAccess, type UnknownMethod } from "./access";
import { isTuple } from "./kinds";
import { hasMethod, type MethodReceiverKind, methodNames, methodTypeRules } from "./method-rules";
import { fail, ok } from "./outcome";
import { memberPyName } from "./print";
import { ANY, NONE, type Type } from "./type";
import { union } from "./union";

const name = (m: Type): string => memberPyName(m) ?? "object";

/** The dict methods that a method call on a dict or namespace always reaches (docs/reference/language.md §10.8.9). */
const MAPPING_METHODS: ReadonlySet<string> = new Set(["get", "keys", "values", "items"]);

/** What a call supplies: argument types, and hooks the checker fills in. */
export interface CallShape {
  readonly args: readonly Type[];
  readonly keywords: ReadonlyMap<string, Type>;
  /** The first argument's value when it is a string literal (`.get('f')` on records). */
  readonly literalKey?: string;
  /** The arity message for a call of method "<receiver>.<name>" with this shape, or null. */
  readonly arity?: (qualifiedName: string) => string | null;
}

function sequenceReceiver(m: Type): MethodReceiverKind | null {
  if (m.k === "str" || m.k === "list") return m.k;
  return isTuple(m) ? "tuple" : null;
}

function unknownMethod(m: Type, attr: string, candidates: readonly string[]): UnknownMethod {
  return { ok: false, code: "EXPR-UNKNOWN-METHOD", receiver: name(m), name: attr, candidates };
}

function method(receiver: Type, attr: string): Type {
  return { k: "method", receiver, name: attr };
}

/** `ns.attr` on the namespace's underlying record or dict member. */
function namespaceAttribute(inner: Type, attr: string): AccessResult {
  if (inner.k === "record") {
    const field = inner.record.fields.get(attr);
    return field === undefined
      ? { ok: false, code: "EXPR-UNKNOWN-FIELD", record: inner.record, field: attr }
      : ok(field.type);
  }
  if (inner.k === "dict") return ok(inner.value);
  return ok(ANY);
}

function memberAttribute(m: Type, attr: string): AccessResult {
  switch (m.k) {
    case "any":
      return ok(ANY);
    case "ns":
      return liftAccess(m.of, (inner) => namespaceAttribute(inner, attr));
    case "record": {
      const field = m.record.fields.get(attr);
      if (field !== undefined) return ok(field.type);
      if (MAPPING_METHODS.has(attr)) return ok(method(m, attr));
      return { ok: false, code: "EXPR-UNKNOWN-FIELD", record: m.record, field: attr };
    }
    case "dict":
      return ok(MAPPING_METHODS.has(attr) ? union(m.value, method(m, attr)) : m.value);
    case "keys":
    case "values":
    case "items":
      return unknownMethod(m, attr, []);
    default: {
      const receiver = sequenceReceiver(m);
      if (receiver === null) return fail(`'${name(m)}' object has no attribute '${attr}'`);
      return hasMethod(receiver, attr) ? ok(method(m, attr)) : unknownMethod(m, attr, methodNames(receiver));
    }
  }
}

/** `obj.attr` not immediately called. */
export function attributeType(obj: Type, attr: string): AccessResult {
  return liftAccess(obj, (m) => memberAttribute(m, attr));
}

/** `.get('f')` on a record: the field's type or the default; unknown fields are errors. */
function recordGet(m: Type, call: CallShape): AccessResult | null {
  const key = call.literalKey;
  if (key === undefined) return null;
  const record = m.k === "record" ? m.record : m.k === "ns" && m.of.k === "record" ? m.of.record : null;
  if (record === null) return null;
  const field = record.fields.get(key);
  if (field === undefined) return { ok: false, code: "EXPR-UNKNOWN-FIELD", record, field: key };
  return ok(union(field.type, call.args[1] ?? NONE));
}

function applyMethod(receiver: MethodReceiverKind, attr: string, m: Type, call: CallShape): AccessResult {
  const qualified = `${receiver}.${attr}`;
  const arity = call.arity?.(qualified) ?? null;
  if (arity !== null) return { ok: false, code: "EXPR-ARITY", message: arity };
  if (qualified === "dict.get") {
    const viaField = recordGet(m, call);
    if (viaField !== null) return viaField;
  }
  const rule = methodTypeRules[qualified];
  return rule === undefined ? ok(ANY) : rule(m, call.args, call.keywords);
}

function memberMethodCall(m: Type, attr: string, call: CallShape): AccessResult {
  if (m.k === "any") return ok(ANY);
  if ((m.k === "dict" || m.k === "record" || m.k === "ns") && MAPPING_METHODS.has(attr)) {
    return applyMethod("dict", attr, m, call);
  }
  const receiver = sequenceReceiver(m);
  if (receiver !== null && hasMethod(receiver, attr)) return applyMethod(receiver, attr, m, call);
  const value = memberAttribute(m, attr);
  return value.ok ? callType(value.type, call) : value;
}

/** `obj.attr(args)`: a method call, or the attribute's value called. */
export function methodCallType(obj: Type, attr: string, call: CallShape): AccessResult {
  return liftAccess(obj, (m) => memberMethodCall(m, attr, call));
}

/** Calling a value of type `callee` (only bound methods are callable). */
export function callType(callee: Type, call: CallShape): AccessResult {
  return liftAccess(callee, (m) => {
    if (m.k === "method") {
      if (m.receiver === undefined || m.name === undefined) return ok(ANY);
      return memberMethodCall(m.receiver, m.name, call);
    }
    return fail(`'${name(m)}' object is not callable`);
  });
}
