#!/usr/bin/env python3
"""Generates test/stdlib/values/tables/{arith,compare,misc,reprs,json}.ts: value operations evaluated by
CPython 3.11, the oracle of the stdlib/values tests.

The operands and operations are listed in scripts/cpython_tables/; every outcome is computed here
by CPython (the deviations the language makes on purpose are implemented explicitly, with a
comment, and stated in the table's header). Regenerate with:
    python3 scripts/gen-cpython-value-tables.py [--out DIR]
scripts/check-generated.mjs (npm run check:generated, and a test) fails when a table is stale.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources in the repository

from cpython_tables import arith, compare, json_rows, misc, reprs
from cpython_ts import out_root, require_cpython_311, write_modules

TABLES = [arith, compare, misc, reprs, json_rows]


def main():
    require_cpython_311()
    root = out_root()
    write_modules(root, [(table.PATH, table.render()) for table in TABLES])


main()
