"""The five value tables of test/stdlib/values/tables/, one module each (see gen-cpython-value-tables.py)."""
