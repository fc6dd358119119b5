#!/usr/bin/env python3
"""Differential oracle: evaluates stratumc expressions with CPython's own evaluator.

Reads JSONL cases {"expr": str, "bindings": {...}} on stdin and writes one JSON line per case:
{"repr": "..."} or {"error": "<Kind>: <message>"}.

The expression text is parsed with `ast` and rewritten so that CPython follows OUR documented
semantics (docs/reference/language.md §10) wherever they differ from plain Python:
  * `true`/`false`/`null` are the constants True/False/None;
  * a top-level `result`/`item` object is a namespace (docs/reference/language.md §10.7.3), nested objects are dicts that
    also support attribute access (keys shadow dict methods unless the method is called, docs/reference/language.md §10.8.9);
  * only the methods of docs/reference/language.md §10.10 exist; only the builtins of docs/reference/language.md §10.9 (without file builtins) exist,
    with our parameter specs and the arity message template of docs/reference/language.md §10.13;
  * `%` on a string is not formatting; sequence repetition by a count <= 0 or of an empty
    sequence is empty; a repetition result beyond the evaluation budget raises BudgetExceeded;
  * reprs of generators and bound methods have no address; `str()` of a non-string is its repr;
  * sorted() reports the first failing `a[i] < a[i-1]` comparison before sorting.
"""
import ast
import json
import sys
import warnings

warnings.simplefilter("ignore")
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

BUDGET = 1_000_000


class BudgetExceeded(Exception):
    pass


def budget_error():
    return BudgetExceeded(f"expression exceeded its evaluation budget ({BUDGET} steps)")


class Namespace:
    """The object bound to `result` / `item` (docs/reference/language.md §10.7.3)."""

    __slots__ = ("_d",)
    __hash__ = None

    def __init__(self, d):
        object.__setattr__(self, "_d", d)

    def __getattr__(self, name):
        raise AttributeError(f"'types.SimpleNamespace' object has no attribute '{name}'")

    def __bool__(self):
        return True

    def __eq__(self, other):
        if isinstance(other, Namespace):
            return self._d == other._d
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, Namespace):
            return self._d != other._d
        return NotImplemented

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(self._d)

    def __contains__(self, key):
        return key in self._d

    def __getitem__(self, key):
        return self._d[key]

    def __repr__(self):
        return "namespace(" + ", ".join(f"{k}={pyrepr(v)}" for k, v in self._d.items()) + ")"


Namespace.__name__ = "types.SimpleNamespace"


class Generator:
    """A generator expression's value: single use, repr without an address."""

    __slots__ = ("_it",)

    def __init__(self, it):
        self._it = it

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


Generator.__name__ = "generator"


class BoundMethod:
    """A method accessed without being called; equal only to itself."""

    __slots__ = ("receiver", "name")

    def __init__(self, receiver, name):
        self.receiver = receiver
        self.name = name

    def __call__(self, *args, **kwargs):
        return invoke_method(self.receiver, self.name, args, kwargs)

    def __hash__(self):
        hash(self.receiver)  # as CPython: a method of an unhashable receiver is unhashable
        return id(self)


BoundMethod.__name__ = "builtin_function_or_method"

class View:
    """dict_keys / dict_values / dict_items without CPython's set operations and set ordering
    (docs/reference/language.md §10.8.2–docs/reference/language.md §10.8.4: views are iterable, sized, support `in` and equality, nothing else)."""

    __slots__ = ("_v",)
    __hash__ = None

    def __init__(self, native):
        self._v = native

    def __iter__(self):
        return iter(self._v)

    def __len__(self):
        return len(self._v)

    def __contains__(self, x):
        return x in self._v

    def __eq__(self, other):
        if type(other) is type(self) and type(self) is not ValuesView:
            return self._v == other._v
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq


class KeysView(View):
    __slots__ = ()


class ValuesView(View):
    __slots__ = ()
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = None


class ItemsView(View):
    __slots__ = ()


KeysView.__name__ = "dict_keys"
ValuesView.__name__ = "dict_values"
ItemsView.__name__ = "dict_items"
VIEWS = {"keys": KeysView, "values": ValuesView, "items": ItemsView}
VIEW_TYPES = (KeysView, ValuesView, ItemsView)

