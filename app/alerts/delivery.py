"""Sending alerts through Apprise without ever making anyone wait.

Each notification URL gets its own worker thread and a bounded queue: a channel that hangs
or fails delays only its own later messages, never the tailer, the servers or the other
channels. A failed send is retried with backoff, then dropped, counted and described (with
the URL redacted) for the snapshot and /healthz. Each URL is checked at start in a child process
(app.alerts.plugin); Apprise is imported in the workers, for the first alert, so it costs a
server nothing until then.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..outgoing import DeadlineExceeded, within
from ..supervise import supervised
from ..text import clock_time
from .message import Message
from .plugin import OK, UNKNOWN, check_in_child, load_plugin
from .secrets import redact, scrub

log = logging.getLogger(__name__)

RETRY_DELAYS_SECONDS = (10.0, 60.0, 300.0)
QUEUE_SIZE = 32
JOIN_SECONDS = 2.0
# One send, start to end (a service that trickles its answer is given up on, the worker moves on).
SEND_DEADLINE_SECONDS = 30.0
_APPRISE_LOGGER = "apprise"
# The reason behind Apprise's "A Connection error occurred…": its debug line with the exception.
_SOCKET_REASON = re.compile(
    r"(\[Errno -?\d+\][^'\")]*|Read timed out|timed out|Connection refused|Connection reset[^'\")]*"
    r"|Name or service not known|Remote end closed connection without response)"
)


class _ThreadRecords(logging.Handler):
    """Apprise's log records from one thread only (several channels send at once)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.thread = threading.get_ident()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            self.records.append(record)


