"""Load the one Apprise plugin that serves a notification URL, not Apprise's whole registry.

``apprise.Apprise.instantiate`` imports every plugin module it ships (274 of them for one
``ntfys://`` URL with Apprise 2.3.0, about 15 MB of a server's memory) to find the one that
serves the URL's scheme. The schemes are written in each plugin's source (``protocol = …``,
``secure_protocol = …``): read there, only the module that names the scheme is imported, and the
URL is still checked at start by that plugin's own ``parse_url``. A scheme found in no source
falls back to Apprise's own lookup.

That check runs in a short-lived child process (:func:`check_in_child`): Apprise, the plugin and
the HTTP library it imports (requests, about 8 MB in all) load in the server only when the
first alert is sent, not for the check.
"""

from __future__ import annotations

import functools
import importlib
import logging
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

_PROTOCOL = re.compile(r"^\s*(?:secure_)?protocol\s*=\s*(\([^)]*\)|\"[^\"]*\"|'[^']*')", re.MULTILINE)
_QUOTED = re.compile(r"\"([^\"]*)\"|'([^']*)'")
# The check's child runs this module under the name it was imported by (``app`` in a checkout,
# ``tokwatch`` when installed), from the folder that holds the package.
CHECK_MODULE = __spec__.name if __spec__ is not None else __name__
PACKAGE_PARENT = Path(__file__).resolve().parents[2]
CHECK_SECONDS = 60.0
STOP_LOOK_SECONDS = 0.1  # how often a check waiting on its child looks for a stop
OK, UNKNOWN = "ok", "unknown"  # the child's verdicts; or "error: <exception type>"


@functools.cache
def _schemes() -> dict[str, str]:
    """Each scheme Apprise's plugins name in their source, and the module that names it."""
    import apprise.plugins

    folder = Path(apprise.plugins.__file__).parent
    found: dict[str, str] = {}
    for source in sorted(folder.glob("*.py")) + sorted(folder.glob("*/__init__.py")):
        module = source.stem if source.name != "__init__.py" else source.parent.name
        if module.startswith(("_", "base")):
            continue
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for declared in _PROTOCOL.finditer(text):
            for quoted in _QUOTED.finditer(declared.group(1)):
                found.setdefault((quoted.group(1) or quoted.group(2)).lower(), module)
    return found


def load_plugin(url: str) -> Any:
    """The Apprise plugin object for ``url``, or None when no plugin understands it."""
    import apprise

    scheme = url.partition("://")[0].lower()
    module_name = _schemes().get(scheme) if "://" in url else None
    if module_name is None:
        return apprise.Apprise.instantiate(url)
    module = importlib.import_module(f"apprise.plugins.{module_name}")
    for plugin in vars(module).values():
        if not isinstance(plugin, type) or not hasattr(plugin, "parse_url") or not hasattr(plugin, "app_id"):
            continue
        names = (getattr(plugin, "protocol", None), getattr(plugin, "secure_protocol", None))
        schemes = {s.lower() for name in names if name for s in ((name,) if isinstance(name, str) else name)}
        if scheme in schemes:
            results = plugin.parse_url(url)
            return plugin(**results) if results else None
    return apprise.Apprise.instantiate(url)


def verdict(url: str) -> str:
    """Whether a plugin understands ``url``: :data:`OK`, :data:`UNKNOWN` or ``error: <exception type>``."""
    try:
        return OK if load_plugin(url) is not None else UNKNOWN
    except Exception as e:  # noqa: BLE001 - a plugin failing to load is a verdict, not a crash
        return f"error: {type(e).__name__}"


def check_in_child(url: str, stop: threading.Event | None = None) -> str | None:
    """:func:`verdict` on ``url``, from a child process; None when no child could give one, or
    when ``stop`` is set first (the child is ended: a server stopping does not wait for it).

    The URL goes through the child's stdin, never its command line (which others may list).
    """
    try:
        child = subprocess.Popen([sys.executable, "-m", CHECK_MODULE], cwd=PACKAGE_PARENT, text=True,
                                 encoding="utf-8", stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    with child:
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(url)
            child.stdin.close()
        except OSError:  # the child ended before reading: no verdict
            child.kill()
            return None
        deadline = time.monotonic() + CHECK_SECONDS
        while True:
            try:
                child.wait(timeout=STOP_LOOK_SECONDS)
                break
            except subprocess.TimeoutExpired:
                if (stop is not None and stop.is_set()) or time.monotonic() > deadline:
                    child.kill()
                    child.wait()
                    return None
        answer = child.stdout.read().strip()
    if child.returncode != 0 or not (answer in (OK, UNKNOWN) or answer.startswith("error: ")):
        return None
    return answer


if __name__ == "__main__":
    logging.disable(logging.CRITICAL)  # Apprise's records name the URL's parts: secrets
    print(verdict(sys.stdin.read().strip()))
