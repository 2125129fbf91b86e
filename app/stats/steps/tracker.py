"""The step trainers' tracker (nanochat, nanoGPT, llm.c, HF Trainer, torchtitan, SN38).

It keeps the log's clock and the tok/h history and builds the snapshot; what the steps say is
accumulated in :class:`~app.stats.steps.progress.StepProgress`.
"""

from __future__ import annotations

import math
import operator
from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain, islice, repeat

from ...snapshot import CountsView, Snapshot, SourceView
from ..clock import FUTURE_TOLERANCE_SECONDS, LogClock
from ..events import Event, SourceChanged, StepRun, Tick
from ..history import RateHistory
from ..tracker import NO_BACKEND_ERRORS
from .progress import StepProgress, first_false
from .report import recognised as step_recognised
from .report import report as step_report
from .table import training_table


class StepTracker:
    """Accumulates events from one step trainer's log and answers ``snapshot(now, source)``."""

    def __init__(self, format_name: str) -> None:
        self.format_name: str | None = format_name
        self.has_records = False
        self.progress = StepProgress()
        self._clock = LogClock()
        self._history = RateHistory()
        self._applied = 0  # events applied: the figures may have changed when it moves

    @property
    def clock(self) -> float | None:
        """The newest log time applied, or None."""
        return self._clock.latest

    def apply_all(self, events: Sequence[Event], now: float | None = None, arrival: float | None = None) -> None:
        """Apply events in log order (``now``: the caller's clock, to spot far-future lines).

        ``arrival``: when these lines were read (for a cold start, when the log was last
        written). Undated events are placed in time from it (app/stats/steps/timing.py).
        """
        if arrival is None:
            for event in events:
                self.apply(event, now)
            return
        batch = list(events)
        for event, at in zip(batch, self.progress.place(batch, arrival, self._clock.latest)):
            self.apply(event, now, at)

    def apply(self, event: Event, now: float | None = None, placed_at: float | None = None) -> None:
        """Apply one event (``placed_at``: the time an undated one was placed at); its time
        advances the log clock first."""
        if isinstance(event, SourceChanged):
            return  # the file changed, not the run: the step lines say what comes next
        self.has_records = True
        self._applied += 1
        keep, at = self._clock.admit(event, now, placed_at)
        if not keep:
            return
        if at is not None:
            if self._clock.first_at is None:
                self._history.start(at)
            if self._clock.advance(at):
                self._history.sample_until(at, self.progress.tokens_per_hour)
        if not isinstance(event, Tick):
            self.progress.apply(event, self._clock.latest)

    def run_end(self, run: StepRun, start: int, times: Sequence[float], now: float | None, until: float) -> int:
        """How far from ``start`` :meth:`apply_run` may take ``run``'s steps, placed at ``times`` (one a
        step of the run), as :meth:`apply` would one by one: each no earlier than the one before and
        before ``until`` (``start``: none). The tok/h history's 30-s samples on the way are taken
        by :meth:`apply_run` where :meth:`apply` would take them."""
        clock = self._clock
        latest, due = clock.latest, self._history.next_sample_at
        if latest is None or due is None or clock.replaying:
            return start
        limit = until
        end = bisect_left(times, limit, start)
        placed = times[start:end]
        taken = len(placed)
        ceiling = now + FUTURE_TOLERANCE_SECONDS if now is not None else limit
        ordered = list(placed)
        if taken and math.isfinite(sum(ordered)) and ordered[0] >= latest and ordered[-1] < limit \
                and ordered[-1] <= ceiling and ordered == sorted(ordered):
            return self.progress.run_end(run, start, placed)  # (all of them: the usual case, checked at once)
        for checks in (
            map(operator.le, chain((latest,), placed), placed),  # in order (nan is not)
            map(operator.lt, placed, repeat(limit)),
            map(operator.le, placed, repeat(ceiling)),  # not in the far future
        ):
            taken = first_false(islice(checks, taken), taken)
        return self.progress.run_end(run, start, placed[:taken])

    def apply_run(self, run: StepRun, start: int, times: Sequence[float]) -> None:
        """Apply ``run``'s steps from ``start`` at ``times`` (one a step, from ``start``), as far as
        :meth:`run_end` allows: as :meth:`apply` would one by one."""
        self.has_records = True
        self._applied += len(times)
        clock, history, progress = self._clock, self._history, self.progress
        due, lo, after = history.next_sample_at, 0, 0
        while due is not None and (k := bisect_left(times, due, after)) < len(times):
            # The first step at or past the next sample: as apply, the clock moves to it and the
            # history samples the rate of the steps before it; the step is taken with those after.
            if k > lo:
                clock.advance(times[k - 1])
                progress.apply_run(run, start + lo, times[lo:k])
                lo = k
            if clock.advance(times[k]):
                history.sample_until(times[k], progress.tokens_per_hour)
                due = history.next_sample_at
            after = k + 1
        if lo < len(times):
            clock.advance(times[-1])
            progress.apply_run(run, start + lo, times[lo:])

    def begin_stream(self, *, repeats: bool = False) -> None:
        """The log was replaced or truncated; undated step lines get times only on arrival, so
        nothing of the new stream is skipped."""

    def tokens_per_hour(self, now: float) -> float | None:
        """The measured rate at ``now``, or None while it is not measured."""
        return self.progress.tokens_per_hour(now)

    def snapshot(self, now: float, source: SourceView) -> Snapshot:
        """Everything known at ``now`` (the log's clock for a copied log, else wall time)."""
        return self._snapshot(now, source, words=True)

    def stored(self, now: float, source: SourceView) -> Snapshot:
        """:meth:`snapshot` as the history stores it (app/record/replay.py): the same figures, state,
        step, evaluations and events, without the page's words (status line, details) and training
        table, which no stored row reads (an import of an every-step log asks every 5 minutes of log)."""
        return self._snapshot(now, source, words=False)

    def _snapshot(self, now: float, source: SourceView, *, words: bool) -> Snapshot:
        report = step_report(self.progress, now, words=words)
        history = self._history.view(now, self._clock.latest, self.progress.tokens_per_hour, self._applied)
        state, status_line = report.state, report.status_line
        details = report.details
        recognised = step_recognised(self.progress) if words and self.format_name == "generic" else None
        if recognised is not None:
            details = (*details, recognised)  # a trainer tokwatch has no parser for: say what it read
        if not self.has_records:  # "waiting" only while nothing was read; else none was a step line
            state, status_line = ("unrecognised", "log format not recognised") if source.lines_read else ("waiting", "waiting for log")
        return Snapshot(
            status_line=status_line,
            state=state,
            format=self.format_name,
            layer=None,
            queue=None,
            rate=report.rate,
            warmup=report.warmup,
            step=report.step,
            run=None,
            gpu_memory=None,
            backend_errors=NO_BACKEND_ERRORS,
            details=details,
            history=history,
            source=self._clock.source(source),
            as_of=now,
            training=report.training,
            state_since=report.state_since if self.has_records else None,
            counts=CountsView(self.progress.steps_total, int(self.progress.tokens_total), {}),
            history_unit="tok/h" if self.progress.counts_tokens() else None,
            training_fields=training_table(report.training) if words else (),
            events=report.events,
        )