class _NotWhileSending(logging.Filter):
    """Drop the HTTP library's records made while a notification is sent: they quote its URL."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: set[int] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.thread not in self.threads


_SENDING = _NotWhileSending()
_HTTP_LOGGERS = ("urllib3", "urllib3.connectionpool", "urllib3.connection", "urllib3.util.retry", "requests")
for _name in _HTTP_LOGGERS:
    logging.getLogger(_name).addFilter(_SENDING)


@contextmanager
def _apprise_records() -> Iterator[list[logging.LogRecord]]:
    """Collect what Apprise logs while this thread sends; keep it out of tokwatch's own log.

    Apprise's warnings name the target (a Telegram chat, an ntfy topic) and urllib3's debug
    lines the URL: secrets, so Apprise's logger does not propagate, urllib3's records from
    this thread are dropped meanwhile, and only a scrubbed reason leaves this module.
    """
    logger = logging.getLogger(_APPRISE_LOGGER)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    handler = _ThreadRecords()
    logger.addHandler(handler)
    _SENDING.threads.add(handler.thread)
    try:
        yield handler.records
    finally:
        _SENDING.threads.discard(handler.thread)
        logger.removeHandler(handler)


def _reason(records: list[logging.LogRecord], url: str) -> str:
    """Why a send failed, in one line, with every piece of the URL scrubbed."""
    warnings = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    detail = ""
    for record in records:
        found = _SOCKET_REASON.search(record.getMessage()) if record.levelno < logging.WARNING else None
        if found:
            detail = found.group(1).strip().rstrip(".")
    reason = warnings[-1].rstrip(".") if warnings else "not delivered (no reason given)"
    if detail and detail not in reason:
        reason = f"{reason} ({detail})"
    return scrub(reason, url)


def send_once(url: str, message: Message, plugin: Any = None, busy: threading.Lock | None = None) -> str | None:
    """Send ``message`` to one Apprise URL; return None when delivered, else why not.

    ``busy``: held by a send still running past its deadline; the next waits for it within its own.
    """
    try:
        import apprise
    except ImportError:
        return "the apprise package is not installed (pip install apprise)"
    with _apprise_records():
        try:
            target = plugin if plugin is not None else load_plugin(url)
        except Exception as e:  # noqa: BLE001 - a plugin bug must not kill the worker; the reason is scrubbed
            return scrub(f"{type(e).__name__}: {e}", url)
    if target is None:
        return "not a notification URL Apprise understands"
    notify_type = {
        "info": apprise.NotifyType.INFO,
        "success": apprise.NotifyType.SUCCESS,
        "warning": apprise.NotifyType.WARNING,
        "problem": apprise.NotifyType.FAILURE,
    }[message.level]

    def send() -> str | None:
        with _apprise_records() as records:  # on the sending thread: its records are the ones to keep out
            try:
                delivered = target.notify(body=message.body, title=message.title, notify_type=notify_type)
            except Exception as e:  # noqa: BLE001 - a plugin bug must not kill the worker; the reason is scrubbed
                return scrub(f"{type(e).__name__}: {e}", url)
        return None if delivered else _reason(records, url)

    # Apprise's own timeouts bound each read, not a receiver that trickles: bound the whole send.
    try:
        return within(SEND_DEADLINE_SECONDS, send, name="tokwatch-notify-send", one_at_a_time=busy)
    except DeadlineExceeded as e:
        return f"{e}: timed out"


@dataclass(frozen=True, slots=True)
class DeliveryStatus:
    """What a person should know about delivery; no URL in it."""

    targets: tuple[str, ...]  # "#1 tgram://…"
    last_sent_at: float | None
    failures: int  # messages given up on (after the retries, or with the queue full)
    problem: str | None


class _Target:
    """One notification URL: its queue and its worker."""

    def __init__(self, index: int, url: str, maxsize: int) -> None:
        self.url = url
        self.label = f"#{index} {redact(url)}"
        self.queue: queue.Queue[Message | None] = queue.Queue(maxsize=maxsize)  # None: stop
        self.plugin: Any = None  # loaded for the first alert
        self.refused = False  # no plugin understands the URL, or Apprise cannot load
        self.lock = threading.Lock()  # the start's check and the first alert may load it at once
        self.thread: threading.Thread | None = None
        self.retrying: str | None = None  # a send failed and waits for its next try: shown until it ends
        # Held while a send runs, past its deadline too: one hanging receiver, one thread.
        self.sending = threading.Lock()


class Delivery:
    """Sends messages to every URL from background threads; ``submit`` never blocks."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        retry_delays_seconds: Sequence[float] | None = None,  # None: RETRY_DELAYS_SECONDS
        queue_size: int = QUEUE_SIZE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._targets = [_Target(i, url, queue_size) for i, url in enumerate(urls, 1)]
        self._delays = tuple(RETRY_DELAYS_SECONDS if retry_delays_seconds is None else retry_delays_seconds)
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_sent_at: float | None = None
        self._failures = 0
        self._problem: str | None = None
        self._checker: threading.Thread | None = None

    def start(self) -> None:
        """Start one worker per URL, and the check of every URL."""
        if self._targets and self._checker is None:
            self._checker = threading.Thread(target=self._check, name="tokwatch-notify-check", daemon=True)
            self._checker.start()
        for target in self._targets:
            if target.thread is None:
                target.thread = threading.Thread(
                    target=supervised(f"tokwatch-notify-{target.label[:3]}", partial(self._work, target),
                                      self._stop.is_set),
                    name=f"tokwatch-notify-{target.label[:3]}", daemon=True
                )
                target.thread.start()

    def stop(self) -> None:
        """Stop the workers; a send in flight is abandoned after a moment (its thread is a daemon)."""
        self._stop.set()
        for target in self._targets:
            with contextlib.suppress(queue.Full):  # full: the worker is busy and sees the stop next
                target.queue.put_nowait(None)  # wakes a worker asleep on its empty queue
        for thread in [self._checker, *(target.thread for target in self._targets)]:
            if thread is not None:
                thread.join(JOIN_SECONDS)

    def submit(self, message: Message) -> None:
        """Queue ``message`` for every URL; a full queue drops it, counted."""
        for target in self._targets:
            try:
                target.queue.put_nowait(message)
            except queue.Full:
                self._gave_up(target, message, "too many alerts waiting to be sent")

    def status(self) -> DeliveryStatus:
        """The delivery figures, URLs redacted."""
        with self._lock:
            problems = [self._problem, *(t.retrying for t in self._targets)]
            return DeliveryStatus(
                tuple(t.label for t in self._targets), self._last_sent_at, self._failures,
                "; ".join(p for p in problems if p) or None,
            )

    # --- the workers -------------------------------------------------------------

    def _check(self) -> None:
        """Check every URL at start, in a child process; the plugins load here only for the first alert."""
        for target in self._targets:
            if self._stop.is_set():
                return
            found = check_in_child(target.url, self._stop)
            if self._stop.is_set():
                return
            if found is None:  # no child could run: check here
                self._load(target)
            elif found != OK:
                with target.lock:
                    if target.plugin is not None:
                        continue  # an alert came first and its worker loaded the plugin
                    target.refused = True
                if found == UNKNOWN:
                    self._note(f"{target.label}: not a notification URL Apprise understands")
                else:
                    self._note(f"{target.label}: cannot load the notification library ({found.removeprefix('error: ')})")

    def _work(self, target: _Target) -> None:
        while not self._stop.is_set():
            message = target.queue.get()  # asleep until an alert or stop()'s None
            if message is not None:
                self._deliver(target, message)

    def _load(self, target: _Target) -> None:
        """Load the URL's plugin in this process, once; a URL none understands is refused, said once."""
        with target.lock:
            if target.plugin is not None or target.refused:
                return
            try:
                with _apprise_records():
                    target.plugin = load_plugin(target.url)
            except Exception as e:  # noqa: BLE001 - Apprise failing to load is a problem to show, not a crash
                self._note(f"{target.label}: cannot load the notification library ({type(e).__name__})")
                target.plugin = None
                target.refused = True
                return
            if target.plugin is None:
                target.refused = True
                self._note(f"{target.label}: not a notification URL Apprise understands")

    def _deliver(self, target: _Target, message: Message) -> None:
        self._load(target)
        if target.plugin is None:
            self._gave_up(target, message, "not a notification URL Apprise understands")
            return
        reason: str | None = None
        tries = len(self._delays) + 1
        for attempt, delay in enumerate((0.0, *self._delays), 1):
            if delay and self._stop.wait(delay):
                return
            reason = send_once(target.url, message, target.plugin, target.sending)
            if reason is None:
                with self._lock:
                    self._last_sent_at = self._clock()
                    target.retrying = None
                return
            log.info("alert %r to %s not delivered: %s", message.title, target.label, reason)
            if attempt < tries:  # said at once, not only when the last try is over minutes later
                now = self._clock()
                with self._lock:
                    target.retrying = (f"{target.label}: not delivered at {clock_time(now, now)}: {reason}; "
                                       f"trying again in {_delay_words(self._delays[attempt - 1])} "
                                       f"(try {attempt} of {tries})")
        self._gave_up(target, message, f"{reason} ({tries} tries)")

    def _gave_up(self, target: _Target, message: Message, reason: str) -> None:
        now = self._clock()
        with self._lock:
            self._failures += 1
            count = self._failures
            target.retrying = None
        word = "alert" if count == 1 else "alerts"
        self._note(f"{count} {word} not delivered; last: {target.label} at {clock_time(now, now)}: {reason}")
        log.warning("alert %r to %s dropped: %s", message.title, target.label, reason)

    def _note(self, problem: str) -> None:
        with self._lock:
            self._problem = problem


def _delay_words(seconds: float) -> str:
    return f"{seconds:g} s" if seconds < 60 else f"{seconds / 60:g} min"


def try_each(urls: Sequence[str], message: Message) -> list[tuple[str, str | None]]:
    """Send ``message`` to each URL once, in turn: ``(redacted label, None or why not)`` each."""
    return [(f"#{i} {redact(url)}", send_once(url, message)) for i, url in enumerate(urls, 1)]
