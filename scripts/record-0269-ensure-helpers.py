# scripts/record-0269-ensure-helpers.py: records what the reference's ensure helpers
# plan_completion and vocabulary_compliance (stratum-mcp 0.2.69, smartmemory/stratum at 63fc11d)
# answer, into test/conformance/recorded/ensure-helpers-0269.jsonl.
#
# Usage: python3 scripts/record-0269-ensure-helpers.py [--repo GIT_DIR] [--commit 63fc11d]
#
# The helpers' section of stratum-mcp/src/stratum_mcp/spec.py (from "Ensure builtin —
# vocabulary_compliance" to "Public parse entry point") is read from the reference's git
# directory and executed on its own (it needs only os, re, subprocess and yaml). Each case writes
# its files into a fresh scratch directory, makes it the current directory and evaluates the
# expression with the two helpers as its only globals (as the reference's ensure does, without
# other builtins). Each line: {name, files: {path: base64 bytes}, expr, outcome} where outcome is
# {"value": repr} or {"violations": [...]} (a ValueError raised with a list of strings, which an
# ensure lists one by one) or {"error": "<Type>: <message>"}.
from __future__ import annotations

import argparse
import base64
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT = REPO_ROOT / "test" / "conformance" / "recorded" / "ensure-helpers-0269.jsonl"

VOCAB = b"user_id:\n  reject: [userId, uid]\n  reason: 'DB column is user_id'\norder_total:\n  reject: [orderTotal]\n"

