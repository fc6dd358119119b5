"""test/stdlib/values/tables/compare.ts: == over every pair of operands, then the orderings, each
between values of one kind and against a few values of other kinds."""

import operator

from cpython_ts import outcome

from .rows import ROW_DOC, row_module

PATH = "test/stdlib/values/tables/compare.ts"
BIG = 10**400
OPERANDS = [
    0, 1, True, False, 1.0, -0.0, 0.5, float("nan"), float("inf"),
    2**53, 2**53 + 1, 2.0**53, 2**64, 2.0**64, BIG, -BIG,
    "a", "B", "", "ab", "\ue000", "😀", "\u00e9", "e\u0301",
    [], [1], [1, 2], [1, "a"], [1, 3], [[1]],
    (), (1,), (1, 2), (1, "a"), ("a", 1),
    None,
    {}, {"a": 1}, {"a": 1.0}, {1: "x", 2: "y"}, {2: "y", 1: "x"}, {True: "x", 2: "y"},
]  # fmt: skip
# The fewer operands of <=, > and >=.
SMALL = [1, True, 1.0, float("nan"), 2**53 + 1, 2.0**53, BIG, "a", "B", "\ue000", "😀",
         [1], [1, 2], [1, "a"], (1,), (1, "a"), None, {}]  # fmt: skip
ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def kind(v):
    return "number" if isinstance(v, (int, float)) else type(v).__name__


def ordered(op, operands, others):
    """a op b for b of a's kind, and for the values of other kinds in `others`, in operand order."""
    for a in operands:
        for b in operands:
            if kind(a) == kind(b) or any(b is o for o in others):
                yield op, a, b


def rows():
    for a in OPERANDS:
        for b in OPERANDS:
            yield "==", a, b
    # Identity, not equality: the first str and list of OPERANDS, and None.
    yield from ordered("<", OPERANDS, [OPERANDS[16], OPERANDS[24], None])
    for op in ("<=", ">", ">="):
        yield from ordered(op, SMALL, [SMALL[7], None])


def evaluate(op, a, b):
    return outcome(lambda: operator.eq(a, b) if op == "==" else ORDER[op](a, b))


def render():
    return row_module([ROW_DOC], "COMPARISON_ROWS", [(op, a, b, evaluate(op, a, b)) for op, a, b in rows()])
