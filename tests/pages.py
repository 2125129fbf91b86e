"""A page in a real Chromium context of its own, its script errors kept: where the browser tests start."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from typing import Any

# Playwright's wait_for_function polls its predicate synchronously: a promise (an ``import()``, an
# async function) is truthy at once, so such a wait returns before its condition holds; and a bare
# expression is evaluated again on each poll with eval, which the pages' CSP forbids (it fails on its
# second look, when the condition was not already true). Only a plain function waits as written.
_FUNCTION = re.compile(r"^\s*(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>|^\s*function\b")
_PROMISE = re.compile(r"\basync\b|\bawait\b|\bimport\(|\.then\(|\bPromise\b")


def _checked_wait(wait: Any) -> Any:
    def wait_for_function(expression: str, *args: Any, **kwargs: Any) -> Any:
        if not _FUNCTION.match(expression) or _PROMISE.search(expression):
            raise AssertionError(f"wait_for_function needs a plain function (no promise), not {expression!r}: "
                                 "a promise never waits and a bare expression breaks under the page's CSP")
        return wait(expression, *args, **kwargs)

    return wait_for_function


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
    page.wait_for_function = _checked_wait(page.wait_for_function)
    return page


def wait_for_module(page: Any, path: str, condition: str) -> None:
    """Wait until ``condition``, a JS function of the page's own module at ``path`` (as
    ``"(m) => m.inspectChart().length > 0"``), holds: the module is imported once and kept on the
    page's window, so the condition is polled without a promise (see ``_checked_wait``)."""
    page.evaluate("(path) => import(path).then((m) => { (window.__testModules ??= {})[path] = m; })", path)
    page.wait_for_function(f"(path) => ({condition})(window.__testModules[path])", arg=path)


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


def open_panel(page: Any, selector: str, *, tries: int = 3) -> None:
    """Open the ``<details>`` at ``selector`` as a user does, by clicking its summary, and wait
    until it is open. A click can land while the page above it is still being laid out (a chart
    drawn on the first snapshot moves the panel down): then the summary is clicked again, so a test
    never types into a panel that stayed shut."""
    details = page.locator(selector)
    for _ in range(tries):
        details.locator("> summary").click()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            if details.evaluate("(el) => el.open"):
                return
            time.sleep(0.05)
    raise AssertionError(f"{selector} stayed shut after {tries} clicks on its summary")