# (name, files, expression). Paths are relative to the scratch directory.
CASES: list[tuple[str, dict[str, bytes], str]] = [
    # vocabulary_compliance: the vocabulary file
    ("vocab-clean", {"v.yaml": VOCAB, "a.py": b"user_id = 1\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-one", {"v.yaml": VOCAB, "a.py": b"userId = 1\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-many", {"v.yaml": VOCAB, "a.py": b"userId = 1\nuid = 2\ndef f(userId): return uid + orderTotal\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-two-files", {"v.yaml": VOCAB, "a.py": b"uid\n", "b/c.py": b"x\norderTotal\n"}, "vocabulary_compliance('v.yaml', ['b/c.py', 'a.py'])"),
    ("vocab-no-file", {"a.py": b"userId\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-empty-file", {"v.yaml": b"", "a.py": b"userId\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-comments-only", {"v.yaml": b"# nothing yet\n", "a.py": b"userId\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-null-document", {"v.yaml": b"~\n", "a.py": b"userId\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-top-list", {"v.yaml": b"- a\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-top-scalar", {"v.yaml": b"just text\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-canonical-dash", {"v.yaml": b"user-id:\n  reject: [a]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-canonical-int", {"v.yaml": b"1:\n  reject: [a]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-canonical-bool", {"v.yaml": b"on:\n  reject: [a]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-canonical-newline", {"v.yaml": b"\"abc\\n\":\n  reject: [a]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-entry-list", {"v.yaml": b"user_id: [userId]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-entry-null", {"v.yaml": b"user_id:\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-unknown-fields", {"v.yaml": b"user_id:\n  reject: [a]\n  why: x\n  alias: y\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-unknown-mixed-keys", {"v.yaml": b"user_id:\n  reject: [a]\n  1: x\n  why: y\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reject-missing", {"v.yaml": b"user_id:\n  reason: x\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reject-empty", {"v.yaml": b"user_id:\n  reject: []\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reject-string", {"v.yaml": b"user_id:\n  reject: userId\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-alias-bad", {"v.yaml": b"user_id:\n  reject: [user-id]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-alias-int", {"v.yaml": b"user_id:\n  reject: [12]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-alias-self", {"v.yaml": b"user_id:\n  reject: [uid, user_id]\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reason-int", {"v.yaml": b"user_id:\n  reject: [uid]\n  reason: 3\n", "a.py": b"a\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reason-null", {"v.yaml": b"user_id:\n  reject: [uid]\n  reason:\n", "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-alias-is-canonical", {"v.yaml": b"a:\n  reject: [b]\nb:\n  reject: [c]\n", "x.py": b"b\n"}, "vocabulary_compliance('v.yaml', ['x.py'])"),
    ("vocab-alias-twice", {"v.yaml": b"a:\n  reject: [c]\nb:\n  reject: [c]\n", "x.py": b"c\n"}, "vocabulary_compliance('v.yaml', ['x.py'])"),
    ("vocab-first-entry-error-wins", {"v.yaml": b"a:\n  reject: [b]\n2:\n  reject: [c]\nb:\n  reject: [d]\n", "x.py": b"b\n"}, "vocabulary_compliance('v.yaml', ['x.py'])"),
    ("vocab-invalid-utf8", {"v.yaml": b"user_id:\n  reject: [uid]\n  reason: \"\xff\"\n", "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-truncated-utf8", {"v.yaml": b"user_id:\n  reject: [uid]\n# \xf0\x9f\x98", "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-crlf", {"v.yaml": b"user_id:\r\n  reject: [uid]\r\n", "a.py": b"uid\r\nx\ruid\r\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    # vocabulary_compliance: the changed files
    ("vocab-files-empty", {"v.yaml": VOCAB, "a.py": b"userId\n"}, "vocabulary_compliance('v.yaml', [])"),
    ("vocab-files-none", {"v.yaml": VOCAB}, "vocabulary_compliance('v.yaml', None)"),
    ("vocab-git-fallback-no-files", {"v.yaml": b"x:\n  reject: [y]\n"}, "vocabulary_compliance('v.yaml', [], True, 'no-such-ref-anywhere')"),
    ("vocab-files-missing", {"v.yaml": VOCAB}, "vocabulary_compliance('v.yaml', ['gone.py', 'b/'])"),
    ("vocab-files-duplicates", {"v.yaml": VOCAB, "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py', './a.py', 'b/../a.py', 'a.py'])"),
    ("vocab-files-normalised", {"v.yaml": VOCAB, "b/a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['b//./a.py'])"),
    ("vocab-files-string", {"v.yaml": b"x:\n  reject: [a]\n", "a": b"a a\n"}, "vocabulary_compliance('v.yaml', 'a')"),
    ("vocab-files-non-str", {"v.yaml": VOCAB, "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py', 3])"),
    ("vocab-files-dir", {"v.yaml": VOCAB, "d/a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['d'])"),
    ("vocab-path-none", {"v.yaml": VOCAB}, "vocabulary_compliance(None, ['a.py'])"),
    ("vocab-path-list", {"v.yaml": VOCAB}, "vocabulary_compliance(['v.yaml'], ['a.py'])"),
    ("vocab-keywords", {"v.yaml": VOCAB, "a.py": b"uid\n"}, "vocabulary_compliance(files_changed=['a.py'], path='v.yaml')"),
    # vocabulary_compliance: matching
    ("vocab-word-boundaries", {"v.yaml": VOCAB, "a.py": b"uid_x xuid uid2 (uid) uid.uid 'uid' uid\n\xc3\xa9uid uid\xc3\xa9 \xd9\xa3uid uid\xe2\x80\x8b\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-case-sensitive", {"v.yaml": VOCAB, "a.py": b"UID Uid uid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-line-breaks", {"v.yaml": VOCAB, "a.py": b"uid\x0buid\x0cuid\x1cuid\xc2\x85uid\xe2\x80\xa8uid\n\nuid"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-source-invalid-utf8", {"v.yaml": VOCAB, "a.py": b"\xff uid \xfe\xfeuid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-source-bom", {"v.yaml": VOCAB, "a.py": b"\xef\xbb\xbfuid\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-reason-quotes", {"v.yaml": b"it_s:\n  reject: [its]\n  reason: \"it's \\\"quoted\\\"\"\n", "a.py": b"its\n"}, "vocabulary_compliance('v.yaml', ['a.py'])"),
    ("vocab-in-ensure-position", {"v.yaml": VOCAB, "a.py": b"uid\n"}, "vocabulary_compliance('v.yaml', ['a.py']) and True"),
    # plan_completion
    ("plan-all-done", {}, "plan_completion([{'text': 'a', 'file': 'x.py'}, {'text': 'b', 'file': 'y.py'}], ['x.py', 'y.py'])"),
    ("plan-empty", {}, "plan_completion([], [])"),
    ("plan-empty-falsy-other", {}, "plan_completion(0, 5)"),
    ("plan-no-file", {}, "plan_completion([{'text': 'a'}, {'text': 'b', 'file': None}, {'text': 'c', 'file': ''}], [])"),
    ("plan-critical-missing", {}, "plan_completion([{'text': 'a', 'file': 'x.py', 'critical': True}, {'text': 'b', 'file': 'y.py', 'critical': 1}, {'text': 'c', 'file': 'z.py'}], ['q'], 0)"),
    ("plan-below", {}, "plan_completion([{'text': 'a', 'file': 'x.py'}, {'text': 'b', 'file': 'y.py'}, {'text': 'c', 'file': 'z.py'}], ['x.py'])"),
    ("plan-half-even", {}, "plan_completion([{'file': 'a'}, {'file': 'b'}, {'file': 'c'}, {'file': 'd'}, {'file': 'e'}, {'file': 'f'}, {'file': 'g'}, {'file': 'h'}], ['a', 'b', 'c', 'd', 'e'], 62.6)"),
    ("plan-half-even-up", {}, "plan_completion([{'file': 'a'}, {'file': 'b'}, {'file': 'c'}, {'file': 'd'}, {'file': 'e'}, {'file': 'f'}, {'file': 'g'}, {'file': 'h'}], ['a'], 37.5001)"),
    ("plan-threshold-exact", {}, "plan_completion([{'file': 'a'}, {'file': 'b'}], ['a'], 50)"),
    ("plan-threshold-keyword", {}, "plan_completion(plan_items=[{'file': 'a'}, {'file': 'b'}], files_changed=['a'], threshold=50.5)"),
    ("plan-threshold-bool", {}, "plan_completion([{'file': 'a'}], [], True)"),
    ("plan-threshold-str", {}, "plan_completion([{'file': 'a'}], [], '90')"),
    ("plan-threshold-str-critical", {}, "plan_completion([{'file': 'a', 'critical': True}], [], '90')"),
    ("plan-files-none", {}, "plan_completion([{'text': 't', 'file': 'a'}], None)"),
    ("plan-items-strings", {}, "plan_completion(['a', 'b'], [])"),
    ("plan-items-mixed", {}, "plan_completion(['a', {'text': 1, 'file': 2}, {'text': None, 'file': 'f'}], [2])"),
    ("plan-file-unhashable", {}, "plan_completion([{'file': ['a']}], [])"),
    ("plan-files-unhashable", {}, "plan_completion([{'file': 'a'}], [['a']])"),
    ("plan-items-not-iterable", {}, "plan_completion(3, [])"),
    ("plan-no-text", {}, "plan_completion([{'file': 'a'}], [], 100)"),
    ("plan-negative-threshold", {}, "plan_completion([{'file': 'a'}], [], -0.4)"),
]


def load_helpers(repo: str, commit: str) -> dict:
    source = subprocess.run(
        ["git", "-C", repo, "show", f"{commit}:stratum-mcp/src/stratum_mcp/spec.py"],
        check=True, capture_output=True, text=True,
    ).stdout
    start = source.index("# Ensure builtin — vocabulary_compliance")
    end = source.index("# Public parse entry point")
    namespace: dict = {"re": re, "yaml": yaml, "__name__": "reference_helpers"}
    exec(compile(source[start:end], "spec.py", "exec"), namespace)  # noqa: S102 - the reference's own code
    return {"plan_completion": namespace["plan_completion"], "vocabulary_compliance": namespace["vocabulary_compliance"]}


def outcome(helpers: dict, expr: str) -> dict:
    try:
        value = eval(expr, {"__builtins__": {}, **helpers}, {})  # noqa: S307 - fixed test expressions
    except ValueError as exc:
        if exc.args and isinstance(exc.args[0], list) and all(isinstance(v, str) for v in exc.args[0]):
            return {"violations": exc.args[0]}
        return {"error": f"{type(exc).__name__}: {exc}"}
    except Exception as exc:  # noqa: BLE001 - every raised error is recorded
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"value": repr(value)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--commit", default="63fc11d")
    args = parser.parse_args()
    helpers = load_helpers(args.repo, args.commit)
    here = os.getcwd()
    lines = [json.dumps({"header": True, "reference": f"smartmemory/stratum@{args.commit}", "cases": len(CASES)})]
    for name, files, expr in CASES:
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            try:
                for path, data in files.items():
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                    Path(path).write_bytes(data)
                # Outside a git work tree: git_fallback's `git diff` fails, as the test expects.
                result = outcome(helpers, expr)
            finally:
                os.chdir(here)
        encoded = {path: base64.b64encode(data).decode("ascii") for path, data in files.items()}
        lines.append(json.dumps({"name": name, "files": encoded, "expr": expr, "outcome": result}, ensure_ascii=False))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(CASES)} cases -> {OUT.relative_to(REPO_ROOT)}")


if __name__ == "__main__":
    main()
