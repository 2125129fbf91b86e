"""The IOTA miner's rate, state, views and words: what the tracker's figures say at a given time.

Pure functions over the tracker's frozen figures (app/stats/iota/figures.py): the rate at
``now``, the state with its status line and start, the queue, network and timeline views, and
the detail lines in the order a menu shows them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ... import text
from ...snapshot import BackendErrorsView, EventView, NetworkView, QueueView, RateView, State, WarmupView
from ..events import builder
from ..tracker import RATE_WINDOW_SECONDS, WARMUP_COUNT, WARMUP_SECONDS
from .figures import IotaFigures
from .liveness import IDLE_MIN_SECONDS, SILENT_SECONDS
from .queue import QUEUE_GROWING_WARN_SECONDS, QUEUED_STATUSES, QueueTracker, trend_words
from .shell import STOP_AFTER_SECONDS, ShellFigures, SleepSpan, idle_cause, shell_entries, silence_cause
from .timeline import Timeline, TimelineEntry
from .window import SlidingWindow

# The timeline's entries, made again whenever it changes (at every 30 s of log an import samples, since a
# new entry came): made as the class makes them, without a frozen dataclass's per-field object.__setattr__.
_event_view = builder(EventView)


@dataclass(frozen=True, slots=True)
class Rate:
    view: RateView
    warmup: WarmupView


def rate_at(
    now: float,
    start: float | None,
    stretch_passes: int,
    passes: SlidingWindow,
    tokens_per_pass: int | None,
    last_pass_at: float | None,
) -> Rate:
    """The stretch's rate at ``now``: passes in the window ÷ observed, once warmed up."""
    observed, in_window, done, passes_per_hour, tokens_per_hour = _measure(
        now, start, stretch_passes, passes, tokens_per_pass)
    return Rate(
        view=RateView(
            measured=tokens_per_hour is not None,
            tokens_per_hour=tokens_per_hour,
            passes_per_hour=passes_per_hour,
            tokens_per_pass=tokens_per_pass,
            passes_in_window=in_window,
            observed_seconds=observed,
            window_seconds=float(RATE_WINDOW_SECONDS),
            last_pass_at=last_pass_at,
        ),
        warmup=WarmupView(
            passes=stretch_passes,
            passes_needed=WARMUP_COUNT,
            observed_seconds=observed,
            seconds_needed=float(WARMUP_SECONDS),
            done=done,
            text=None if done else warmup_line(stretch_passes, observed),
        ),
    )


def tokens_per_hour_at(
    now: float, start: float | None, stretch_passes: int, passes: SlidingWindow, tokens_per_pass: int | None
) -> float | None:
    """:func:`rate_at`'s tok/h alone (the history samples it at every 30 s of log)."""
    return _measure(now, start, stretch_passes, passes, tokens_per_pass)[4]


def _measure(
    now: float, start: float | None, stretch_passes: int, passes: SlidingWindow, tokens_per_pass: int | None
) -> tuple[float, int, bool, float | None, float | None]:
    """Observed seconds, passes in the window, warmed up, passes/h and tok/h at ``now``."""
    observed = 0.0 if start is None else min(max(now - start, 0.0), float(RATE_WINDOW_SECONDS))
    in_window = passes.count(now - RATE_WINDOW_SECONDS, now) if start is not None else 0
    done = start is not None and stretch_passes >= WARMUP_COUNT and observed >= WARMUP_SECONDS
    passes_per_hour = in_window / observed * 3600 if done and observed > 0 else None
    tokens_per_hour = (
        passes_per_hour * tokens_per_pass if passes_per_hour is not None and tokens_per_pass is not None else None
    )
    if tokens_per_hour is not None and not math.isfinite(tokens_per_hour):
        tokens_per_hour = None  # never a figure to write, nor one to keep in the history
    return observed, in_window, done, passes_per_hour, tokens_per_hour


