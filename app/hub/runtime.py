"""The fleet's running parts in one process: the hub (its file, its lock, a ticker) and the agent.

Owned by the process (app.serve.process), which starts and stops them with its servers.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config
from ..supervise import supervised

if TYPE_CHECKING:
    from ..changes import SnapshotSource
    from ..store.files import WriterLock
    from .agent import Agent
    from .alerts import HubAlerts
    from .run_sender import RunSender
    from .service import Hub
    from .spool import Spool

log = logging.getLogger(__name__)

HUB_LOCK_NAME = "hub.lock"
TICK_SECONDS = 1.0  # reports wake the ticker at most this often
# The fleet's alerts look at every machine at least this often (and on every report taken).
ALERT_CHECK_SECONDS = 5.0


class FleetError(Exception):
    """The hub or the agent cannot start (another hub on the same data, an unusable file)."""


def _take_over_old_spool(old: Path, spool: Spool) -> None:
    """Move what waits in a spool from before spools were kept by name into this machine's (once)."""
    if not old.exists():
        return
    from .spool import Spool, SpoolError

    try:
        previous = Spool(old)
    except SpoolError as e:  # another, older tokwatch still uses it: leave it be
        log.info("not taking over %s: %s", old, e)
        return
    try:
        moved = spool.adopt(previous)
    finally:
        previous.close()
    for suffix in ("", "-wal", "-shm", ".lock"):
        Path(f"{old}{suffix}").unlink(missing_ok=True)
    if moved:
        log.info("took over %d waiting reports from %s", moved, old.name)


