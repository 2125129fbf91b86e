"""The agent: a dashboard that also reports its snapshot to a hub, every 15 s and at once on a state change.

Reports go into the spool first, then out over plain HTTP POST. The present goes first: when
the hub is back after being away (restarting, unreachable), the newest waiting report goes as
the machine's report and the older ones follow as history, a minute each, 300 minutes a request,
so the hub shows the machine as it is now within one exchange and charts the whole outage within
seconds. The agent only ever connects out; the hub never connects to it, so it works from behind NAT.

The report key is a secret: it goes in the Authorization header and nowhere else (never a log
line, never a snapshot).
"""

from __future__ import annotations

import json
import logging
import math
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..outgoing import DeadlineExceeded, fetch
from ..snapshot import to_dict
from ..supervise import supervised
from .report import HISTORY_PATH, MAX_HISTORY_BYTES, MAX_HISTORY_POINTS, MAX_REPORT_BYTES
from .spool import Spool
from .store import PRODUCING

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
# Waiting reports older than the newest go as history, this many batches between two looks at the
# state (a week's spool is ~35 batches).
BACKLOG_BATCHES_PER_ROUND = 10
# The agent's own history goes to the hub once it is reachable after a start (the last 7 days,
# which its chart shows) and after the hub was unreachable (from then on), a batch at a time,
# paced by the hub: after each batch the agent waits as long as the hub took to answer it (at
# least HISTORY_PAUSE_SECONDS), so a busy hub slows its agents and an idle one takes a week in
# about a second.
HISTORY_SECONDS = 7 * 86400
HISTORY_PAUSE_SECONDS = 0.02
# Whether an import has brought more of the past: looked at as soon as the history's revision moves
# in the snapshot (the first start's import writing, and its end), and this often besides (another
# tokwatch importing into the same history).
HISTORY_QUIET_LOOK_SECONDS = 30.0
# Snapshot keys a hub has no use for: the hour of history is the agent's own page's business.
_NOT_REPORTED = ("history",)


class AgentConfigError(ValueError):
    """A --report-to URL tokwatch cannot report to."""


