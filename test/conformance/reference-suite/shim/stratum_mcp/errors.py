"""Shim of `stratum_mcp.errors`: the three error classes a spec's validation raises in the reference
(same names, same constructor arguments), so a test's `pytest.raises(IRSemanticError)` means what it
means there. Everything else is not portable."""
from ._not_portable import module_getattr, seal


class IRParseError(Exception):
    """The YAML could not be parsed."""

    def __init__(self, raw_error: str) -> None:
        self.raw_error = raw_error
        super().__init__(raw_error)


class IRValidationError(Exception):
    """The spec breaks the schema."""

    def __init__(self, path: str, message: str, suggestion: str = "") -> None:
        self.path = path
        self.message = message
        self.suggestion = suggestion
        super().__init__(message)


class IRSemanticError(Exception):
    """The spec fits the schema but breaks a rule."""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


__getattr__ = module_getattr(__name__)
seal(__name__)