class FleetRuntime:
    """The hub and/or the agent a config asks for; start() and stop() (safe to call twice)."""

    def __init__(self, hub: Hub | None, agent: Agent | None, lock: WriterLock | None,
                 alerts: HubAlerts | None = None) -> None:
        self.hub = hub
        self.agent = agent
        self.alerts = alerts  # the fleet's alerts (a hub with --notify)
        self._lock = lock
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self.runs: RunSender | None = None  # the agent's trainer run, sent to the hub when it moved on

    @classmethod
    def open(
        cls,
        config: Config,
        source: SnapshotSource,
        *,
        reserved_name: str | None = None,
    ) -> FleetRuntime:
        """Open what the config asks for, the agent reporting ``source``; raise FleetError saying why it cannot."""
        if not config.hub and (config.report_to is None or config.report_key is None):
            return cls(None, None, None)  # no fleet: its modules (SQLite, Prometheus, urllib) stay unloaded
        from ..store.files import WriterLock
        from ..store.minutes import imported_mark, machine_minutes
        from .agent import Agent
        from .service import Hub
        from .spool import FILE_NAME as OLD_SPOOL_FILE_NAME
        from .spool import Spool, SpoolError, file_name
        from .store import FILE_NAME as HUB_FILE_NAME
        from .store import HubStore, HubStoreError

        data_dir = config.resolved_data_dir
        hub: Hub | None = None
        lock: WriterLock | None = None
        agent: Agent | None = None
        alerts: HubAlerts | None = None
        try:
            if config.hub:
                lock = WriterLock(data_dir / HUB_LOCK_NAME)
                holder = lock.acquire()
                if holder is not None:
                    raise FleetError(f"another hub (pid {holder or '?'}) uses {data_dir}; one hub per data dir")
                # This hub's own figures go under its own name: no agent may report under it.
                hub = Hub(HubStore(data_dir / HUB_FILE_NAME), reserved_name=reserved_name)
                if config.notify_urls:
                    from ..alerts.delivery import Delivery
                    from .alerts import HubAlerts

                    alerts = HubAlerts(config.alert_settings, delivery=Delivery(config.notify_urls),
                                       dashboard_url=config.dashboard_url)
            if config.report_to is not None and config.report_key is not None:
                machine = config.resolved_machine_name
                spool = Spool(data_dir / file_name(machine))
                try:
                    _take_over_old_spool(data_dir / OLD_SPOOL_FILE_NAME, spool)
                except BaseException:
                    spool.close()
                    raise
                agent = Agent(
                    url=config.report_to,
                    key=config.report_key,
                    machine=machine,
                    spool=spool,
                    source=source,
                    interval_seconds=config.report_interval_seconds,
                    history=None if not config.history else functools.partial(
                        machine_minutes, data_dir, config.resolved_machine_name),
                    history_mark=None if not config.history else functools.partial(imported_mark, data_dir),
                )
        except (HubStoreError, SpoolError, OSError) as e:
            if hub is not None:
                hub.store.close()
            if lock is not None:
                lock.release()
            raise FleetError(str(e)) from e
        except FleetError:
            if lock is not None:
                lock.release()
            raise
        fleet = cls(hub, agent, lock, alerts)
        if agent is not None and config.history and config.report_key is not None:
            from .run_sender import RunSender, latest_run, runs_url

            fleet.runs = RunSender(url=runs_url(agent.url), key=config.report_key, machine=agent.machine,
                                   latest=functools.partial(latest_run, data_dir, agent.machine))
            agent.on_history_moved = fleet.runs.wake
        return fleet

    def start(self) -> None:
        """Start the hub's ticker and the agent's reporting."""
        if self.alerts is not None:
            self.alerts.start()
        if self.hub is not None:
            self._ticker = threading.Thread(target=supervised("tokwatch-hub-ticker", self._tick, self._stop.is_set),
                                            name="tokwatch-hub-ticker", daemon=True)
            self._ticker.start()
        if self.agent is not None:
            self.agent.start()
            if self.runs is not None:
                self.runs.start()
            log.info("reporting to %s as %s every %.0f s", self.agent.url, self.agent.machine,
                     self.agent.interval_seconds)

    def _tick(self) -> None:
        """Look at the fleet when a machine is due to go offline, a report came, or the alerts are due.

        No report tells the hub a machine has stopped: the next moment one can go offline is
        computed and slept until, and a report (a change) wakes the look early, at most once a
        ``TICK_SECONDS``, so a busy fleet costs no more than a tick a second and a quiet one none.
        """
        hub = self.hub
        assert hub is not None
        checked_at, checked_version = -ALERT_CHECK_SECONDS, -1
        while not self._stop.is_set():
            looked = time.monotonic()
            try:
                due = hub.tick()
                now, version = hub.clock(), hub.changes.version
                if self.alerts is not None:
                    if version != checked_version or now - checked_at >= ALERT_CHECK_SECONDS:
                        checked_at, checked_version = now, version
                        self.alerts.check(hub.store.machines(), now)
                    due = min(due, checked_at + ALERT_CHECK_SECONDS)
                if self.alerts is not None:  # its delivery fails (or recovers) on its own threads
                    hub.note_alerts_problem(self.alerts.problem)
            except Exception:  # a locked or failing file must not end offline detection
                log.exception("hub tick failed; trying again")
                version, due = hub.changes.version, hub.clock() + TICK_SECONDS
            self._sleep_until(due, version, looked)

    def _sleep_until(self, due: float, version: int, looked: float) -> None:
        """Sleep until ``due`` (the hub's clock) or a change past ``version``, but not sooner than
        ``TICK_SECONDS`` after the look that began at ``looked`` (monotonic); return at once on stop."""
        hub = self.hub
        assert hub is not None
        while not self._stop.is_set():
            remaining = due - hub.clock()
            if remaining <= 0:
                return
            if hub.changes.wait_for_change(version, remaining) != version:
                self._stop.wait(max(0.0, looked + TICK_SECONDS - time.monotonic()))
                return

    def _wake_ticker(self) -> None:
        if self.hub is not None:
            self.hub.changes.interrupt()

    def stop(self) -> None:
        """Stop the agent and the ticker, close the hub's file, let go of its lock."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake_ticker()
        if self.agent is not None:
            self.agent.stop()
        if self.runs is not None:
            self.runs.stop()
        if self._ticker is not None:
            self._ticker.join(TICK_SECONDS * 3)
        if self.alerts is not None:
            self.alerts.stop()
        if self.hub is not None:
            self.hub.store.close()
        if self._lock is not None:
            self._lock.release()
