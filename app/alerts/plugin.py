"""Load the one Apprise plugin that serves a notification URL, not Apprise's whole registry.

``apprise.Apprise.instantiate`` imports every plugin module it ships (274 of them for one
``ntfys://`` URL with Apprise 2.3.0, about 15 MB of a server's memory) to find the one that
serves the URL's scheme. The schemes are written in each plugin's source (``protocol = …``,
``secure_protocol = …``): read there, only the module that names the scheme is imported, and the
URL is still checked at start by that plugin's own ``parse_url``. A scheme found in no source
falls back to Apprise's own lookup.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path
from typing import Any

_PROTOCOL = re.compile(r"^\s*(?:secure_)?protocol\s*=\s*(\([^)]*\)|\"[^\"]*\"|'[^']*')", re.MULTILINE)
_QUOTED = re.compile(r"\"([^\"]*)\"|'([^']*)'")


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