METHODS = {
    str: {"startswith", "endswith", "lower", "upper", "strip", "lstrip", "rstrip", "split", "join",
          "replace", "count", "find", "isdigit", "isalpha", "isalnum", "isspace"},
    list: {"count", "index"},
    tuple: {"count", "index"},
    dict: {"get", "keys", "values", "items"},
}
DICT_METHODS = METHODS[dict]


def type_name(v):
    return type(v).__name__ if not isinstance(v, Namespace) else "types.SimpleNamespace"


def methods_of(v):
    for t in (str, list, tuple, dict):
        if type(v) is t:
            return METHODS[t]
    if isinstance(v, Namespace):
        return DICT_METHODS
    return set()


def no_attribute(v, name):
    return AttributeError(f"'{type_name(v)}' object has no attribute '{name}'")


def get_attr(obj, name):
    """`obj.name` not immediately called (docs/reference/language.md §10.8.9)."""
    if isinstance(obj, Namespace):
        if name in obj._d:
            return obj._d[name]
        raise no_attribute(obj, name)
    if type(obj) is dict and name in obj:
        return obj[name]
    if name in methods_of(obj):
        return BoundMethod(obj, name)
    raise no_attribute(obj, name)


def invoke_method(obj, name, args, kwargs):
    target = obj._d if isinstance(obj, Namespace) else obj
    try:
        value = getattr(target, name)(*args, **kwargs)
    except TypeError as e:
        # docs/reference/language.md §10.10 writes these messages with the type name (`not NoneType`); CPython 3.11's
        # argument converters print `not None` for None.
        text = str(e)
        if text.endswith(", not None"):
            raise TypeError(text[: -len("None")] + "NoneType") from None
        raise
    if type(target) is dict and name in VIEWS:
        return VIEWS[name](value)
    return value


def method(obj, name):
    """The callee of `obj.name(args)` (docs/reference/language.md §10.8.9), resolved before the arguments are evaluated."""
    if name in methods_of(obj):
        return BoundMethod(obj, name)
    return get_attr(obj, name)


def seq_repeat(seq, n):
    if not -sys.maxsize - 1 <= n <= sys.maxsize:
        # as CPython (the spec's "<= 0 gives empty" does not cover counts beyond an index)
        raise OverflowError("cannot fit 'int' into an index-sized integer")
    if n <= 0 or len(seq) == 0:
        return seq[:0]
    if len(seq) * n > BUDGET:
        raise budget_error()
    return seq * n


def is_seq(v):
    return type(v) in (str, list, tuple)


def is_int(v):
    return type(v) in (int, bool)


def op_mul(a, b):
    if is_seq(a) and is_int(b):
        return seq_repeat(a, b)
    if is_int(a) and is_seq(b):
        return seq_repeat(b, a)
    return a * b


def op_mod(a, b):
    if type(a) is str:
        raise TypeError(f"unsupported operand type(s) for %: 'str' and '{type_name(b)}'")
    return a % b


def pyrepr(v):
    if isinstance(v, Namespace):
        return repr(v)
    if type(v) is list:
        return "[" + ", ".join(pyrepr(x) for x in v) + "]"
    if type(v) is tuple:
        if len(v) == 1:
            return "(" + pyrepr(v[0]) + ",)"
        return "(" + ", ".join(pyrepr(x) for x in v) + ")"
    if type(v) is dict:
        return "{" + ", ".join(f"{pyrepr(k)}: {pyrepr(x)}" for k, x in v.items()) + "}"
    if isinstance(v, VIEW_TYPES):
        return f"{type(v).__name__}([" + ", ".join(pyrepr(x) for x in v) + "])"
    if isinstance(v, Generator):
        return "<generator object <genexpr>>"
    if isinstance(v, BoundMethod):
        return f"<built-in method {v.name} of {type_name(v.receiver)} object>"
    return repr(v)


# --- builtins with our parameter specs (docs/reference/language.md §10.9) and the arity template (docs/reference/language.md §10.13) -------------

class Params:
    def __init__(self, required, maximum, keywords=(), positional_keywords=(), varargs=False):
        self.required = required
        self.maximum = maximum
        self.keywords = keywords
        self.positional_keywords = positional_keywords
        self.varargs = varargs


def spec_text(p):
    if p.varargs:
        return f"at least {p.required} argument" + ("" if p.required == 1 else "s")
    if p.maximum == 0:
        return "no arguments"
    if p.required == p.maximum:
        return f"exactly {p.maximum} argument" + ("" if p.maximum == 1 else "s")
    return f"from {p.required} to {p.maximum} arguments"


