"""The agent: a dashboard that also reports its snapshot to a hub, every 15 s and at once on a state change.

Reports go into the spool first, then out over plain HTTP POST, oldest first, so a hub that
is away (restarting, unreachable) gets every report in order when it is back. The agent only
ever connects out; the hub never connects to it, so it works from behind NAT.

The report key is a secret: it goes in the Authorization header and nowhere else (never a log
line, never a snapshot).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..outgoing import DeadlineExceeded, fetch
from ..snapshot import to_dict
from ..supervise import supervised
from .report import HISTORY_PATH, MAX_HISTORY_POINTS, MAX_REPORT_BYTES
from .spool import Spool

if TYPE_CHECKING:
    from ..changes import SnapshotSource

log = logging.getLogger(__name__)

REPORT_PATH = "/hub/report"
DEFAULT_INTERVAL_SECONDS = 15.0
# A state change is looked for at most this often however fast the log grows...
STATE_CHECK_SECONDS = 1.0
# ...and this often when the log is quiet (idle, silent and stalled come with time alone).
QUIET_STATE_CHECK_SECONDS = 5.0
SEND_TIMEOUT_SECONDS = 5.0  # the whole exchange: connect, send, the hub's answer
# After a failed send, wait this long before the next try (doubling, capped at the interval).
RETRY_SECONDS = 1.0
MAX_SENDS_PER_ROUND = 500
# The agent's own history goes to the hub once it is reachable after a start (the last 7 days,
# which its chart shows) and after the hub was unreachable (from then on), a batch at a time,
# paced by the hub: after each batch the agent waits as long as the hub took to answer it (at
# least HISTORY_PAUSE_SECONDS), so a busy hub slows its agents and an idle one takes a week in
# about a second.
HISTORY_SECONDS = 7 * 86400
HISTORY_PAUSE_SECONDS = 0.02
# Snapshot keys a hub has no use for: the hour of history is the agent's own page's business.
_NOT_REPORTED = ("history",)


class AgentConfigError(ValueError):
    """A --report-to URL tokwatch cannot report to."""


def report_url(base: str) -> str:
    """``http://HUB:PORT`` (or with a path prefix) → the URL reports are posted to."""
    parts = urlsplit(base.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AgentConfigError(f"--report-to wants http://HUB:PORT, not {base!r}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise AgentConfigError("--report-to takes no user, password, query or fragment (the key goes in --report-key)")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}{REPORT_PATH}"


def retry_delay(wait_seconds: float, rng: random.Random | None = None) -> float:
    """The wait before the next try: between half and all of ``wait_seconds``.

    Agents that lost the hub at the same moment would otherwise come back in step and flush
    their backlogs at once (150 of them held a hub 15 s).
    """
    return wait_seconds * (0.5 + 0.5 * (rng or random).random())


def for_report(snapshot: Mapping[str, Any], max_bytes: int = MAX_REPORT_BYTES - 1024) -> dict[str, Any]:
    """The snapshot without its history, its oldest events dropped until the report fits the hub's cap."""
    data = {key: value for key, value in snapshot.items() if key not in _NOT_REPORTED}
    events = list(data.get("events") or [])
    while events and len(json.dumps(data, ensure_ascii=False).encode()) > max_bytes:
        events = events[: len(events) // 2]
        data["events"] = events
    details = list(data.get("details") or [])
    if details and len(json.dumps(data, ensure_ascii=False).encode()) > max_bytes:
        # Long lines (eval names, errors) still: cut each rather than have the whole report refused.
        per_line = max(40, (max_bytes - len(json.dumps({**data, "details": []}).encode())) // (4 * len(details)) - 8)
        data["details"] = [line if len(line) <= per_line else line[: per_line - 1] + "…" for line in details]
    return data


class Agent:
    """Reports one machine's snapshots to a hub from a thread of its own; start() and stop()."""

    def __init__(
        self,
        *,
        url: str,
        key: str,
        machine: str,
        spool: Spool,
        source: SnapshotSource,
        interval_seconds: float = DEFAULT_INTERVAL_SECONDS,
        clock: Callable[[], float] = time.time,
        history: Callable[[float, float], list[Any]] | None = None,
    ) -> None:
        self.url = report_url(url)
        self.history_url = self.url[: -len(REPORT_PATH)] + HISTORY_PATH
        # The machine's minutes in [since, until) from its own history (app/store/minutes.py).
        self._history = history
        self._history_since: float | None = clock() - HISTORY_SECONDS if history is not None else None
        self._key = key
        self.machine = machine
        self.spool = spool
        dropped = spool.keep_only(machine)  # reports another name made can never go with this key
        if dropped:
            log.warning("dropped %d waiting reports made under another machine name", dropped)
        self.interval_seconds = interval_seconds
        self._source = source
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_state: Any = None
        self._problem: str | None = None  # the last failure, logged once until it changes
        self.sent = 0

    def start(self) -> None:
        """Report now, then every interval and on a state change."""
        self._thread = threading.Thread(target=supervised("tokwatch-agent", self._run, self._stop.is_set),
                                        name="tokwatch-agent", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop within a second or so (a send in flight may take up to its timeout)."""
        self._stop.set()
        self._source.interrupt()  # cut a quiet wait short
        if self._thread is not None:
            self._thread.join(SEND_TIMEOUT_SECONDS + 1)
        self.spool.close()

    def _run(self) -> None:
        # Asleep between reports: woken by a change in the log (looked at at most once a second),
        # a quiet look at the state every few seconds, the next report, or a retry that is due.
        next_report = 0.0  # monotonic: the first report goes at once
        retry_at = 0.0
        retry_wait = RETRY_SECONDS
        unsent = True  # the spool may hold reports from before a restart
        seen = looked = self._source.version
        look_at = 0.0  # monotonic: look at the state by then even if the log is quiet
        while not self._stop.is_set():
            checked = time.monotonic()
            snap: Mapping[str, Any] | None = None
            changed = False
            if checked < next_report and (seen != looked or checked >= look_at):
                looked, look_at = seen, checked + QUIET_STATE_CHECK_SECONDS
                snap = self._snapshot()
                changed = snap.get("state") != self._last_state
            if checked >= next_report or changed:
                self.take(snap if snap is not None else self._snapshot(), keep=changed)
                unsent = True
                next_report = time.monotonic() + self.interval_seconds
            if unsent and time.monotonic() >= retry_at:
                if self.flush():
                    # A long backlog goes in rounds: more may wait after this one.
                    retry_wait, unsent = RETRY_SECONDS, self.spool.count() > 0
                    if not unsent:
                        self.send_history()
                else:
                    retry_at = time.monotonic() + retry_delay(retry_wait)
                    retry_wait = min(retry_wait * 2, self.interval_seconds)
            wake_at = min(next_report, look_at, retry_at if unsent else next_report)
            seen = self._source.wait_for_change(seen, max(0.0, wake_at - time.monotonic()))
            # However fast the log grows, look at the state at most once a second.
            self._stop.wait(max(0.0, min(checked + STATE_CHECK_SECONDS, wake_at) - time.monotonic()))

    def _snapshot(self) -> dict[str, Any]:
        return to_dict(self._source.snapshot())

    def take(self, snap: Mapping[str, Any], *, keep: bool = False) -> int:
        """Put a report of this snapshot in the spool; return its number."""
        self._last_state = snap.get("state")
        return self.spool.add(machine=self.machine, snapshot=for_report(snap), sent_at=self._clock(),
                              interval_seconds=self.interval_seconds, keep=keep)

    def flush(self) -> bool:
        """Send what waits, oldest first; True when the spool is empty (or the rest must wait for good reason)."""
        for _ in range(MAX_SENDS_PER_ROUND // 100):
            batch = self.spool.pending(100)
            if not batch:
                break
            for seq, body in batch:
                outcome = self._send(body)
                if outcome == "retry":
                    return False
                self.spool.taken(seq)
                if outcome == "taken":
                    self.sent += 1
        if self._problem is not None:
            log.info("hub reachable again at %s", self.url)
            self._problem = None
        return True

    def send_history(self) -> bool:
        """Send the minutes the hub may not have, a batch at a time; True when none wait.

        The hub keeps a minute it has already as it is, so a batch sent twice changes nothing.
        """
        since = self._history_since
        if since is None or self._history is None:
            return True
        until = self._clock()
        minutes = self._history(since, until)
        for first in range(0, len(minutes), MAX_HISTORY_POINTS):
            batch = [list(m) for m in minutes[first:first + MAX_HISTORY_POINTS]]
            body = json.dumps({"machine": self.machine, "points": batch}, separators=(",", ":"))
            sent = time.monotonic()
            outcome = self._send(body, self.history_url)
            if outcome == "retry":
                self._history_since = batch[0][0]
                return False
            if self._stop.wait(max(HISTORY_PAUSE_SECONDS, time.monotonic() - sent)):
                self._history_since = batch[-1][0]
                return False
        self._history_since = None
        return True

    @property
    def problem(self) -> str | None:
        """Why reports are not getting through (hub unreachable, key refused), or None."""
        return self._problem

    def _send(self, body: str, url: str | None = None) -> str:
        """POST one report: 'taken', 'refused' (the hub will never take it) or 'retry'."""
        target = url or self.url
        data = json.loads(body)
        if target == self.url:
            # Sent now: with the report's as_of, on this machine's clock, it tells the hub the report's
            # age (its chart places a late report correctly) and how far this clock is from its own.
            data["sent_at"] = self._clock()
        request = urllib.request.Request(
            target,
            data=json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self._key}"},
        )
        try:
            # Never follow a redirect: it would carry the key to whatever host it names.
            _, answer = fetch(request, SEND_TIMEOUT_SECONDS, follow_redirects=False, max_bytes=4096)
        except urllib.error.HTTPError as e:
            reason = _reason(e)
            if 300 <= e.code < 400:
                where = (e.headers.get("Location") or "?")[:200] if e.headers is not None else "?"
                self._note(f"the hub at {self.url} redirects (HTTP {e.code}) to {where}; not following it with the "
                           "report key: point --report-to at the new address (reports are kept)")
                return "retry"
            if e.code in (400, 403, 413):  # this report can never be taken: resending would block the rest
                log.warning("the hub refused a report (HTTP %d: %s); dropped it", e.code, reason)
                return "refused"
            if e.code == 401:
                self._note(f"the hub at {self.url} refuses this machine's report key ({reason or 'HTTP 401'});"
                           " keeping reports until it takes them")
            else:
                self._note(f"the hub at {self.url} says HTTP {e.code}: {reason}; keeping reports until it takes them")
            return "retry"
        except DeadlineExceeded:
            self._note(f"the hub at {self.url} did not answer within {SEND_TIMEOUT_SECONDS:g} s; keeping reports")
            return "retry"
        except (urllib.error.URLError, OSError, ValueError) as e:
            self._note(f"hub unreachable at {self.url} ({getattr(e, 'reason', e)}); keeping reports until it is back")
            return "retry"
        try:
            taken = json.loads(answer.decode("utf-8")).get("taken")
        except (ValueError, AttributeError):
            taken = None
        # A report's answer says true or false; a history batch's, how many minutes were new.
        if not isinstance(taken, int):  # a proxy's or a portal's page: nothing says the hub has it
            self._note(f"the answer at {self.url} is not a tokwatch hub's; keeping reports")
            return "retry"
        return "taken"

    def _note(self, problem: str) -> None:
        # Back from being unreachable, the hub gets the minutes it missed from the history.
        if self._history is not None and self._history_since is None:
            self._history_since = self._clock() - 60
        if problem != self._problem:
            log.warning("%s", problem)
            self._problem = problem


def _reason(error: urllib.error.HTTPError) -> str:
    try:
        data = json.loads(error.read(4096).decode("utf-8", "replace"))
        return str(data.get("error", ""))[:200] if isinstance(data, dict) else ""
    except (ValueError, OSError):
        return ""
