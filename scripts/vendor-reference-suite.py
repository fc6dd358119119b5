#!/usr/bin/env python3
"""Vendor the reference's own test suite for the adapter run (test/conformance/reference-suite/).

    python3 scripts/vendor-reference-suite.py [MIRROR] [REV]

MIRROR is a git directory of smartmemory/stratum (default /work/.mirror/smartmemory+stratum/repo),
REV the revision (default 63fc11d, release 0.2.69). It writes, under test/conformance/reference-suite/:

* `vendored/<path>`: each test file of `stratum-mcp/tests` that holds a candidate test, verbatim;
* `candidates.json`: the candidate test ids, those whose body (with the module's helper functions
  and fixtures it names) reaches the reference only through its MCP tools (`server.stratum_*`),
  clears or drops the in-memory flow table (`_flows.clear()`, `_flows.pop(...)`), validates a spec
  (`parse_and_validate` and its three error classes: the validator `stratum_validate` exposes), or
  uses pytest's `monkeypatch`. The shim decides the rest at run time: a test that touches any other name of the
  reference is reported as not portable, whatever its outcome;
* `signatures.json`: every `stratum_*` tool of `server.py` with its parameters in order, so the
  shim can bind the positional arguments the tests pass.
"""
import ast
import json
import os
import subprocess
import sys

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/smartmemory+stratum/repo"
REV = sys.argv[2] if len(sys.argv) > 2 else "63fc11d"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "conformance", "reference-suite")
TESTS = "stratum-mcp/tests"

# Names of the reference a candidate may use: the flow table only to empty it (isolation).
ISOLATION = {
    f"stratum_mcp.{m}._flows{op}" for m in ("executor", "server") for op in ("", ".clear", ".pop")
}
# The validator, which `stratum_validate` exposes, and the errors it raises.
VALIDATOR = {"stratum_mcp.spec.parse_and_validate"} | {
    f"stratum_mcp.{m}.{e}" for m in ("spec", "errors") for e in ("IRParseError", "IRValidationError", "IRSemanticError")
}


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", MIRROR, *args], check=True, capture_output=True, text=True).stdout


def reference_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> the reference's dotted name, for `from stratum_mcp… import …` and `import stratum…`."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("stratum_mcp", "stratum"):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("stratum_mcp", "stratum"):
                    names[alias.asname or alias.name.split(".")[0]] = alias.asname and alias.name or alias.name.split(".")[0]
    return names


def used_names(node: ast.AST, helpers: dict[str, ast.AST], seen: set[str]) -> set[str]:
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            chain = []
            cur: ast.AST = sub
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                found.add(".".join([cur.id, *reversed(chain)]))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        found |= {a.arg for a in node.args.args}
    for name in list(found):
        if name in helpers and name not in seen:
            seen.add(name)
            found |= used_names(helpers[name], helpers, seen)
    return found


def is_allowed(dotted: str) -> bool:
    if dotted in ISOLATION or dotted in VALIDATOR:
        return True
    parts = dotted.split(".")
    # server.stratum_* (imported by name or reached through the module)
    return any(p.startswith("stratum_") and p != "stratum_mcp" for p in parts[1:]) and parts[:2] == ["stratum_mcp", "server"]


def candidates_of(path: str, source: str) -> list[str]:
    tree = ast.parse(source)
    imported = reference_names(tree)
    helpers = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def portable(fn: ast.AST, extra: dict[str, ast.AST]) -> bool:
        for name in used_names(fn, {**helpers, **extra}, set()):
            head, _, rest = name.partition(".")
            if head not in imported:
                continue
            dotted = imported[head] + ("." + rest if rest else "")
            # `import stratum_mcp.server as srv` style: the alias maps to the module itself.
            if not is_allowed(dotted):
                return False
        return True

    ids = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
            if portable(node, {}):
                ids.append(f"{path}::{node.name}")
        elif isinstance(node, ast.ClassDef):
            methods = {m.name: m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for name, method in methods.items():
                if name.startswith("test_") and portable(method, {k: v for k, v in methods.items() if not k.startswith("test_")}):
                    ids.append(f"{path}::{node.name}::{name}")
    return ids


def signatures(server_source: str) -> list[dict]:
    tools = []
    for node in ast.parse(server_source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("stratum_"):
            args = node.args.args
            first_default = len(args) - len(node.args.defaults)
            # `ctx` (the MCP context) keeps its place: tests pass their mock positionally.
            params = [{"name": a.arg, "required": i < first_default} for i, a in enumerate(args)]
            tools.append({"name": node.name, "params": params})
    return tools


def main() -> None:
    files = [f for f in git("ls-tree", "-r", "--name-only", REV, TESTS).split() if os.path.basename(f).startswith("test_") and f.endswith(".py")]
    candidates: list[str] = []
    vendored = os.path.join(OUT, "vendored")
    for f in files:
        source = git("show", f"{REV}:{f}")
        rel = os.path.relpath(f, TESTS)
        ids = candidates_of(rel, source)
        if not ids:
            continue
        candidates += ids
        dest = os.path.join(vendored, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as out:
            out.write(source)
    server = git("show", f"{REV}:stratum-mcp/src/stratum_mcp/server.py")
    with open(os.path.join(OUT, "candidates.json"), "w") as out:
        json.dump({"revision": REV, "tests": candidates}, out, indent=1)
        out.write("\n")
    with open(os.path.join(OUT, "signatures.json"), "w") as out:
        json.dump({"revision": REV, "tools": signatures(server)}, out, indent=1)
        out.write("\n")
    print(f"{len(candidates)} candidate tests in {len({c.split('::')[0] for c in candidates})} files")


if __name__ == "__main__":
    main()
