"""The live snapshot, composed in one place: the log's figures, the history's section, the alerts'.

The monitor reads the log and knows nothing of what sits above it; the history's figures ("vs
your usual", "today") and the alerts' section are added here, on the way out. One change counter
(the monitor's) wakes every watcher: the broadcaster, the alerts, the agent. When the alerts'
section changes, the alerts say so here, and the counter moves for everyone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import supervise

if TYPE_CHECKING:
    from ..alerts import AlertService
    from ..ingest.hardware import HardwareWatch
    from ..record.recorder import Recorder
    from ..snapshot import Snapshot
    from .monitor import Monitor


class LiveFeed:
    """The composed live snapshot and its one version; a :class:`app.changes.SnapshotSource`."""

    def __init__(self, monitor: Monitor, *, recorder: Recorder | None = None,
                 alerts: AlertService | None = None, hardware: HardwareWatch | None = None) -> None:
        self.monitor = monitor
        self.recorder = recorder
        self.alerts = alerts
        self.hardware = hardware  # --hardware: power beside throughput
        self.changes = monitor.changes
        if recorder is not None:
            recorder.on_advance(self.section_changed)  # the import's progress reaches open pages now

    @property
    def version(self) -> int:
        """Bumped on every change of the log's figures and of the alerts' section."""
        return self.changes.version

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since``, ``timeout`` elapses or an interrupt; return the version."""
        return self.changes.wait_for_change(since, timeout)

    def interrupt(self) -> None:
        """Make every ``wait_for_change`` in progress return now (a watcher is stopping)."""
        self.changes.interrupt()

    def section_changed(self) -> None:
        """The alerts' section changed: the viewers get a new snapshot now."""
        self.changes.bump()

    def snapshot(self, now: float | None = None) -> Snapshot:
        """The figures at ``now`` (default: the wall clock), with the history's and the alerts' sections."""
        snapshot = self.monitor.snapshot(now)
        if self.recorder is not None:
            snapshot = self.recorder.decorate(snapshot)
        if self.alerts is not None:
            snapshot = replace(snapshot, alerts=self.alerts.status())
        hardware = self.hardware
        if hardware is not None:
            from ..stats.power import hardware_view

            view = hardware_view(hardware.samples(), hardware.tool, hardware.problem, snapshot)
            details = snapshot.details + ((view.text,) if view.text else ())
            snapshot = replace(snapshot, hardware=view, details=details)
        problems = supervise.problems()  # a thread that failed and is being restarted
        return replace(snapshot, problems=tuple(problems)) if problems else snapshot

    def queue_report(self, now: float | None = None) -> str:
        """The plain-text queue report at ``now`` (default: the wall clock)."""
        return self.monitor.queue_report(now)
