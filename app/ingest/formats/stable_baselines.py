"""Stable-Baselines3 (and stable-baselines v2): the logger's table, one figure a row, between dashed rules.

SB3's ``HumanOutputFormat`` dumps what was recorded since the last dump as a table::

    ------------------------------------------
    | rollout/                |              |
    |    ep_rew_mean          | 0.016        |
    | time/                   |              |
    |    fps                  | 3374         |
    |    iterations           | 19529        |
    |    time_elapsed         | 5926         |
    |    total_timesteps      | 19997696     |
    | train/                  |              |
    |    loss                 | -0.0297      |
    ------------------------------------------

A table is one record: ``iterations`` (an on-policy algorithm's count of rollouts; ``n_updates`` for an
off-policy one, v2's ``nupdates``) is its position; ``total_timesteps`` and ``fps`` count the environment's
steps, neither the run's steps nor tokens. ``train/`` holds the previous update's figures (its ``loss``, else
its ``policy_loss``; ``learning_rate``), ``rollout/ep_rew_mean`` the mean episode reward. ``EvalCallback``
dumps its own table (``eval/mean_reward``, ``eval/mean_ep_length``) with the ``train/`` figures recorded since
the last dump, which are the latest step's. ``time_elapsed`` counts whole seconds from the start of ``learn()``
over ``iterations`` counted from there too: their ratio is an iteration's mean time (v2's ``fps`` is its last
update's alone).
"""

from __future__ import annotations

import re

from ...stats.events import EvalResult, Event, StepFigures, TrainStep
from .fields import FPS_SECONDS_NOTE, LOSS_PART, MEAN_SECONDS_NOTE, Kind, finite, logger_table_read, number
from .pipeline import Emit, EmitLines, not_again
from .prefix import LineTimes

_ROW = re.compile(r"^ ?\|\s+([A-Za-z][\w./ -]{0,60}?)\s*\|\s*(-?[\w.+-]{0,30})\s*\|\s*$")
_RULE = re.compile(r"^ ?-{5,}\s*$")
# The table's position, by the names the versions and algorithms print it under, in that order.
_POSITIONS = ("time/iterations", "nupdates", "train/n_updates")
_EVAL_FIGURES = ("mean_reward", "mean_ep_length", "success_rate")
# The mean episode reward, by the names the versions print it under (v3, then v2's two).
_EPISODE_REWARD = ("rollout/ep_rew_mean", "ep_rewmean", "eprewmean")


def _nothing() -> list[Event]:
    return []


_HELD: Emit = _nothing  # a row held for the table being read