def report_url(base: str) -> str:
    """``http://HUB:PORT`` (or with a path prefix) → the URL reports are posted to."""
    try:
        parts = urlsplit(base.strip())
        parts.port  # noqa: B018 - read for its check: a port that is not a number in 0-65535 raises
    except ValueError as e:  # "http://[::1" (an unclosed bracket), "http://127.0.0.1:abc"
        raise AgentConfigError(f"--report-to wants http://HUB:PORT, not {base!r} ({e})") from e
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AgentConfigError(f"--report-to wants http://HUB:PORT, not {base!r}")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise AgentConfigError("--report-to takes no user, password, query or fragment (the key goes in --report-key-file)")
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
        history_mark: Callable[[], object] | None = None,
    ) -> None:
        self.url = report_url(url)
        self.history_url = self.url[: -len(REPORT_PATH)] + HISTORY_PATH
        # The machine's minutes in [since, until) from its own history (app/store/minutes.py).
        self._history = history
        # What changes when the history has more of the past (a log imported on first start): its
        # last 7 days go again then, not only at the next start.
        self._history_mark = history_mark
        self._history_lock = threading.Lock()
        self._history_since: float | None = clock() - HISTORY_SECONDS if history is not None else None
        # Set when the hub took a report (history may go) and when the history's revision moved.
        self._history_wake = threading.Event()
        self._history_revision: int | None = None  # the history's revision in the last snapshot looked at
        # Called too when that revision moves (the trainer run's sender looks then).
        self.on_history_moved: Callable[[], None] | None = None
        self._history_thread: threading.Thread | None = None
        self._reached = False  # the hub took a report since the start
        # Waiting reports numbered below this one are older than what the hub holds: they go as history.
        self._backlog_below: int | None = None
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
        if self._history is not None:
            # Its own thread: a week of history (seconds on a slow hub) never holds up a live report.
            self._history_thread = threading.Thread(
                target=supervised("tokwatch-agent-history", self._run_history, self._stop.is_set),
                name="tokwatch-agent-history", daemon=True)
            self._history_thread.start()

    def stop(self) -> None:
        """Stop within a second or so (a send in flight may take up to its timeout)."""
        self._stop.set()
        self._history_wake.set()
        self._source.interrupt()  # cut a quiet wait short
        for thread in (self._thread, self._history_thread):
            if thread is not None:
                thread.join(SEND_TIMEOUT_SECONDS + 1)
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
                    self._reached = True
                    if not unsent:
                        self._history_wake.set()
                else:
                    retry_at = time.monotonic() + retry_delay(retry_wait)
                    retry_wait = min(retry_wait * 2, self.interval_seconds)
            wake_at = min(next_report, look_at, retry_at if unsent else next_report)
            seen = self._source.wait_for_change(seen, max(0.0, wake_at - time.monotonic()))
            # However fast the log grows, look at the state at most once a second.
            self._stop.wait(max(0.0, min(checked + STATE_CHECK_SECONDS, wake_at) - time.monotonic()))

    def _snapshot(self) -> dict[str, Any]:
        snap = to_dict(self._source.snapshot())
        revision = snap.get("history_revision")
        if revision != self._history_revision:
            # The history has more (the import wrote): look at once rather than on a timer.
            if self._history_revision is not None:
                self._history_wake.set()
                if self.on_history_moved is not None:
                    self.on_history_moved()
            self._history_revision = revision
        return snap

    def take(self, snap: Mapping[str, Any], *, keep: bool = False) -> int:
        """Put a report of this snapshot in the spool; return its number."""
        self._last_state = snap.get("state")
        return self.spool.add(machine=self.machine, snapshot=for_report(snap), sent_at=self._clock(),
                              interval_seconds=self.interval_seconds, keep=keep)

    def flush(self) -> bool:
        """Send the newest waiting report, then a round of the older ones as history; False on a failed send.

        More of the backlog may wait after a round (``spool.count()``): the next round sends a
        report made since first, so the hub always holds the present.
        """
        while (newest := self.spool.newest()) is not None and (
                self._backlog_below is None or newest[0] > self._backlog_below):
            seq, body = newest
            outcome = self._send(body)
            if outcome == "retry":
                return False
            self.spool.taken(seq)
            if outcome == "taken":
                self._backlog_below = seq
                self.sent += 1
            # Refused for good (a field this hub cannot take): the one before it is the present then.
        if not self._send_backlog():
            return False
        if self._problem is not None:
            log.info("hub reachable again at %s", self.url)
            self._problem = None
        return True

    def _send_backlog(self) -> bool:
        """Send up to a round of waiting reports older than the hub's newest as history minutes; False on a failed send."""
        if self._backlog_below is None:
            return True
        for _ in range(BACKLOG_BATCHES_PER_ROUND):
            batch = self.spool.pending(MAX_HISTORY_POINTS, before=self._backlog_below)
            if not batch:
                return True
            while True:  # halved until it fits the hub's cap (long state names, huge figures)
                points = backlog_minutes(body for _, body in batch)
                # "reports": how many of the machine's reports these minutes stand for (its count on the hub).
                body = json.dumps({"machine": self.machine, "points": points, "reports": len(batch)},
                                  separators=(",", ":"))
                if len(body.encode()) + 64 <= MAX_HISTORY_BYTES or len(batch) == 1:
                    break
                batch = batch[: len(batch) // 2]
            sent = time.monotonic()
            outcome = self._send(body, self.history_url) if points else "taken"
            if outcome == "retry":
                return False
            if outcome == "refused":
                log.warning("the hub refused %d waiting reports sent as history; dropped them", len(batch))
            self.spool.taken_up_to(batch[-1][0])
            if self._stop.wait(max(HISTORY_PAUSE_SECONDS, time.monotonic() - sent)):
                return False
        return True

    def _run_history(self) -> None:
        """Send the machine's own history once the hub took a report, and again when the history has more of its past."""
        mark = self._history_mark() if self._history_mark is not None else None
        while not self._stop.is_set():
            self._history_wake.wait(HISTORY_QUIET_LOOK_SECONDS)
            self._history_wake.clear()
            if self._stop.is_set():
                return
            if self._history_mark is not None:
                now_mark = self._history_mark()
                if now_mark != mark:  # the first-start import (or another) brought more of the past
                    mark = now_mark
                    with self._history_lock:
                        self._history_since = self._clock() - HISTORY_SECONDS
            if self._reached and self._problem is None:
                self.send_history()

    def send_history(self) -> bool:
        """Send the minutes the hub may not have, a batch at a time; True when none wait.

        The hub keeps a minute it has already as it is, so a batch sent twice changes nothing.
        """
        with self._history_lock:
            since, self._history_since = self._history_since, None
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
                self._resend_history_from(batch[0][0])
                return False
            if self._stop.wait(max(HISTORY_PAUSE_SECONDS, time.monotonic() - sent)):
                self._resend_history_from(batch[-1][0])
                return False
        return True

    def _resend_history_from(self, since: float) -> None:
        with self._history_lock:
            self._history_since = since if self._history_since is None else min(since, self._history_since)

    @property
    def problem(self) -> str | None:
        """Why reports are not getting through (hub unreachable, key refused), or None."""
        return self._problem

    def _send(self, body: str, url: str | None = None) -> str:
        """POST one report: 'taken', 'refused' (the hub will never take it) or 'retry'."""
        target = url or self.url
        data = json.loads(body)
        # Sent now, on this machine's clock: with a report's as_of it tells the hub the report's age
        # (its chart places a late report correctly), and for history how far this clock is from its own.
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
            refusal = _refusal(e)
            reason = "" if refusal is None else refusal
            if 300 <= e.code < 400:
                where = (e.headers.get("Location") or "?")[:200] if e.headers is not None else "?"
                self._note(f"the hub at {self.url} redirects (HTTP {e.code}) to {where}; not following it with the "
                           "report key: point --report-to at the new address (reports are kept)")
                return "retry"
            if e.code in (400, 403, 413):
                if refusal is None:
                    # A proxy's, a portal's or a TLS port's page ("plain HTTP request sent to HTTPS port"):
                    # nothing says the hub saw the report. Dropping it would empty the whole spool in seconds.
                    self._note(f"the answer at {self.url} (HTTP {e.code}) is not a tokwatch hub's; keeping reports")
                    return "retry"
                # The hub's own refusal: this report can never be taken, and resending would block the rest.
                log.warning("the hub refused a report (HTTP %d: %s); dropped it", e.code, reason)
                return "refused"
            if e.code == 429:  # the hub paces this key: not a problem, the next round goes later
                log.debug("the hub asks for fewer requests (HTTP 429); keeping reports")
                return "retry"
            if e.code == 401:
                self._note(f"the hub at {self.url} refuses this machine's report key ({reason or 'HTTP 401'});"
                           " keeping reports until it takes them")
            else:
                self._note(f"the hub at {self.url} says HTTP {e.code}: {reason}; keeping reports until it takes them")
            return "retry"
        except DeadlineExceeded:
            self._note(f"the hub at {self.url} did not answer within {SEND_TIMEOUT_SECONDS:g} s; keeping reports")
            return "retry"
        except ValueError as e:
            if "header" in str(e).lower():  # its text quotes the whole header, the key with it
                self._note("the report key cannot go in an HTTP header (a line break or another control character "
                           "in it?); give the key again, on one line; keeping reports")
            else:
                self._note(f"cannot send to {self.url}: {type(e).__name__}; keeping reports")
            return "retry"
        except (urllib.error.URLError, OSError) as e:
            why = getattr(e, "reason", None) or e
            hint = ""
            if isinstance(why, ConnectionRefusedError) and not _is_loopback_url(self.url):
                # Nothing listens there: the hub is not running, or listens on its own loopback only.
                hint = ("; is the hub running, and started with --host 0.0.0.0? A hub on 127.0.0.1 (the default) "
                        "refuses other machines")
            self._note(f"hub unreachable at {self.url} ({why}){hint}; keeping reports until it is back")
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
        if self._history is not None:
            self._resend_history_from(self._clock() - 60)
        problem = problem.replace(self._key, "…")  # an error may quote the request's header: never the key
        if problem != self._problem:
            log.warning("%s", problem)
            self._problem = problem


def _is_loopback_url(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


def backlog_minutes(bodies: Iterable[str]) -> list[list[Any]]:
    """Spooled reports (oldest first) → history minutes ``[t, tok/h, state, queue, layer]``, a minute's last report each."""
    minutes: dict[int, list[Any]] = {}
    for body in bodies:
        try:
            data = json.loads(body)
            snap = data.get("snapshot") or {}
            made: Any = snap.get("as_of") if snap.get("as_of") is not None else data.get("sent_at")
            as_of = float(made)
        except (ValueError, TypeError, AttributeError):
            continue
        state = snap.get("state")
        if not isinstance(state, str) or not state:
            continue
        rate = (snap.get("rate") or {}).get("tokens_per_hour") if state in PRODUCING else None
        queue = (snap.get("queue") or {}).get("position")
        layer = snap.get("layer")
        t = int(as_of // 60 * 60)
        minutes[t] = [t, _number(rate), state, _count(queue), _count(layer)]
    return [minutes[t] for t in sorted(minutes)]


def _number(value: Any) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    return float(value) if ok else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _refusal(error: urllib.error.HTTPError) -> str | None:
    """The hub's reason in an error answer (its ``{"error": …}``, or its server's own plain refusal), else None."""
    try:
        raw = error.read(4096)
    except OSError:
        return None
    if raw.rstrip().endswith(b"(generated by tokwatch)"):  # the hub's server itself (a body over its cap)
        return raw.decode("utf-8", "replace").splitlines()[0][:200]
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("error"), str):
        return None
    return str(data["error"])[:200]