def verdict(figures: IotaFigures, now: float, tokens_per_hour: float | None, lines_read: int) -> tuple[State, str, float | None]:
    """The state, its status line (the seed's `L1 · 358k tok/h`) and when it began."""
    if not figures.has_records:
        if lines_read > 0:  # lines came, and none was a record of this format
            return "unrecognised", "log format not recognised", None
        return "waiting", "waiting for log", None
    if figures.format_name is None:
        return "unrecognised", "log format not recognised", None
    clock = figures.clock
    if figures.queue_since is not None:
        return _registration(figures, now)
    layer = figures.layer
    prefix = f"L{layer} · " if layer is not None else ""
    if clock is not None and now - clock >= SILENT_SECONDS:
        return _silent(figures, f"{prefix}log silent {text.duration(now - clock)}", clock)
    if figures.crash is not None:
        return "crashed", f"{prefix}crashed at {text.clock(figures.crash.at)}", figures.crash.at
    initializing = figures.initializing_since
    if initializing is not None:  # given no work until the orchestrator says otherwise
        return "initializing", f"{prefix}initializing {text.duration(now - initializing)}", initializing
    if layer is None:
        since = figures.working_since if figures.working_since is not None else figures.first_at
        last_pass = figures.last_pass_at
        if since is not None and now - since > IDLE_MIN_SECONDS and (last_pass is None or now - last_pass > IDLE_MIN_SECONDS):
            return "idle", f"idle {text.duration(now - since)}", since
        return "working", "working", since
    idle_since = figures.idle_since
    if idle_since is not None:
        cause = figures.idle_cause
        because = f" — {cause.words}" if cause is not None else ""
        return "idle", f"{prefix}idle {text.duration(now - idle_since)}{because}", idle_since
    if tokens_per_hour is None:
        return "measuring", f"{prefix}…", figures.stretch_start
    since = figures.stretch_start
    if since is not None:  # measured from the end of the warm-up, or since passes came back
        since = max(since + WARMUP_SECONDS, figures.measured_at or since)
    if figures.back_at is not None and (since is None or figures.back_at > since):
        since = figures.back_at
    return "training", f"{prefix}{text.compact(tokens_per_hour)} tok/h", since


def _silent(figures: IotaFigures, line: str, clock: float) -> tuple[State, str, float | None]:
    """A silent log, with its cause when the app's shell log names one: a crash reads as crashed."""
    cause = figures.stop_cause
    if cause is None:
        return "silent", line, clock
    return ("crashed" if cause.kind == "crashed" else "silent"), f"{line} — {cause.words}", clock


# The lifecycle past the queue, in its words (the status has no position); others as written.
_LIFECYCLE: dict[str, tuple[State, str]] = {
    "processing": ("processing", "registration processing"),
    "confirmed": ("confirmed", "confirmed · waiting for a layer"),
    "failed": ("failed", "registration failed"),
}


def _registration(figures: IotaFigures, now: float) -> tuple[State, str, float | None]:
    """A miner waiting to be placed: queued with its position and trend, or past the queue."""
    clock = figures.clock
    status = figures.queue_status
    if status in QUEUED_STATUSES:
        position = figures.queue_position
        where = f"Queue #{position if position is not None else '?'}"
        if figures.lost_layer is not None:  # not a first queue: the layer was taken away
            where += f" (lost layer {figures.lost_layer})"
    else:
        where = _LIFECYCLE.get(status, ("registering", f"registration: {status}"))[1]
    if clock is not None and now - clock >= figures.queue_silent_seconds:  # a dead app waits forever
        return _silent(figures, f"{where} · log silent {text.duration(now - clock)}", clock)
    if status in QUEUED_STATUSES:
        glance = f" · {figures.queue_glance}" if figures.queue_glance else ""
        return "queued", f"{where}{glance}", figures.queue_since
    state = _LIFECYCLE.get(status, ("registering", ""))[0]
    return state, where, figures.queue_status_since


def queue_glance(queue: QueueTracker, now: float) -> str | None:
    """The trend where a glance lands: `▲ +300/h`, or `▼ −120/h · front in ~3 h` while it falls."""
    if queue.since is None or queue.status not in QUEUED_STATUSES:
        return None
    trend = queue.trend(now)
    if trend is None:
        return None
    words = trend_words(trend.per_hour)
    if trend.eta_seconds is not None:  # its largest unit only: a glance (the details say it exactly)
        words += f" · front in ~{text.ago(trend.eta_seconds)}"
    return words


