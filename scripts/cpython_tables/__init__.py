"""The five value tables of test/values/tables/, one module each (see gen-cpython-value-tables.py)."""
