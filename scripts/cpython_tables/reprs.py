"""test/stdlib/values/tables/reprs.ts: repr() and str() of values, and dict() built from pairs (key
equality across int, float and bool; the last value wins, the first key stays)."""

from cpython_ts import outcome

from .rows import ROW_DOC, row_module

PATH = "test/stdlib/values/tables/reprs.ts"
NAN = float("nan")
VALUES = [
    None, True, False, 0, -5, 2**53, -(2**70), 10**40,
    0.0, -0.0, 1.0, 0.1, 0.1 + 0.2, 1e16, 1e15, 1.2345678901234568e17, 1e-4, 1e-5, 1.5e-7, 5e-324,
    1.7976931348623157e308, -2.5, 1e22, 1e21, 100.0, 1234.5678, NAN, float("inf"), float("-inf"),
    "abc", "", "it's", 'say "hi"', "both ' and \"", "back\\slash", "tab\there", "nl\ncr\r",
    "\x00\x1f\x7f\x80\x9f\xa0\xad", "\u00e9", "e\u0301", "😀", "a😀b", "\u2028\u2029\u200b\u200e\ufeff",
    "\ue000\U000f0000", "\u0378\uffff", "\u3000\xa0 ", "\ud800", "\udc00x", "日本語", "Ωµ", "\U000e0001",
    "\U0010ffff", "\U0001d400",
    [], [1, "a", None, True], (), (1,), (1, 2), ((1,),), {}, {"a": (1,)}, {1: "x", "k": [1.5, -0.0]},
    [[[]]], [{}, ()], {(1, "a"): None}, "xxx",
]  # fmt: skip
DICT_PAIRS = [
    [(1, "a"), (1.0, "b"), (True, "c")],
    [(0, "z"), (-0.0, "y"), (False, "x")],
    [("a", 1), ("b", 2), ("a", 3)],
    [(2**64, "big"), (2.0**64, "bigf")],
    [((1, 2), "x"), ((1.0, 2.0), "y")],
    [(0.5, "h"), ("0.5", "s")],
    [(None, 1), ("None", 2)],
    [("\x01Sx", 1), ("x", 2)],
    [((), "e"), (((),), "n")],
    [([1], 2)],
    [({}, 2)],
    [((1, [2]), 3)],
    [(NAN, 1), (2**53 + 1, 2), (2.0**53, 3), (2**53, 4)],
]


def rows():
    for v in VALUES:
        # The repr of the produced text, so that the row shows which quotes and escapes it has.
        yield "repr", v, None, outcome(lambda: repr(v))
        yield "str", v, None, outcome(lambda: str(v))
    for pairs in DICT_PAIRS:
        yield "dict", pairs, None, outcome(lambda: dict(pairs))


def render():
    doc = [ROW_DOC, "'repr'/'str' rows hold the repr of the produced text; 'dict' rows build a dict from [key, value] pairs."]
    return row_module(doc, "REPR_ROWS", list(rows()))
