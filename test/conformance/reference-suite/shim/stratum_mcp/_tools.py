"""The reference's MCP tools as the tests call them (`await stratum_plan(spec, flow, inputs, ctx)`),
each forwarded to the built server over MCP with the arguments bound to the reference's parameter
names (signatures.json); `ctx` (the test's mock, at its place among them) is not sent."""
import json
import os

from . import _client

_SIGNATURES = os.path.join(os.path.dirname(__file__), "..", "..", "signatures.json")


def _load() -> dict[str, list[dict]]:
    with open(_SIGNATURES) as f:
        return {t["name"]: t["params"] for t in json.load(f)["tools"]}


def _tool(name: str, params: list[dict]):
    names = [p["name"] for p in params]

    async def tool(*args, **kwargs):
        arguments = dict(zip(names, args))
        arguments.update(kwargs)
        arguments.pop("ctx", None)
        return _client.current().call(name, arguments)

    tool.__name__ = name
    return tool


TOOLS = {name: _tool(name, params) for name, params in _load().items()}