def queue_view(queue: QueueTracker, now: float) -> QueueView | None:
    """The queue's position, trend, ETA, resets and this entry's forensics, or None when not in the queue."""
    if queue.since is None:
        return None
    trend = queue.trend(now)
    return QueueView(
        position=queue.position if queue.status in QUEUED_STATUSES else None,
        status=queue.status,
        trend_per_hour=trend.per_hour if trend is not None else None,
        eta_seconds=trend.eta_seconds if trend is not None else None,
        resets_24h=len(queue.resets_between(now - 86400, now)),
        last_reset_at=queue.resets[-1].at if queue.resets else None,
        trend_text=trend_words(trend.per_hour) if trend is not None else None,
        since=queue.since,
        best_position=queue.best_position,
        positions_lost=queue.positions_lost,
        entry_resets=queue.entry_resets,
        resets_7d=len(queue.resets_between(now - 7 * 86400, now)),
        restarts_7d=len(queue.rejoins_between(now - 7 * 86400, now)),
        growing_since=queue.growing_since(),
        last_poll_at=queue.last_poll_at,
    )


def network_view(transfers: SlidingWindow | None, first_at: float | None, now: float) -> NetworkView | None:
    """Transfer bytes per second over the window (``transfers`` None: none seen, so unknown, not zero)."""
    if transfers is None or first_at is None:
        return None
    observed = min(max(now - first_at, 0.0), float(RATE_WINDOW_SECONDS))
    if observed <= 0 or not math.isfinite(observed):
        return None
    total = transfers.total(now - RATE_WINDOW_SECONDS, now)
    return NetworkView(bytes_per_second=total / observed, window_seconds=observed)


def events_view(
    figures: IotaFigures, timeline: Timeline, state: State, shell: ShellFigures | None = None, now: float | None = None,
    sleeps: Sequence[SleepSpan] = (),
) -> tuple[EventView, ...]:
    """The timeline, with what the clock alone made true since the last line (idle, silent), the
    app's shell log's entries, and each silent or idle span's cause ("cause unknown" when none is)."""
    pending: list[TimelineEntry] = []
    if state == "idle" and not figures.idle_reported and figures.layer is not None:
        entry = figures.idle_entry
        pending.extend([entry] if entry is not None else [])
    if state in ("silent", "crashed") and figures.clock is not None:
        pending.append(TimelineEntry(figures.clock, "silent", "log went silent"))
    pending.extend(shell_entries(shell))
    entries = timeline.newest_first(pending)
    views: list[EventView] = []
    end = now
    for e in entries:  # newest first: a span ends where the entry after it begins
        words = e.text
        if e.kind in ("silent", "idle"):
            words = f"{words} — {_span_cause(shell, sleeps, e, end)}"
        views.append(_event_view(e.at, e.kind, words, e.layers))
        if e.kind in ("resumed", "registered", "restarted", "source_changed"):
            end = e.at
    return tuple(views)


def _span_cause(shell: ShellFigures | None, sleeps: Sequence[SleepSpan], entry: TimelineEntry, end: float | None) -> str:
    """The words for why a silent or idle span of the timeline happened: its cause, or "cause unknown"."""
    until = end if end is not None else entry.at + STOP_AFTER_SECONDS
    if entry.kind == "silent":
        cause = silence_cause(shell, entry.at, until, sleeps)
    else:
        cause = idle_cause(shell, entry.at, until)
    return cause.words if cause is not None else "cause unknown"


def details(
    figures: IotaFigures,
    now: float,
    state: State,
    rate: Rate,
    backend: BackendErrorsView,
    queue: QueueView | None,
    network: NetworkView | None,
) -> list[str]:
    """The detail lines under the status: rate, queue, last pass, run, GPU, backend, network."""
    lines: list[str] = []
    if figures.layer is not None:
        lines.append(_rate_line(figures, state, rate))
        if lines[-1] == measuring_line(rate.warmup.passes) and rate.warmup.text:
            lines[-1] = rate.warmup.text  # the same count with the time left (the page shows it with its bar)
    if queue is not None:
        lines.extend(_queue_lines(queue, now))
    last_pass = figures.last_pass_at
    if last_pass is not None:
        lines.append(f"last pass {text.ago(now - last_pass)} ago")
    lines.extend(figures.fact_lines)
    if backend.text is not None:
        lines.append(backend.text)
    if network is not None:
        lines.append(f"Network {text.bytes_per_second(network.bytes_per_second)}")
    return lines


