// Attribute access, method calls and builtin calls (docs/reference/language.md §10.8.9, docs/reference/language.md §10.13).
import { dictGetStr } from "../values/dict";
import { PyError, typeError } from "../values/errors";
import { PyBoundMethod, PyDict, PyNamespace, PyTuple, type PyValue, typeName } from "../values/value";
import { arityError } from "./arity";
import type { EvalEnv } from "./env";
import { METHODS, type MethodReceiver, type MethodSpec } from "./methods";
import { BUILTINS } from "./registry";

type Kwargs = ReadonlyMap<string, PyValue> | null;

/** The method table a value uses: namespaces share the dict methods. */
export function receiverOf(v: PyValue): MethodReceiver | null {
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PyDict || v instanceof PyNamespace) return "dict";
  return null;
}

function methodOf(v: PyValue, name: string): MethodSpec | undefined {
  const receiver = receiverOf(v);
  return receiver === null ? undefined : METHODS.get(`${receiver}.${name}`);
}

function noAttribute(obj: PyValue, name: string): PyError {
  return new PyError("AttributeError", `'${typeName(obj)}' object has no attribute '${name}'`);
}

/**
 * `obj.name` not immediately called: a namespace gives the value under `name`; a dict the value
 * under `name`, else its method `name` as a bound method; str, list and tuple their methods.
 */
export function getAttribute(obj: PyValue, name: string): PyValue {
  if (obj instanceof PyNamespace) {
    const value = dictGetStr(obj.dict, name);
    if (value === undefined) throw noAttribute(obj, name);
    return value;
  }
  if (obj instanceof PyDict) {
    const value = dictGetStr(obj, name);
    if (value !== undefined) return value;
  }
  if (methodOf(obj, name) !== undefined) return new PyBoundMethod(obj, name);
  throw noAttribute(obj, name);
}

function invoke(
  spec: MethodSpec,
  self: PyValue,
  args: readonly PyValue[],
  kwargs: Kwargs,
  env: EvalEnv,
): PyValue {
  const message = arityError(
    `${spec.receiver}.${spec.name}`,
    spec.params,
    args.length,
    kwargs ? [...kwargs.keys()] : [],
  );
  if (message !== null) throw typeError(message);
  return spec.impl(self, args, kwargs, env);
}

/**
 * `obj.name(args)`: a method of a dict or namespace (get/keys/values/items, even when a key of
 * that name exists), of a str, list or tuple is called directly; otherwise `obj.name` is
 * evaluated and the value called.
 */
export function callMethod(
  obj: PyValue,
  name: string,
  args: readonly PyValue[],
  kwargs: Kwargs,
  env: EvalEnv,
): PyValue {
  const spec = methodOf(obj, name);
  if (spec !== undefined) return invoke(spec, obj, args, kwargs, env);
  return callValue(getAttribute(obj, name), args, kwargs, env);
}

/** Calls a value: a bound method runs its method; anything else is not callable. */
export function callValue(fn: PyValue, args: readonly PyValue[], kwargs: Kwargs, env: EvalEnv): PyValue {
  if (fn instanceof PyBoundMethod) {
    const spec = methodOf(fn.receiver, fn.name);
    if (spec !== undefined) return invoke(spec, fn.receiver, args, kwargs, env);
  }
  throw typeError(`'${typeName(fn)}' object is not callable`);
}

/** Calls the builtin `name`: arity check (docs/reference/language.md §10.13), then its implementation. */
export function callBuiltin(name: string, args: readonly PyValue[], kwargs: Kwargs, env: EvalEnv): PyValue {
  const spec = BUILTINS.get(name);
  if (spec === undefined) throw new PyError("NameError", `name '${name}' is not defined`);
  const message = arityError(name, spec.params, args.length, kwargs ? [...kwargs.keys()] : []);
  if (message !== null) throw typeError(message);
  return spec.impl(args, kwargs, env);
}
