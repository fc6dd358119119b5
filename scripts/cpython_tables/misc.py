"""test/stdlib/values/tables/misc.ts: membership (`in`, and in dict views), subscripts, slices and
truthiness."""

import operator

from cpython_ts import outcome

from .rows import ROW_DOC, row_module
from .slice_triples import TRIPLES

PATH = "test/stdlib/values/tables/misc.ts"
IN_CONTAINERS = ["abc", "", "a😀b", [1, "a", [2]], (1.0, None), [], {"a": 1, 2: "b", (1, 2): 3}, {}, 5, None,
                 2.5, True]  # fmt: skip
NEEDLES = ["a", "", "bc", "😀", "x", 1, True, 1.0, [2], 2, 2.0, (1, 2), (1.0, 2), None, [1], {}, ("a", 1)]
VIEW_DICT = {"a": 1, 2: [3]}
VIEW_NEEDLES = ["a", 2, 2.0, 1, [3], ("a", 1), ("a", 1.0), (2, [3]), ("a", 2), ([], 1), ("a",), [1]]
VIEWS = {"in.keys": dict.keys, "in.values": dict.values, "in.items": dict.items}
SUBSCRIPTED = ["abc", "a😀b\u0301", [10, 20, 30], (1, "x"), {"a": 1, 1: "one", (1, 2): "t", None: "n"}, {}, 5,
               None, 1.5]  # fmt: skip
KEYS = [0, 1, 2, 3, -1, -3, -4, True, False, 1.0, "a", None, (1, 2), (1.0, 2), [1], 2**62, -(2**62), 2**64,
        -(10**30)]  # fmt: skip
SLICED = ["héllo😀!", [1, 2, 3, 4, 5], (1, 2, 3), "", "abcdef"]
# Slices of values that cannot be sliced, and bounds or steps of the wrong type.
ODD_SLICES = [
    ("abc", (1.5, None, None)),
    ([1], ("a", 1, None)),
    ([1], (None, None, "x")),
    ((1,), ("a", None, 0)),
    ({"a": 1}, (1, 2, None)),
    (5, (1, 2, None)),
    (None, (None, None, None)),
    ([1, 2, 3], (None, None, 1.0)),
]
TRUTHS = [None, True, False, 0, 1, -1, 2**64, 0.0, -0.0, float("nan"), 0.1, "", " ", "0", [], [0], (), (None,),
          {}, {0: 0}]  # fmt: skip


def rows():
    for c in IN_CONTAINERS:
        for x in NEEDLES:
            yield "in", x, c
    for x in VIEW_NEEDLES:
        for op in VIEWS:
            yield op, x, VIEW_DICT
    for c in SUBSCRIPTED:
        for k in KEYS:
            yield "[]", c, k
    for seq, triples in zip(SLICED, TRIPLES):
        for triple in triples:
            yield "slice", seq, triple
    for seq, triple in ODD_SLICES:
        yield "slice", seq, triple
    for v in TRUTHS:
        yield "truth", v, None


def evaluate(op, a, b):
    if op == "in":
        return outcome(lambda: operator.contains(b, a))
    if op in VIEWS:
        return outcome(lambda: operator.contains(VIEWS[op](b), a))
    if op == "[]":
        return outcome(lambda: a[b])
    if op == "slice":
        return outcome(lambda: a[slice(*b)])
    return outcome(lambda: bool(a))


def render():
    return row_module([ROW_DOC], "CONTAINER_ROWS", [(op, a, b, evaluate(op, a, b)) for op, a, b in rows()])
