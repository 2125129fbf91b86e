"""The cold start's reading policy: how far back into a log the figures need, and no further.

The monitor reads a log backwards in chunks, newest first; :class:`Reach` says when it has read
enough (an hour of history and its rate window, the facts a snapshot shows, a miner's queue polls
over a week), so a cold start costs about the same on a 1 GiB log as on a 1 MiB one.
"""

from __future__ import annotations

from dataclasses import replace

from ..ingest.formats import create_parser
from ..stats.events import (
    ActivationShape,
    EpochReset,
    Event,
    ForwardPass,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    QueueUpdate,
    Registered,
    RunInfo,
    TrainStep,
)
from ..stats.history import HISTORY_SPAN_SECONDS
from ..stats.steps.timing import line_seconds
from ..stats.tracker import ERROR_WINDOW_SECONDS, RATE_WINDOW_SECONDS

# How far back a cold start reads, in log time: the rate window behind every point of the
# hour of history, and the hour of backend errors.
BACKLOG_SECONDS = max(HISTORY_SPAN_SECONDS + RATE_WINDOW_SECONDS, ERROR_WINDOW_SECONDS)
# Past that, keep reading back only to find a fact still unknown (layer, heartbeat, step,
# shape), and never more than this many bytes: a cold start must cost about the same on a
# 1 GiB log as on a 1 MiB one.
BACKLOG_EXTRA_BYTES = 8 << 20
# A miner that was in the registration queue: read back further while the log holds queue polls,
# so the queue report's resets over 24 h and 7 days come from the log, not only from since
# tokwatch started. The Train-at-Home log is one file per launch, capped at about 10 MB.
QUEUE_BACKLOG_SECONDS = 7 * 24 * 3600
QUEUE_BACKLOG_BYTES = 32 << 20
# A step trainer's log (dated like torchtitan's, or not like nanochat's, nanoGPT's, HF's): read
# back at most this much, and no further than the backlog's span at the pace of its newest lines.
STEP_MAX_BYTES = 16 << 20
# The newest bytes of a step log whose times (or printed durations) measure its pace (minutes of
# steps: a few thousand short lines, a few hundred of HF's progress bars), and the margin on the
# bytes that pace gives (evaluations the trainer does not time make the span longer, never shorter).
STEP_SAMPLE_BYTES = 256 << 10
STEP_SLACK = 1.25
# What a step log's first view reads: the rate window and a little more.
FIRST_VIEW_SECONDS = RATE_WINDOW_SECONDS + 5 * 60
# Never less than this (a read or two of the file): a short log is read whole, as before.
STEP_MIN_BYTES = 1 << 20
# A step log read from its end is read this far from its start too: the facts its trainer prints
# only there (nanoGPT's tokens per iteration, HF's total optimization steps, torchtitan's total steps).
HEAD_BYTES = 64 << 10
HEAD_LINES = 500


FACTS: tuple[tuple[type, ...], ...] = (
    (ForwardPass, LayerSeen, Registered, LayerChanged, QueueUpdate, MinerReset),
    (Heartbeat,),
    (OptimizationStep, EpochReset),
    (ActivationShape,),
)


class Reach:
    """How far back a cold start has read, and whether that is enough for the figures."""

    def __init__(self) -> None:
        self._newest: float | None = None
        self._facts = [False] * len(FACTS)
        self._extra_bytes = 0
        self._queue_bytes = 0
        self._undated_bytes = 0
        self._undated_seconds = 0.0

    def enough(self, events: list[Event], chunk: list[str], dated: bool, *, miner: bool = True) -> bool:
        """Take one more chunk (newest first) and its events; True: read no further back.

        ``miner``: past the span, read on for the facts only a miner's log prints (a step
        trainer's log has none of them: its span is enough).
        """
        oldest: float | None = None
        newest = self._newest
        facts = self._facts
        for event in events:
            if event.at is not None:
                oldest = event.at if oldest is None else min(oldest, event.at)
                newest = event.at if newest is None else max(newest, event.at)
            for i, kinds in enumerate(FACTS):
                if not facts[i] and isinstance(event, kinds):
                    facts[i] = True
        self._newest = newest
        far_enough = newest is not None and oldest is not None and oldest <= newest - BACKLOG_SECONDS
        if newest is None and not dated:
            self._undated_bytes += sum(len(line) + 1 for line in chunk)
            self._undated_seconds += printed_seconds(events)
            spanned = self._undated_seconds >= BACKLOG_SECONDS and self._undated_bytes >= STEP_MIN_BYTES
            if self._undated_bytes >= STEP_MAX_BYTES or spanned:
                return True
        if far_enough and not miner:
            return True
        if far_enough:
            size = sum(len(line) + 1 for line in chunk)
            assert newest is not None and oldest is not None
            if oldest > newest - QUEUE_BACKLOG_SECONDS and any(isinstance(event, QueueUpdate) for event in events):
                self._queue_bytes += size
                if self._queue_bytes < QUEUE_BACKLOG_BYTES:
                    return False
            if all(facts):
                return True
            self._extra_bytes += size
            if self._extra_bytes >= BACKLOG_EXTRA_BYTES:
                return True
        return False


def printed_seconds(events: list[Event]) -> float:
    """How long the step lines among ``events`` took, by the durations the trainer printed."""
    seconds = 0.0
    previous: TrainStep | None = None
    for event in events:
        if isinstance(event, TrainStep):
            took = line_seconds(previous, event)
            if took is not None and took > 0:
                seconds += took
            previous = event
    return seconds


def step_bytes_needed(events: list[Event], lines: list[str], span_seconds: float) -> int:
    """How many bytes of a step log hold ``span_seconds``, from a sample of its newest lines: by the
    times they carry, else by the durations the trainer prints."""
    times = [event.at for event in events if event.at is not None]
    seconds = max(times) - min(times) if times else printed_seconds(events)
    size = sum(len(line) + 1 for line in lines)
    if seconds <= 0:
        return STEP_MAX_BYTES  # no pace to go by: read as far as ever
    return max(STEP_MIN_BYTES, min(STEP_MAX_BYTES, int(STEP_SLACK * span_seconds * size / seconds)))


def head_facts(format_name: str, lines: list[str], written: float) -> tuple[list[str], list[Event]]:
    """What the start of a step log says about its run, before its first step: the lines up to its
    last ``RunInfo`` (for the live parser, which carries a run's plan on its steps: torchtitan's
    total) and those facts, without their time (a plan holds until a later line says otherwise; it
    moves no clock)."""
    parser = create_parser(format_name)
    parser.reference_time = written
    facts: list[Event] = []
    upto = 0
    for i, line in enumerate(lines[:HEAD_LINES]):
        # Line by line, to know which lines made a fact; none past the first step, so the live
        # parser reads no step of the head (nothing of it pairs with the tail's first lines).
        events = parser.feed([line])
        if any(isinstance(event, TrainStep) for event in events):
            break
        found = [replace(event, at=None) for event in events if isinstance(event, RunInfo)]
        if found:
            facts += found
            upto = i + 1
    return lines[:upto], facts


def before(events: list[Event], until: float) -> list[Event]:
    """The events up to ``until``: cut at the first one dated after it."""
    for i, event in enumerate(events):
        if event.at is not None and event.at > until:
            return events[:i]
    return events
