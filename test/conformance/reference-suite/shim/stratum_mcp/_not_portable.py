"""Every name of the reference that is not one of its MCP tools: using it marks the test not portable.

A test that reaches into the reference's internals (its executor, its flow objects, its connectors)
tests the reference's code, not the surface a drop-in replaces; the adapter reports such a test as
`not_portable` instead of guessing what the internal call would mean over MCP.
"""
import sys
import types


class NotPortableError(Exception):
    """Raised by any use of a name the adapter does not carry over MCP."""


class _State:
    touched: list[str] = []


STATE = _State()


def touch(name: str) -> NotPortableError:
    STATE.touched.append(name)
    return NotPortableError(f"{name} is internal to the reference, not an MCP tool")


class NotPortable:
    """Stands for `name`; every use raises NotPortableError and marks the running test."""

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attr: str):
        # Dunders and pytest's own probes (it inspects every name of a test module) are not uses.
        if (attr.startswith("__") and attr.endswith("__")) or attr.startswith("_pytest"):
            raise AttributeError(attr)
        touch(f"{self._name}.{attr}")
        return NotPortable(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        raise touch(self._name)

    def __getitem__(self, key):
        raise touch(self._name)

    def __setitem__(self, key, value):
        raise touch(self._name)

    def __iter__(self):
        raise touch(self._name)

    def __contains__(self, item):
        raise touch(self._name)

    def __len__(self):
        raise touch(self._name)

    def __bool__(self):
        raise touch(self._name)

    def __eq__(self, other):
        raise touch(self._name)

    __hash__ = object.__hash__

    def __mro_entries__(self, bases):
        # A test module may subclass an internal class (a fake connector) at import; only using
        # that class against the reference (patching it in) makes a test not portable.
        return (object,)

    def __repr__(self) -> str:
        return f"<not portable: {self._name}>"


def module_getattr(module: str):
    """A module `__getattr__` (PEP 562) answering NotPortable for every name it does not define."""

    def __getattr__(name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return NotPortable(f"{module}.{name}")

    return __getattr__


class ShimModule(types.ModuleType):
    """A shim module: patching one of its names (monkeypatch, mock.patch) is reaching into the
    reference's internals, except for the flow directory setting, which only isolates a test."""

    ALLOWED = frozenset({"_FLOWS_DIR"})

    def __setattr__(self, name: str, value) -> None:
        if self.__dict__.get("_sealed") and not name.startswith("__") and name not in self.ALLOWED:
            touch(f"{self.__name__}.{name} (patched)")
        super().__setattr__(name, value)


def seal(module_name: str) -> None:
    """Makes the module `module_name` a ShimModule from now on (call at the end of the module)."""
    module = sys.modules[module_name]
    module.__class__ = ShimModule
    module.__dict__["_sealed"] = True