def check_arity(name, p, args, kwargs):
    for k in kwargs:
        if k not in p.keywords and k not in p.positional_keywords:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    n = len(args) + sum(1 for k in kwargs if k in p.positional_keywords)
    if n < p.required or (not p.varargs and n > p.maximum):
        raise TypeError(f"{name}() takes {spec_text(p)} ({n} given)")


def b_str(*args):
    if not args:
        return ""
    x = args[0]
    return x if type(x) is str else pyrepr(x)


def b_sorted(iterable, reverse=False):
    items = list(iterable)
    if not is_int(reverse):
        raise TypeError(f"'{type_name(reverse)}' object cannot be interpreted as an integer")
    for i in range(1, len(items)):
        _ = items[i] < items[i - 1]
    return sorted(items, reverse=reverse)


def b_sum(iterable, start=0):
    items = iter(iterable)  # CPython gets the iterator before it looks at `start`
    if type(start) is str:
        raise TypeError("sum() can't sum strings [use ''.join(seq) instead]")
    total = start
    for x in items:
        total = total + x
    return total


def wrap(name, fn, params):
    def call(*args, **kwargs):
        check_arity(name, params, args, kwargs)
        return fn(*args, **kwargs)

    return call


BUILTINS = {
    "len": wrap("len", len, Params(1, 1)),
    "bool": wrap("bool", bool, Params(0, 1)),
    "int": wrap("int", int, Params(0, 1)),
    "float": wrap("float", float, Params(0, 1)),
    "str": wrap("str", b_str, Params(0, 1)),
    "min": wrap("min", min, Params(1, 1, keywords=("default",), varargs=True)),
    "max": wrap("max", max, Params(1, 1, keywords=("default",), varargs=True)),
    "any": wrap("any", any, Params(1, 1)),
    "all": wrap("all", all, Params(1, 1)),
    "sum": wrap("sum", b_sum, Params(1, 2, positional_keywords=("start",))),
    "abs": wrap("abs", abs, Params(1, 1)),
    "round": wrap("round", round, Params(1, 2, positional_keywords=("ndigits",))),
    "sorted": wrap("sorted", b_sorted, Params(1, 1, keywords=("reverse",))),
}


# --- the rewrite -----------------------------------------------------------------------------

def helper(name, args, keywords=()):
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args, keywords=list(keywords))


class Rewrite(ast.NodeTransformer):
    ALIASES = {"true": True, "false": False, "null": None}

    def visit_Name(self, node):
        if node.id in self.ALIASES:
            return ast.Constant(value=self.ALIASES[node.id])
        return node

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute):
            callee = helper("_method", [self.visit(node.func.value), ast.Constant(value=node.func.attr)])
            args = [self.visit(a) for a in node.args]
            keywords = [self.visit(k) for k in node.keywords]
            return ast.Call(func=callee, args=args, keywords=keywords)
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        return helper("_get_attr", [self.visit(node.value), ast.Constant(value=node.attr)])

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Mult):
            return helper("_op_mul", [node.left, node.right])
        if isinstance(node.op, ast.Mod):
            return helper("_op_mod", [node.left, node.right])
        return node

    def visit_GeneratorExp(self, node):
        self.generic_visit(node)
        return helper("_generator", [node])


def bind(name, value):
    return Namespace(value) if name in ("result", "item") and type(value) is dict else value


def run(case):
    text = case["expr"]
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        return {"error": f"SyntaxError: {e.msg}"}
    tree = ast.fix_missing_locations(Rewrite().visit(tree))
    env = {
        "__builtins__": BUILTINS,
        "_get_attr": get_attr,
        "_method": method,
        "_op_mul": op_mul,
        "_op_mod": op_mod,
        "_generator": Generator,
    }
    for k, v in (case.get("bindings") or {}).items():
        env[k] = bind(k, v)
    try:
        value = eval(compile(tree, "<expr>", "eval"), env)
        return {"repr": pyrepr(value)}
    except KeyError as e:
        return {"error": f"KeyError: {pyrepr(e.args[0]) if len(e.args) == 1 else e}"}
    except Exception as e:  # every Python error is an outcome to compare
        return {"error": f"{type(e).__name__}: {e}"}


def main():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            result = run(json.loads(line))
        except RecursionError as e:
            result = {"error": f"RecursionError: {e}"}
        out.write(json.dumps(result) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
