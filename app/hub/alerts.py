"""The hub's alerts: every machine's own state changes from its reports, and offline when none come.

A dead machine cannot send its own alert; the hub can. Each machine gets an :class:`AlertBook`
(the local alerts' book and rules, not a copy) over its latest report, with ``hub`` added — online
or not, and when it was last seen — for the ``offline`` rule. So one message per machine and
condition, with the same hold and flap rules, the machine's name in the title. Delivery is the
local alerts' too (one worker per URL, never waiting on a channel).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace

from ..alerts.book import AlertBook
from ..alerts.delivery import Delivery
from ..alerts.fold import Folding
from ..alerts.message import Message
from ..config.alerts import AlertSettings
from .fleet import is_online
from .report import reported_snapshot
from .store import MachineRow

log = logging.getLogger(__name__)


class HubAlerts:
    """One alert book per machine; ``check`` reads the hub's rows and returns (and sends) what to tell."""

    def __init__(self, settings: AlertSettings, *, delivery: Delivery | None, dashboard_url: str | None = None) -> None:
        self.settings = settings
        self.delivery = delivery
        self.dashboard_url = dashboard_url.rstrip("/") if dashboard_url else None
        self._books: dict[str, AlertBook] = {}
        self._folding: dict[str, Folding] = {}

    def start(self) -> None:
        """Start the delivery workers."""
        if self.delivery is not None:
            self.delivery.start()

    def stop(self) -> None:
        """Stop the delivery workers (what is queued is given its chance, as locally)."""
        if self.delivery is not None:
            self.delivery.stop()

    @property
    def problem(self) -> str | None:
        """Why messages are not delivered (URLs redacted), or None."""
        return self.delivery.status().problem if self.delivery is not None else None

    def check(self, rows: Iterable[MachineRow], now: float) -> list[Message]:
        """Step every reporting machine's book at ``now``; send and return the messages."""
        messages: list[Message] = []
        for row in rows:
            if row.snapshot is None:  # enrolled, never reported: nothing to tell yet
                continue
            snap = reported_snapshot(row.snapshot)
            if not is_online(row, now):  # its last words are not its state now
                last = snap.status_line
                snap = replace(snap, state="offline", state_since=row.received_at,
                               status_line=f"offline (last: {last})" if last else "offline")
            book = self._books.get(row.name)
            if book is None:
                book = self._books[row.name] = AlertBook(self.settings)
                self._folding[row.name] = Folding()
            url = f"{self.dashboard_url}/fleet/{row.name}" if self.dashboard_url else None
            messages.extend(self._folding[row.name].messages(book.step(snap, now), snap, name=row.name,
                                                             dashboard_url=url))
        for message in messages:
            log.info("fleet alert: %s — %s", message.title, message.summary)
            if self.delivery is not None:
                self.delivery.submit(message)
        return messages
