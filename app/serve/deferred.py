"""What the server's dependencies import that the server never runs, loaded only if something asks.

simple-websocket's package imports its asyncio client and server beside the threaded ones
(``simple_websocket/__init__.py`` imports ``aiows``, which imports ``asyncio``); tokwatch uses only
the threaded ``Server``. asyncio and what it pulls in are about 4 MB of a server's resident memory
for its whole life. :func:`websocket_without_asyncio` imports simple-websocket and flask-sock with a
stand-in for ``asyncio`` that imports the real module the first time anything in it is asked for,
and leaves ``sys.modules`` as it found it: any other ``import asyncio`` gets the real module.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from typing import Any

_lock = threading.Lock()


class DeferredModule(types.ModuleType):
    """A module object that imports the real module on the first attribute it does not have."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.__spec__ = None  # an import statement asks; a deferred module is no partly run one
        self._deferred_name = name

    def __getattr__(self, attr: str) -> Any:
        with _lock:
            name = self.__dict__["_deferred_name"]
            if sys.modules.get(name) is self:
                del sys.modules[name]
            real = importlib.import_module(name)
            self.__dict__.update(real.__dict__)
        return getattr(real, attr)


def websocket_without_asyncio() -> bool:
    """Import simple-websocket and flask-sock without asyncio; True when asyncio was left out.

    Call before anything imports them (the server's start does); afterwards, or where asyncio is
    already loaded, it only imports them.
    """
    if "asyncio" in sys.modules or "simple_websocket" in sys.modules:
        import flask_sock
        import simple_websocket

        return False
    stand_in = DeferredModule("asyncio")
    sys.modules["asyncio"] = stand_in
    try:
        import flask_sock  # noqa: F401
        import simple_websocket  # noqa: F401
    finally:
        if sys.modules.get("asyncio") is stand_in:
            del sys.modules["asyncio"]
    return "asyncio" not in sys.modules
