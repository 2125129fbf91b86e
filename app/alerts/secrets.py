"""Notification URLs carry secrets (bot tokens, topics, webhook keys): show them redacted only."""

from __future__ import annotations

import re
from urllib.parse import unquote

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_PIECES = re.compile(r"[/:@?&=#,;+\s]+")
# Parts of a URL too common to be a secret and too useful to hide in a reason.
_PLAIN = frozenset({"http", "https", "www", "api", "com", "net", "org", "true", "false", "post", "get"})


def redact(url: str) -> str:
    """The scheme alone: ``tgram://…`` (``…`` for something that is not a URL)."""
    match = _SCHEME.match(url.strip())
    return f"{match.group(1).lower()}://…" if match else "…"


def scrubber(url: str) -> re.Pattern[str] | None:
    """A pattern matching every piece of ``url`` that could be a secret, as itself or unquoted."""
    rest = _SCHEME.sub("", url.strip())
    where, _, query = rest.partition("?")
    # In the query, the values may be secrets; the names (``topic=``, ``token=``) are not.
    values = [pair.partition("=")[2] or pair for pair in query.split("&")] if query else []
    pieces: set[str] = set()
    for piece in [*_PIECES.split(where), *(p for v in values for p in _PIECES.split(v))]:
        for form in (piece, unquote(piece)):
            if len(form) >= 3 and form.lower() not in _PLAIN:
                pieces.add(form)
    if not pieces:
        return None
    alternatives = "|".join(re.escape(p) for p in sorted(pieces, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])")


def scrub(text: str, url: str) -> str:
    """``text`` with every piece of ``url`` replaced by ``…`` (a reason may quote the host or the path)."""
    pattern = scrubber(url)
    return pattern.sub("…", text) if pattern is not None else text
