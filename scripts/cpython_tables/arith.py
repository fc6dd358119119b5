"""test/stdlib/values/tables/arith.ts: + - * / // % between numbers, between other values, sequence
repetition, and unary - / +."""

import operator

from cpython_ts import outcome

from .rows import ROW_DOC, row_module

PATH = "test/stdlib/values/tables/arith.ts"
BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
}
NUMBERS = [0, 1, -1, 7, -7, True, False, 0.0, -0.0, 1.5, -7.5, float("inf"), float("-inf"), float("nan"),
           2**53, -(2**53 + 1), 2**64 + 1, 10**400, 1e308]
OTHERS = ["ab", "é😀", [1, 2], [], (1,), None, {"a": 1}]
# Numbers that meet every other value on either side.
PROBES = [1, 2.5]
SEQUENCES = ["ab", "é😀", [1, 2], [], (1,), None, {"a": 1}]
TIMES = [0, 2, -1, True, False, 1.0, 2**64, None, "x", [1]]


def binary(op, a, b):
    # Deviation per docs/reference/language.md §10.8.5: '%' with a str on the left never formats, so it fails
    # as for any type without '%' instead of running printf-style formatting.
    if op == "%" and isinstance(a, str):
        raise TypeError(f"unsupported operand type(s) for %: 'str' and '{type(b).__name__}'")
    return BINARY[op](a, b)


def rows():
    for op in BINARY:
        for a in NUMBERS:
            for b in NUMBERS:
                yield op, a, b
    for op in BINARY:
        for a in OTHERS:
            for b in OTHERS + PROBES:
                yield op, a, b
            for p in PROBES:
                yield op, p, a
    for s in SEQUENCES:
        for n in TIMES:
            yield "*", s, n
            yield "*", n, s
    for a in NUMBERS + OTHERS:
        yield "u-", a, None
        yield "u+", a, None


def evaluate(op, a, b):
    if op == "u-":
        return outcome(lambda: -a)
    if op == "u+":
        return outcome(lambda: +a)
    return outcome(lambda: binary(op, a, b))


def render():
    table = [(op, a, b, evaluate(op, a, b)) for op, a, b in rows()]
    doc = [ROW_DOC, "Deviation from CPython per docs/reference/language.md §10.8.5: '%' with a str on the left never formats."]
    return row_module(doc, "ARITHMETIC_ROWS", table)