def _rate_line(figures: IotaFigures, state: State, rate: Rate) -> str:
    view = rate.view
    if state in ("idle", "silent", "crashed"):
        was = figures.was_tokens_per_hour
        if was is not None:
            return f"was {text.compact(was)} tok/h"
        # A warm-up that cannot go on says so rather than sitting at 2/3.
        stopped = {"silent": "the log went silent", "crashed": "the miner crashed"}.get(state, "passes stopped")
        if rate.warmup.passes == 0:
            return f"not measured: no pass yet in layer {figures.layer}"
        return f"not measured: {text.plural(rate.warmup.passes, 'pass', 'passes')}, then {stopped}"
    if view.tokens_per_hour is None and view.was_tokens_per_hour is not None:  # measuring again after a pause
        so_far = text.plural(rate.warmup.passes, "pass", "passes")
        return f"measuring… ({so_far} so far) · was {text.compact(view.was_tokens_per_hour)} tok/h"
    over = f"(over {text.minutes(view.observed_seconds)} min)"
    if view.tokens_per_hour is not None and view.passes_per_hour is not None:
        return f"{text.compact(view.tokens_per_hour)} tok/h · {_whole(view.passes_per_hour)} passes/h {over}"
    if rate.warmup.done and view.passes_per_hour is not None:
        return f"{_whole(view.passes_per_hour)} passes/h {over} · batch shape not seen yet"
    # The seed's words; the page shows the warm-up's sentence and bar under them.
    return measuring_line(rate.warmup.passes)


def warmup_line(passes: int, observed_seconds: float) -> str:
    """The warm-up in one count: the seed's `measuring… (5 passes so far)` and the time left.

    The wait is the longer of the time still to observe and the passes still to come at the pace
    seen so far; with no pass yet there is no pace, so no wait is guessed.
    """
    line = measuring_line(passes)
    missing = max(WARMUP_COUNT - passes, 0)
    observed = min(max(observed_seconds, 0.0), float(WARMUP_SECONDS))
    if missing and (passes == 0 or observed_seconds <= 0):
        return line
    pace_seconds = observed_seconds / passes if missing else 0.0
    wait = max(WARMUP_SECONDS - observed, missing * pace_seconds)
    if wait < 60:
        return f"{line} · rate in under a minute"
    if wait < 3600:
        return f"{line} · rate in about {int(wait / 60 + 0.5)} min"
    return f"{line} · rate in about {text.duration(wait)}"


def measuring_line(passes: int) -> str:
    """The details line while the rate is measured: the seed's `measuring… (5 passes so far)`."""
    return f"measuring… ({text.plural(passes, 'pass', 'passes')} so far)"


def _whole(value: float) -> int:
    """Round down, forgiving float noise: 41 / 1200 × 3600 is 122.99999999999999, not 122."""
    return int(value + 1e-9)


def _queue_lines(queue: QueueView, now: float) -> list[str]:
    lines: list[str] = []
    if queue.trend_text is not None:
        line = f"Queue {queue.trend_text} (10 min)"
        if queue.eta_seconds is not None:
            line += f" · front in ~{text.duration(queue.eta_seconds)}"
        lines.append(line)
    growing = queue.growing_since
    if growing is not None and now - growing >= QUEUE_GROWING_WARN_SECONDS:
        lines.append(f"the queue has grown for {text.duration(now - growing)}")
    if queue.since is not None:
        entry = f"in the queue {text.duration(now - queue.since)}"
        if queue.best_position is not None:
            entry += f" · best #{queue.best_position}"
        if queue.entry_resets:
            entry += f" · {queue.positions_lost:,} positions lost to {text.plural(queue.entry_resets, 'reset', 'resets')}"
        lines.append(entry)
    if queue.resets_24h or queue.resets_7d:
        last = f", last {text.ago(now - queue.last_reset_at)} ago" if queue.last_reset_at is not None else ""
        noun = "reset" if queue.resets_24h == 1 else "resets"
        lines.append(f"{queue.resets_24h} queue {noun} in 24 h, {queue.resets_7d} in 7 days{last}")
    if queue.restarts_7d:
        lines.append(f"{text.plural(queue.restarts_7d, 'restart', 'restarts')} in 7 days sent it to the back: "
                     "restarting loses the place")
    return lines
