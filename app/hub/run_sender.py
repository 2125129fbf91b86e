"""An agent's trainer run on its way to the hub: the run its own history holds last, sent when it
has moved on, so the hub's pages can overlay it with another machine's run.

What goes is the whole-run chart's points (bucketed past 6,400 losses) and the run's figures, in
parts under the hub's cap on a request body (:func:`app.hub.runs.run_parts`); the history is read
on a read-only connection, a look every few minutes. The report key goes in the Authorization
header and nowhere else.
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..compare.catalogue import Catalogue, Followed, RunNotFound
from ..compare.view import RunFigures
from ..outgoing import DeadlineExceeded, fetch
from ..store.files import FILE_NAME, read_quietly
from ..supervise import supervised
from .runs import RUNS_PATH, ReportedRun, run_from_json, run_parts

log = logging.getLogger(__name__)

T = TypeVar("T")
RUN_LOOK_SECONDS = 300.0  # a run's curve changes slowly: a look every 5 minutes
# After a start, until a run went: a first look soon, then one each EAGER_LOOK_SECONDS (the
# history's writes come every 30 s) for EAGER_SECONDS, then at the slow pace. A first start's import
# brings the log's run within minutes: the agent wakes the sender whenever the history's revision
# moves, so it looks then rather than waiting for its timer.
FIRST_LOOK_SECONDS = 5.0
EAGER_LOOK_SECONDS = 30.0
EAGER_SECONDS = 600.0
SEND_TIMEOUT_SECONDS = 5.0


def latest_run(data_dir: Path, machine: str) -> RunFigures | None:
    """The run of this machine the history holds that logged last (its curve and figures), or None."""
    path = data_dir / FILE_NAME

    def read(query: Callable[[sqlite3.Connection], T]) -> T | None:
        return read_quietly(path, query, None)

    catalogue = Catalogue(read, lambda: Followed(None, None))
    mine = [run for run in catalogue.stored() if run.machine == machine]
    if not mine:
        return None
    try:
        return catalogue.figures(max(mine, key=lambda run: run.ended_at).run_id, with_times=False)
    except RunNotFound:
        return None


def runs_url(report_url: str) -> str:
    """``…/hub/runs`` beside the agent's ``…/hub/report``."""
    return report_url.rsplit("/hub/report", 1)[0] + RUNS_PATH


class RunSender:
    """Sends this machine's latest trainer run to the hub when it has moved on; start() and stop()."""

    def __init__(self, *, url: str, key: str, machine: str, latest: Callable[[], RunFigures | None],
                 look_seconds: float = RUN_LOOK_SECONDS, first_look_seconds: float = FIRST_LOOK_SECONDS) -> None:
        self.url = url
        self._key = key
        self.machine = machine
        self._latest = latest
        self._look_seconds = look_seconds
        self._first_look_seconds = first_look_seconds
        self._sent: Any = None  # what was sent last: the run, its last step, its points, its figures
        self._problem: str | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=supervised("tokwatch-agent-runs", self._run, self._stop.is_set),
                                        name="tokwatch-agent-runs", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Look now (the history has more of the past) while no run has gone yet; later looks keep their pace."""
        if self._sent is None:
            self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(SEND_TIMEOUT_SECONDS + 1)

    def _run(self) -> None:
        started = time.monotonic()
        wait = self._first_look_seconds
        while True:
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            sent = self.send_now() and self._sent is not None
            eager = not sent and time.monotonic() - started < EAGER_SECONDS
            wait = min(EAGER_LOOK_SECONDS, self._look_seconds) if eager else self._look_seconds

    def send_now(self) -> bool:
        """Send the latest run if it moved on since the last send; False when a part did not go."""
        run = self._latest()
        if run is None:
            return True
        mark = (run.run_id, run.last_step, len(run.loss), run.final_loss, run.best_loss,
                sorted((name, len(points)) for name, points in run.evals.items()))
        if mark == self._sent:
            return True
        for part in run_parts(self.machine, run, secrets.token_urlsafe(12)):
            request = urllib.request.Request(self.url, data=part, method="POST", headers={
                "Authorization": f"Bearer {self._key}", "Content-Type": "application/json"})
            try:
                fetch(request, SEND_TIMEOUT_SECONDS)
            except urllib.error.HTTPError as e:
                self._note(f"the hub refused this machine's run ({e.code})")
                return False
            except (OSError, DeadlineExceeded) as e:
                self._note(f"the hub could not be reached with this machine's run ({type(e).__name__})")
                return False
        self._sent = mark
        self._problem = None
        return True

    def _note(self, problem: str) -> None:
        if problem != self._problem:
            log.info("%s; trying again in %.0f s", problem, self._look_seconds)
        self._problem = problem


class FleetRunsReader:
    """An agent's page reading the fleet's runs through its hub (``GET /hub/runs``, its report key);
    the listing kept for LISTING_SECONDS, a hub that does not answer said in words."""

    LISTING_SECONDS = 30.0
    MAX_ANSWER_BYTES = 4 << 20  # a run of 6,400 points and 8 evaluations is well under 1 MiB

    def __init__(self, *, url: str, key: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self._key = key
        self._clock = clock
        self._listing: tuple[float, list[dict[str, Any]]] | None = None
        self._lock = threading.Lock()

    def _get(self, query: str = "") -> Any:
        request = urllib.request.Request(self.url + query, headers={"Authorization": f"Bearer {self._key}"})
        _, body = fetch(request, SEND_TIMEOUT_SECONDS, max_bytes=self.MAX_ANSWER_BYTES)
        return json.loads(body)

    def listing(self) -> list[dict[str, Any]]:
        """The fleet's runs as the hub lists them (``[]`` while the hub cannot be read)."""
        with self._lock:
            if self._listing is not None and self._clock() - self._listing[0] < self.LISTING_SECONDS:
                return self._listing[1]
            found: list[dict[str, Any]] = []
            try:
                listed = self._get()["runs"]
            except (OSError, DeadlineExceeded, ValueError, KeyError, TypeError):
                listed = []
            if isinstance(listed, list):
                found = [run for run in listed if isinstance(run, dict) and isinstance(run.get("id"), str)]
            self._listing = (self._clock(), found)
            return found

    def run(self, run_key: str) -> tuple[str, ReportedRun] | None:
        """One of the fleet's runs (machine, run), or None when the hub has none by that id; raises
        OSError or DeadlineExceeded when the hub cannot be read."""
        try:
            found = self._get("?" + urllib.parse.urlencode({"run": run_key}))
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return None
            raise
        return str(found["machine"]), run_from_json(found["run"])
