"""Shim of `stratum_mcp.spec`: `parse_and_validate` is the reference's validator, which its MCP
tool `stratum_validate` exposes; the shim asks our server's `stratum_validate` and raises what the
reference raises for an invalid spec. The reference stops at its first error, we report them all:
the exception carries every error of the class it raises, one per line, so a test's `match=` finds
the reference's error wherever ours lists it. A valid spec gives the reference's parsed IR, which is
internal: using it marks the test not portable."""
from . import _client
from ._not_portable import NotPortable, module_getattr, seal
from .errors import IRParseError, IRSemanticError, IRValidationError


def parse_and_validate(yaml_text: str):
    verdict = _client.current().call("stratum_validate", {"spec": yaml_text})
    errors = [e for e in verdict.get("errors", []) if e.get("severity", "error") == "error"]
    if verdict.get("valid") and not errors:
        return NotPortable("stratum_mcp.spec.parse_and_validate(...) (the parsed IR)")
    by_type = lambda t: [e for e in errors if e.get("error_type") == t]  # noqa: E731
    if by_type("ir_parse_error"):
        raise IRParseError("\n".join(e["message"] for e in by_type("ir_parse_error")))
    schema = by_type("ir_validation_error")
    if schema:
        raise IRValidationError(schema[0].get("path", ""), "\n".join(e["message"] for e in schema), schema[0].get("suggestion", ""))
    semantic = errors if not by_type("ir_semantic_error") else by_type("ir_semantic_error")
    raise IRSemanticError("\n".join(e["message"] for e in semantic), semantic[0].get("path", "") if semantic else "")


__getattr__ = module_getattr(__name__)
seal(__name__)
