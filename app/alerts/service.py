"""The alerts at work: read the snapshot as it changes, tell what the rules find, keep the heartbeat.

One thread reads the live snapshot when it changes (and every few seconds anyway, since
idleness and silence grow with the clock alone), steps the :class:`AlertBook`, hands messages
to :class:`Delivery` and says to the :class:`Heartbeat` whether the run is healthy. It only
reads the snapshot; when its own section changes it says so to the feed it watches, whose one
change counter wakes the viewers: nothing flows back into the pipeline.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..config.alerts import AlertSettings
from ..snapshot import Snapshot
from ..states import HEALTHY_STATES
from ..supervise import supervised
from .book import AlertBook
from .fold import Folding
from .message import Message
from .secrets import redact

if TYPE_CHECKING:
    from ..changes import SnapshotSource
    from ..config import Config
    from .delivery import Delivery
    from .heartbeat import Heartbeat

log = logging.getLogger(__name__)

# Look again this often with no change in the log: idle and silent grow with time alone.
CHECK_SECONDS = 5.0
# At most this often when the log changes many times a second.
MIN_GAP_SECONDS = 1.0
RECENT_MESSAGES = 20
JOIN_SECONDS = 2.0


class AlertService:
    """Rules, delivery and heartbeat around one stream of snapshots; thread-safe."""

    def __init__(
        self,
        settings: AlertSettings,
        *,
        name: str,
        dashboard_url: str | None = None,
        delivery: Delivery | None = None,
        heartbeat: Heartbeat | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.name = name
        self.dashboard_url = dashboard_url
        self.delivery = delivery
        self.heartbeat = heartbeat
        self._clock = clock
        self._book = AlertBook(settings)
        self._folding = Folding()
        self._lock = threading.Lock()
        self._recent: deque[tuple[int, Message]] = deque(maxlen=RECENT_MESSAGES)
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source: SnapshotSource | None = None
        # Other ways this machine's word may not get out (an agent's hub unreachable): their problem.
        self._problem_sources: list[Callable[[], str | None]] = []

    def watch_problem(self, source: Callable[[], str | None]) -> None:
        """Show ``source()``'s problem beside the delivery's, on the page and in /healthz."""
        self._problem_sources.append(source)

    # --- one look ----------------------------------------------------------------

    def observe(self, snap: Snapshot, now: float | None = None) -> list[Message]:
        """Read one snapshot (taken at ``now``, default its ``as_of``); return the messages sent."""
        when = now if now is not None else snap.as_of
        with self._lock:
            transitions = self._book.step(snap, when)
            messages = self._folding.messages(transitions, snap, name=self.name, dashboard_url=self.dashboard_url)
            for message in messages:
                self._recent.appendleft((next(self._ids), message))
        for message in messages:
            log.info("alert: %s — %s", message.title, message.summary)
            if self.delivery is not None:
                self.delivery.submit(message)
        if self.heartbeat is not None:
            self.heartbeat.set_healthy(snap.state in HEALTHY_STATES)
        return messages

    # --- what the snapshot and /healthz show -------------------------------------

    def status(self) -> dict[str, Any]:
        """The snapshot's ``alerts`` section: open alerts, recent messages, delivery figures; no URL."""
        with self._lock:
            active = [{"rule": a.rule, "since": a.since, "text": a.text} for a in self._book.active()]
            recent = [
                {"id": i, "at": m.at, "rule": m.rule, "kind": m.kind, "level": m.level, "title": m.title,
                 "text": m.summary}
                for i, m in self._recent
            ]
        delivery = self.delivery.status() if self.delivery is not None else None
        heartbeat = self.heartbeat.status() if self.heartbeat is not None else None
        problems = [p for p in (delivery and delivery.problem, heartbeat and heartbeat.problem,
                                *(source() for source in self._problem_sources)) if p]
        return {
            "active": active,
            "recent": recent,
            "targets": list(delivery.targets) if delivery is not None else [],
            "last_sent_at": delivery.last_sent_at if delivery is not None else None,
            "failures": delivery.failures if delivery is not None else 0,
            "problem": "; ".join(problems) or None,
            "heartbeat": None if heartbeat is None else {
                "sending": heartbeat.sending,
                "last_ok_at": heartbeat.last_ok_at,
                "failures": heartbeat.failures,
            },
        }

    def health(self) -> dict[str, Any]:
        """What /healthz tells about alerts: counts and problems, no figures, no URL."""
        status = self.status()
        heartbeat = status["heartbeat"]
        return {
            "targets": len(status["targets"]),
            "failures": status["failures"],
            "heartbeat_failures": heartbeat["failures"] if heartbeat is not None else 0,
            "problem": status["problem"],
        }

    # --- the watching thread ------------------------------------------------------

    def start(self, source: SnapshotSource) -> None:
        """Watch ``source``: read its snapshot, wake on its changes, and tell it when the alerts' section changed.

        The section changes with messages, or a delivery or heartbeat figure (the page should know
        now, not at its next periodic snapshot).
        """
        self._source = source
        with self._lock:
            self._book.watching_since(self._clock())
        if self.delivery is not None:
            self.delivery.start()
        if self.heartbeat is not None:
            self.heartbeat.start()
        if self._thread is None:
            self._thread = threading.Thread(
                target=supervised("tokwatch-alerts", lambda: self._run(source), self._stop.is_set),
                name="tokwatch-alerts", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop watching, sending and pinging; safe to call twice."""
        self._stop.set()
        if self._source is not None:
            self._source.interrupt()  # cut a quiet wait short
        if self._thread is not None:
            self._thread.join(JOIN_SECONDS)
        if self.delivery is not None:
            self.delivery.stop()
        if self.heartbeat is not None:
            self.heartbeat.stop()

    def _published(self) -> tuple[object, ...]:
        """What of the delivery and heartbeat figures the snapshot shows."""
        delivery = self.delivery.status() if self.delivery is not None else None
        heartbeat = self.heartbeat.status() if self.heartbeat is not None else None
        return (delivery, heartbeat, *(source() for source in self._problem_sources))

    def _run(self, source: SnapshotSource) -> None:
        version = -1
        published = self._published()
        while not self._stop.is_set():
            try:
                told = self.observe(source.snapshot())
                published, before = self._published(), published
                if told or published != before:
                    source.section_changed()
            except Exception:  # a bad snapshot must not end alerting for the run
                log.exception("alert rules failed on a snapshot")
            if self._stop.wait(MIN_GAP_SECONDS):
                return
            version = source.wait_for_change(version, CHECK_SECONDS)


def alert_service(config: Config, dashboard_url: str | None) -> AlertService:
    """The service a dashboard runs: the config's rules, channels and heartbeat."""
    delivery = None
    if config.notify_urls:
        from .delivery import Delivery  # with Apprise's plugin code: only where there is a channel

        delivery = Delivery(config.notify_urls)
    heartbeat = None
    if config.heartbeat_url:
        from .heartbeat import Heartbeat  # with urllib's client: only where there is a heartbeat URL

        heartbeat = Heartbeat(config.heartbeat_url)
    return AlertService(
        config.alert_settings,
        name=config.name,
        dashboard_url=config.dashboard_url or dashboard_url,
        delivery=delivery,
        heartbeat=heartbeat,
    )


def describe_alerts(config: Config) -> str:
    """Where alerts go, URLs redacted: ``alerts as 'rig-7' to #1 ntfys://…; heartbeat …``."""
    parts = []
    if config.notify_urls:
        targets = ", ".join(f"#{i} {redact(url)}" for i, url in enumerate(config.notify_urls, 1))
        parts.append(f"alerts as {config.name!r} to {targets}")
    if config.heartbeat_url:
        parts.append("heartbeat every 60 s while training or measuring")
    return "; ".join(parts)
