"""Shim of the reference package `stratum_mcp` for its own tests (test/conformance/reference-suite).

Its MCP tools are forwarded to the built stratumc server; every other module and name stands for
the reference's internals and marks a test that uses it as not portable.
"""
import importlib.abc
import importlib.machinery
import sys

from ._not_portable import ShimModule, module_getattr, seal


class _InternalModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any module of the reference the shim does not define: a module of NotPortable names."""

    PREFIXES = ("stratum_mcp.", "stratum.")

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(self.PREFIXES):
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            find = getattr(finder, "find_spec", None)
            if find and find(name, path, target):
                return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        module = ShimModule(spec.name)
        module.__path__ = []
        module.__getattr__ = module_getattr(spec.name)
        module.__dict__["_sealed"] = True
        return module

    def exec_module(self, module):
        return None


if not any(isinstance(f, _InternalModules) for f in sys.meta_path):
    sys.meta_path.append(_InternalModules())

# The modules the shim defines, bound before the package's catch-all `__getattr__` could answer
# `from stratum_mcp import server` with a NotPortable.
from . import _client, errors, executor, server, spec  # noqa: E402, F401

__getattr__ = module_getattr(__name__)
seal(__name__)