class StableBaselinesParser(EmitLines):
    """Stable-Baselines' logger tables in, step, evaluation and figure events out."""

    name = "stable-baselines"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._rows: dict[str, str] | None = None  # the table being read: its figures by group/name
        self._group = ""
        self._last_step: int | None = None
        # What the table being read gave at a batch's end, and its rows then (a live read ended inside it): its rest,
        # read next, completes it (pipeline.py ``not_again``)
        self._released: list[Event] | None = None
        self._released_rows = 0

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A table's row or rule; anything else closes a table left open and is not the logger's."""
        row = _ROW.match(text)
        if row is not None:
            name, value = row.group(1).strip(), row.group(2).strip()
            if self._rows is None:
                self._rows = {}
            if not value and name.endswith("/"):
                self._group = name
            elif value:
                self._rows[self._group + name] = value
            return Kind.FULL, _HELD
        if _RULE.match(text):
            events = self._close()
            return Kind.FULL, (lambda: events) if events else _HELD
        if self._rows:
            events = self._close()
            return Kind.FULL, (lambda: events) if events else None
        return Kind.OTHER, None

    def batch_end(self, events: list[Event]) -> None:
        """A table the batch ended inside (a paste's cut, or a live read: the logger writes a table at once, but a
        block-buffered stdout flushes every 8 KB wherever that falls) is given as it stands, and stays held: the rows
        the next read brings complete it, its step and figures counted once."""
        rows = self._rows
        if not rows or len(rows) <= self._released_rows:
            return
        if not logger_table_read({name.rpartition("/")[2] for name in rows}):
            return  # (its position or its loss's other part still to come)
        given = self._events(rows)
        if given:
            fresh = given if self._released is None else not_again(given, self._released)
            events.extend(fresh)
            self._released = [*(self._released or []), *fresh]
            self._released_rows = len(rows)

    def _close(self) -> list[Event]:
        rows, self._rows, self._group = self._rows, None, ""
        released, self._released = self._released, None
        released_rows, self._released_rows = self._released_rows, 0
        if not rows or len(rows) <= released_rows:
            return []  # (nothing read since its part was given)
        events = self._events(rows)
        return events if released is None else not_again(events, released)

    def _events(self, rows: dict[str, str]) -> list[Event]:
        """A table's events, by its figures."""
        figures = {name: number(value) for name, value in rows.items()}
        timesteps = figures.get("time/total_timesteps", figures.get("total_timesteps"))
        at_timesteps = timesteps is not None and timesteps == int(timesteps) and timesteps >= 0
        loss = finite(figures.get("train/loss"))
        policy, value = (finite(figures.get(f"train/{name}", figures.get(name))) for name in ("policy_loss", "value_loss"))
        # v2's policy's and value function's losses with no whole loss beside them: PPO minimises their weighted sum,
        # neither is the loss; both shown as its parts
        parts = ((LOSS_PART + "policy", policy), (LOSS_PART + "value", value)) if (
            loss is None and policy is not None and value is not None) else ()
        if loss is None and not parts:
            loss = policy
        lr = finite(figures.get("train/learning_rate"))
        if any(name.startswith("eval/") for name in rows):
            # EvalCallback's table: the evaluation at the timesteps it prints (else the latest step's), and the update's
            # figures recorded since
            at = int(timesteps) if at_timesteps and timesteps is not None else self._last_step
            events: list[Event] = [EvalResult(at=None, name=name, value=finite(figures.get(f"eval/{name}")), step=at)
                                   for name in _EVAL_FIGURES if f"eval/{name}" in rows]
            if loss is not None or lr is not None:
                events.append(StepFigures(at=None, loss=loss, lr=lr))
            return events
        position = next((figures[name] for name in _POSITIONS if figures.get(name) is not None), None)
        if at_timesteps and timesteps is not None:
            step = int(timesteps)
        elif position is not None and position == int(position) and position >= 0:
            step = int(position)
        else:
            return []  # a table's tail without its position (the paste began inside it)
        self._last_step = step
        reward = finite(next((figures[name] for name in _EPISODE_REWARD if figures.get(name) is not None), None))
        fps = finite(figures.get("time/fps", figures.get("fps")))  # the environment's steps a second, as printed
        if at_timesteps:
            # the run measured in timesteps: ``fps`` is their rate, as printed (its count of updates is no step)
            step_seconds = 1 / fps if fps is not None and fps > 0 else None
            note = None if step_seconds is None else FPS_SECONDS_NOTE
            counts: tuple[tuple[str, float | None], ...] = ()
        else:
            step_seconds = _mean_iteration_seconds(figures, step)
            note = None if step_seconds is None else MEAN_SECONDS_NOTE
            counts = (("total/timesteps", finite(timesteps)),)
        return [TrainStep(
            at=None,
            stage="train",
            step=step,
            loss=loss,
            loss_note=None if loss is None or figures.get("train/loss") is not None else "policy loss",
            lr=lr,
            step_seconds=step_seconds,
            step_seconds_note=note,
            figures=tuple((name, figure) for name, figure in (*parts, ("reward", reward), ("rate/fps", fps), *counts)
                          if figure is not None),
        )]


def _mean_iteration_seconds(figures: dict[str, float | None], iterations: int) -> float | None:
    """``time_elapsed`` over the iterations, both counted from the start of ``learn()``; where
    ``total_timesteps / fps`` falls inside that whole second (the run started from timestep 0), the finer clock."""
    elapsed = figures.get("time/time_elapsed", figures.get("time_elapsed"))
    if elapsed is None or elapsed <= 0 or iterations < 1:
        return None
    fps, timesteps = figures.get("time/fps"), figures.get("time/total_timesteps")
    if fps is not None and timesteps is not None and fps > elapsed and int(timesteps / fps) == elapsed:
        elapsed = timesteps / fps
    return elapsed / iterations
