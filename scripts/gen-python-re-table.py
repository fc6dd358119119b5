#!/usr/bin/env python3
"""Record how CPython's `re` treats a table of patterns, for test/stdlib/regex/python-re.test.ts.

For each pattern: whether re.compile(pattern, IGNORECASE | MULTILINE) accepts it (else str() of the
error), and for a valid one whether re.search finds a match in each text. Re-run:
    python3 scripts/gen-python-re-table.py --out .
(`npm run check:generated` diffs it, like the other CPython tables).
"""
import json
import os
import re
import sys

OUTPUT = "test/stdlib/regex/python-re-table.json"

PATTERNS = [
    "rm -rf", "(?i)password", "secret", "[", "a[", "*a", "a**", "a{2}{3}", "a{,3}", "a{3,1}", "a{", "a{1",
    "{}", "x{}", "(?P<n>a)b", "(?P<n>a)(?P=n)", "(?P=n)", "(?P<1>a)", "(?P<n>a)(?P<n>b)", "(a)\\1", "\\1",
    "(a", "a)", "())", "(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b", "(?<=a+)b", "(?<x)", "(?>a+)b", "a++",
    "a*+", "(?(1)a|b)", "(a)(?(1)b|c)", "(?#comment)x", "(?#open", "\\Z", "a\\Z", "\\Aab", "^ab$", "ab$",
    "\\d+", "\\D", "\\s", "\\S+", "\\w+", "\\W", "[\\w-]", "[^\\W]", "[\\W\\d]", "[a-\\d]", "[z-a]",
    "[]a]", "[^]a]", "[a-]", "\\q", "\\x4", "\\x41", "\\u0041", "\\U00000041", "\\0", "\\07", "\\101",
    "\\400", "\\N{EM DASH}", "\\N", "[\\b]", "\\bkey\\b", "\\Bey", "a(?i)b", "(?x) a b # comment",
    "(?-i:A)", "(?i:a)", "(?s:.)", "(?m)^x", "(?L)a", "(?au)a", "(?z)", "(?i", "(?", "(?P", "(?Px)",
    "a|", "|", "", "a||b", ".", "a.c", "(?s)a.c", "a\\", "[a\\", "\\", "sk-[a-z0-9]{20,}", "AKIA[0-9A-Z]{16}",
    "-----BEGIN [A-Z ]*PRIVATE KEY-----", "(?i)drop\\s+table", "\\$\\{.*\\}", "\\\\n", "\"password\": \"",
    "a{1001}", "a{4294967295}", "[\\N{EM DASH}a]", "(a)*", "^*", "\\b*", "(?:)*", "x*?", "x??", "x{2,3}?", "[\\s\\S]",
    "[^\\s]", "\\.\\*", "[.]", "(?-m:$)", "a\n(", "é", "(?a)\\w+", "[[]", "[a&&b]", "(?i)K",
]

TEXTS = [
    '{"v": "rm -RF /"}', '{"v": "hello"}', '{"password": "x"}', 'ab', 'AB', 'a]', 'abc', 'a\nb', 'x\n',
    '{"v": "key: 123"}', 'aa', 'b', 'cab', '{"v": "caf\\u00e9"}', 'sk-abcdefghij0123456789', 'a.c', 'a*',
    '${x}', 'DROP  TABLE', '', 'KEY', 'monkey', 'x', 'K',
]

FLAGS = re.IGNORECASE | re.MULTILINE


def record(pattern):
    try:
        compiled = re.compile(pattern, FLAGS)
    except re.error as exc:
        return {"pattern": pattern, "valid": False, "error": str(exc)}
    except (OverflowError, ValueError) as exc:
        return {"pattern": pattern, "valid": False, "error": str(exc), "not_re_error": True}
    return {"pattern": pattern, "valid": True, "matches": [bool(compiled.search(t)) for t in TEXTS]}


def main():
    import warnings
    warnings.simplefilter("ignore")
    out_dir = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "."
    out = {"python": ".".join(sys.version.split()[0].split(".")[:2]), "flags": "IGNORECASE|MULTILINE",
           "texts": TEXTS, "cases": [record(p) for p in PATTERNS]}
    path = os.path.join(out_dir, OUTPUT)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    body = json.dumps(out, indent=1, ensure_ascii=False)
    # The first line names the generator, as every generated file's does (a JSON key, not a comment).
    header = '{"generated": "by scripts/gen-python-re-table.py from CPython — do not edit; regenerate instead",'
    with open(path, "w", encoding="utf-8") as f:
        f.write(header + "\n" + body[2:] + "\n")


if __name__ == "__main__":
    main()
