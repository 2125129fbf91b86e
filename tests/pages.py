"""A page in a real Chromium context of its own, its script errors kept: where the browser tests start."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def open_page(browser: Any, *, console: bool = True, **options: Any) -> Any:
    """A new page in a context of its own (``options``: the context's, e.g. its viewport).

    Its uncaught errors, and its console errors with ``console`` (a CSP violation included), are
    kept in ``page.errors``; ``page.context.close()`` closes it.
    """
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    if console:
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def watched_page(browser: Any, *, expected: Iterable[str] = (), console: bool = True, **options: Any) -> Iterator[Any]:
    """For a fixture: :func:`open_page`'s page, then its context closed and the test failed on any
    error it kept but those holding one of ``page.expected_errors`` (``expected`` to start with;
    a test may add to them)."""
    page = open_page(browser, console=console, **options)
    page.expected_errors = list(expected)
    yield page
    page.context.close()
    ours = [e for e in page.errors if not any(x in e for x in page.expected_errors)]
    assert not ours, ours
