"""Shim of the reference's library package `stratum` (goal, judge): internal, not portable."""
import stratum_mcp  # noqa: F401  (installs the finder for stratum.* submodules)
from stratum_mcp._not_portable import module_getattr, seal

__getattr__ = module_getattr(__name__)
seal(__name__)
