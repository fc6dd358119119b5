"""Shim of `stratum_mcp.executor`: only the flow table (for isolation) and its directory setting."""
import tempfile
from pathlib import Path

from ._flow_table import FLOWS as _flows  # noqa: F401
from ._not_portable import module_getattr, seal

# Tests point this at their temporary directory; the server keeps its store under STRATUM_HOME.
_FLOWS_DIR = Path(tempfile.gettempdir()) / "reference-suite-unused-flows-dir"
__getattr__ = module_getattr(__name__)
seal(__name__)
