"""Shim of `stratum_mcp.server`: its MCP tools go to our server; anything else is not portable."""
from ._flow_table import FLOWS as _flows  # noqa: F401
from ._not_portable import module_getattr, seal
from ._tools import TOOLS

globals().update(TOOLS)
__getattr__ = module_getattr(__name__)
seal(__name__)
