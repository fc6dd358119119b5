"""Shared by the CPython generators in scripts/: Python values as TypeScript literals, outcomes as
the tables store them, and writing a module formatted exactly as `biome check --write` leaves it.

Every generator takes `--out DIR` to write its files under DIR (at their paths relative to the
repository) instead of into the repository; scripts/check-generated.mjs uses it to diff.
"""

import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIOME = os.path.join(ROOT, "node_modules", ".bin", "biome")


def require_cpython_311():
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"{sys.argv[0]}: needs CPython 3.11 (the tables record its behaviour), not {sys.version.split()[0]}")


def ts_float(x, nan="f(NaN)"):
    """A float as the value tables write it (biome turns `1e+308` into `1e308` on its own)."""
    if math.isnan(x):
        return nan
    if math.isinf(x):
        return "f(Infinity)" if x > 0 else "f(-Infinity)"
    if x == 0 and math.copysign(1, x) < 0:
        return "f(-0)"
    return f"f({x!r})"


def ts(v, big=lambda n: f'big("{n}")', number=None):
    """A Python value as a TypeScript literal over the helpers of test/stdlib/values/support.ts.

    `big` writes an int beyond 2**53 - 1 and `number` a float (default `ts_float`): the generated
    files differ only there."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v) if abs(v) <= 2**53 - 1 else big(v)
    if isinstance(v, float):
        return (number or ts_float)(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(ts(x, big, number) for x in v) + "]"
    if isinstance(v, tuple):
        return "t(" + ", ".join(ts(x, big, number) for x in v) + ")"
    if isinstance(v, dict):
        return "d(" + ", ".join(f"[{ts(k, big, number)}, {ts(x, big, number)}]" for k, x in v.items()) + ")"
    raise ValueError(f"unsupported value {v!r}")


def outcome(fn):
    """repr of fn()'s result, or `!Kind: message` for the exception it raises."""
    try:
        return repr(fn())
    except Exception as e:  # noqa: BLE001 - every exception is an expected outcome
        return f"!{type(e).__name__}: {e}"


def out_root(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--out"] and len(args) == 2:
        return os.path.abspath(args[1])
    if args:
        sys.exit(f"usage: {sys.argv[0]} [--out DIR]")
    return ROOT


def write_module(root, rel, text):
    write_modules(root, [(rel, text)])


def write_modules(root, modules):
    """Formats each (path, text) as biome does for the file at that path (imports sorted too) and
    writes it under `root`; the biome processes run side by side."""
    runs = []
    for rel, text in modules:
        proc = subprocess.Popen(
            [BIOME, "check", "--write", f"--stdin-file-path={rel}"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        runs.append((rel, text, proc))
    for rel, text, proc in runs:
        formatted, errors = proc.communicate(text.encode())
        if proc.returncode != 0:
            sys.exit(f"biome failed on {rel}:\n{errors.decode()}")
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(formatted)
