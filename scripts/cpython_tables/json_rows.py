"""test/stdlib/values/tables/json.ts: json.loads of JSON texts, and json.dumps of values, plain and
canonical (sort_keys=True)."""

import json

from cpython_ts import outcome, ts

from .rows import header

PATH = "test/stdlib/values/tables/json.ts"
NAN = float("nan")
TEXTS = [
    "1", "1.0", "-0", "-0.0", "1e400", "-1e400", "1E2", "1e-2", "12345678901234567890", "-9007199254740993",
    "9007199254740991", "123456789012345678901234567890.5", "0.1", "true", "false", "null", "NaN", "Infinity",
    "-Infinity", r'"a\u00e9\ud83d\ude00\n\/"', r'"\ud800"', ' [1, 2.5, "x", [], {}] ',
    '{"a": 1, "b": {"c": [true, null]}}', '{"a": 1, "a": 2, "b": 3}', '{"b": 1, "a": 2}', "[[[[[[[[[[1]]]]]]]]]]",
    '"日本"', '{"": 0}',
    # Errors: the message names the problem and its line, column and character offset.
    "", "[1,]", '{"a":1,}', "[1 2]", '{"a" 1}', "{1: 2}", "01", "1.", ".5", "+1", '"abc', r'"a\x"', '"\t"', "nul",
    "[1]x", '{"a":1]', "-", "1e", "tru",
]  # fmt: skip
VALUES = [
    None, True, 1, -(2**70), 1.0, 0.1, 1e16, -0.0, NAN, float("inf"), float("-inf"),
    'é😀\n"\\\x7f\x1f\u2028', "\ud800", [1, (2, 3), []],
    {"b": [1, 2.0, "é"], "a": None},
    {1: "c", 1.5: "b", None: "d", "z": "e"},
    {(1, 2): "tup"},
    {"é": 1, "e": 2, "z": 3, "A": 4, "😀": 5, "\ue000": 6},
    {"k": {"y": 1, "x": [{"b": 1, "a": 2}]}},
    {NAN: 1, float("inf"): 2},
]  # fmt: skip


def json_key(k):
    """A dict key as json.dumps writes it; keys json cannot write at all (tuples) become str(k)."""
    if isinstance(k, str):
        return k
    if k is None or isinstance(k, (bool, int, float)):
        return json.dumps(k)
    return str(k)


def keys_as_str(v):
    # Deviation per docs/reference/language.md §10.16: every key is converted to its JSON string before
    # writing, so mixed-type keys sort as strings (CPython's sort_keys raises TypeError) and a
    # tuple key is written as its str() (CPython raises TypeError).
    if isinstance(v, dict):
        return {json_key(k): keys_as_str(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [keys_as_str(x) for x in v]
    return v


def render():
    parse = "".join(f"  [{ts(text)}, {ts(outcome(lambda: json.loads(text)))}],\n" for text in TEXTS)
    encode = "".join(
        f"  [{ts(v)}, {ts(json.dumps(keys_as_str(v)))}, {ts(json.dumps(keys_as_str(v), sort_keys=True, default=str))}],\n"
        for v in VALUES
    )
    return (
        header(
            "json.loads / json.dumps / json.dumps(sort_keys=True, default=str).",
            "Deviation per docs/reference/language.md §10.16: mixed-type keys are converted to strings before sorting.",
        )
        + 'import type { PyValue } from "../../../../stdlib/values/value";\n'
        + 'import { big, d, f, t } from "../support";\n\n'
        + "/** [JSON text, repr of the decoded value or !JSONDecodeError: message] */\n"
        + f"export const PARSE_ROWS: readonly (readonly [string, string])[] = [\n{parse}];\n\n"
        + "/** [value, json.dumps(value), canonical JSON] */\n"
        + f"export const ENCODE_ROWS: readonly (readonly [PyValue, string, string])[] = [\n{encode}];\n"
    )
