"""The reference's in-memory flow table, as far as its tests use it: `clear()` and `pop(...)` in a
test's body drop what the server holds in memory (a server restart on the same store), in a fixture
they only isolate tests (flows never share ids); every other use is internal (not portable)."""
from . import _client
from ._not_portable import touch


class FlowTable:
    def clear(self) -> None:
        if _client.CURRENT.server is not None and _client.CURRENT.in_body:
            _client.CURRENT.server.restart()

    def pop(self, *args):
        self.clear()
        return None

    def __getattr__(self, attr: str):
        raise touch(f"_flows.{attr}")

    def __getitem__(self, key):
        raise touch("_flows[...]")

    def __setitem__(self, key, value):
        raise touch("_flows[...] =")

    def __contains__(self, key):
        raise touch("... in _flows")

    def __iter__(self):
        raise touch("iter(_flows)")

    def __len__(self):
        raise touch("len(_flows)")


FLOWS = FlowTable()
