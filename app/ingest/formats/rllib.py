"""RLlib and Ray Tune: a training iteration's result block, and Tune's table of trials.

RLlib prints each iteration's result dict with ``pretty_print`` (YAML, keys sorted), bare or indented
under Tune's ``Result for PPO_CartPole-v0_0:``: ``episode_reward_mean: -550.34``, an ``info:`` section
whose learner holds ``total_loss``, then ``time_this_iter_s`` (the iteration's seconds), ``time_total_s``
(the run's), ``timestamp`` (the epoch second the result was taken), ``timesteps_total`` (the
environment's steps, not the run's) and last ``training_iteration: 85``, which ends the block: the
iteration is a step. A block cut before it (a paste) names its iteration by ``iterations_since_restore``
and is read at the batch's end. ``done: true`` is the run's end.

Tune's status shows the trials as a table (``| Trial name | status | loc | iter | total time (s) | ts |
reward |``, boxed or under a rule of dash runs) or, before 2019, a line a trial (``- DDPG_0:\\tRUNNING
[pid=86], 313 s, 7 iter, 7000 ts, -1.07e+03 rew``). One trial is followed, the first one read, as
one rank of a launcher is; its row is a step when its iteration is past the last one read.
"""

from __future__ import annotations

import re

from ...stats.events import Event, StageEnd, StepFigures, TrainStep
from .fields import NUM, Kind, finite, integer, number
from .pipeline import Emit, EmitLines, not_again
from .prefix import LineTimes

# ``key: value`` (a figure) or ``key:`` (a section) at some indentation; a value in braces is an empty dict.
_PAIR = re.compile(r"^( *)([A-Za-z_][\w/.-]{0,80}):(?: (.{1,200}))?$")
_RESULT_FOR = re.compile(r"^Result for (\S{1,200}):$")
_OLD_STATUS = re.compile(
    rf"^ - (\S{{1,200}}):\s+([A-Z]+)(?: \[[^\]]*\])?, (?:({NUM}) s, )?(\d{{1,12}}) iter(?:, (\d{{1,15}}) ts)?"
    rf"(?:, ({NUM}) rew)?"
)
_STATUSES = ("RUNNING", "TERMINATED", "PENDING", "PAUSED", "ERROR")
# Ray 2.5+'s output: a result in a rounded box (``│ Trial PPO_0 result │``, then ``│ name   value │`` rows, closed
# by ``╰──╯``), the trial's end said above it, and the status table in the same box, its columns apart by spaces.
_BOX_TITLE = re.compile(r"^│ (?:Trial (\S{1,200}) result|Training result)\s*│$")
_BOX_ROW = re.compile(r"^│ ([A-Za-z_][\w/.-]{0,120})\s{2,}(\S{1,40})\s*│$")
_COMPLETED = re.compile(r"^Trial (\S{1,200}) completed training after \d{1,12} iterations? at ")
_SPACED = re.compile(r"\s{2,}")
_HEADER_NEEDLES = ("Trial name", "status", "iter")
# Figures of a block, by the names RLlib gave them over the years (top level first, then nested).
_REWARDS = ("episode_reward_mean", "episode_return_mean")
# The environment's steps sampled so far, by the names RLlib gave them over the years (the first printed is shown, as
# ``total/timesteps``, stable-baselines' too): ``timesteps_total`` (top level), the new stack's ``num_env_steps_sampled_lifetime``, the old
# stack's ``num_env_steps_sampled`` and, before 2020, the optimizer's ``num_steps_sampled`` under ``info:``. A count of
# what the run did, never its steps (an iteration samples thousands) nor a plan.
_ENV_STEPS = ("timesteps_total", "num_env_steps_sampled_lifetime", "num_env_steps_sampled", "num_steps_sampled")
# The environment's timesteps so far (the details' totals), as stable-baselines' are; a trial's figures beside its name,
# when a status table lists several (``trial/<name>/<figure>``: each trial's own, never merged into the one followed).
ENV_TIMESTEPS, TRIAL_PART = "total/timesteps", "trial/"
LOSS_NOTE = "the learner's total_loss"


def _nothing() -> list[Event]:
    return []


# A line of a block or a table read for what it adds to the record being built: a record of this format
# (so no preamble is taken for one), with no event of its own yet.
_READ: Emit = _nothing


class RllibParser(EmitLines):
    """RLlib's result blocks and Tune's trial tables in, one trial's iterations out."""

    name = "rllib"

    def __init__(self) -> None:
        self._times = LineTimes()
        self._start_emitting()
        self._block: dict[str, str] = {}  # the block's top-level figures so far
        self._nested: dict[str, list[str]] = {}  # every nested figure's values, by its name
        self._base: int | None = None  # the block's indentation
        self._trial: str | None = None  # the trial followed
        self._current: str | None = None  # the trial whose block is being read
        self._last: int | None = None  # the last iteration read
        self._ended = False
        self._columns: list[tuple[str, int, int]] | None = None  # a plain table's columns (name, start, end)
        self._header: list[str] | None = None  # its header's names, until the rule under it cuts them
        self._boxed: list[str] | None = None  # a boxed table's column names
        self._own_latest: float | None = None
        self._in_box = False  # a result box is being read
        # A script printing the iteration first, its figures under it (``print("training_iteration: %d" % …)``):
        # the iteration waits for them, to a blank line or the next iteration.
        self._leads = False
        self._held: int | None = None
        self._completed: str | None = None  # the trial whose end was said above its last result box
        self._air_header: list[str] | None = None  # the boxed status table's column names
        self._trials: dict[str, tuple[tuple[str, float], ...]] = {}  # each trial's figures as its row last gave them
        # What the block being read gave at a batch's end (a live read ended inside it), its iteration and its figures
        # then: the rest of the block, read next, completes that iteration (pipeline.py ``not_again``)
        self._released: list[Event] | None = None
        self._released_step: int | None = None
        self._released_size = 0

    def batch_latest(self) -> float | None:
        """The latest time a line's prefix or a result's own ``timestamp`` gave."""
        prefixed = self._times.latest
        own = self._own_latest
        if prefixed is None or (own is not None and own > prefixed):
            return own
        return prefixed

    def _begin(self) -> None:
        super()._begin()
        self._own_latest = None

    def batch_end(self, events: list[Event]) -> None:
        """A block cut before its ``training_iteration`` (the end of a paste, or a live read that ended inside it): its
        iteration from ``iterations_since_restore``, when that is past the last one read. The block stays held: the
        lines the next read brings complete that iteration, counted once."""
        step = self._held if self._held is not None else integer(self._block.get("iterations_since_restore"))
        if step is not None and self._current == self._trial:
            size = self._size()
            given = self._step(step)
            if given:
                events.extend(given)
                self._released = [*(self._released or []), *given]
                self._released_step, self._released_size = step, size

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A line of a result block, a ``Result for`` heading, a trial table's line or a status line."""
        if text[:1] in "│╭├╰" or text.startswith("Trial "):
            boxed = self._rounded(text)
            if boxed is not None:
                return boxed
        pair = _PAIR.match(text)
        if pair is not None and not text.startswith(" - "):
            return self._pair(len(pair.group(1)), pair.group(2), pair.group(3))
        heading = _RESULT_FOR.match(text)
        if heading is not None:
            self._clear()
            self._current = heading.group(1)
            if self._trial is None:
                self._trial = self._current
            return Kind.FULL, _READ
        if text.startswith(" - "):
            return self._old_status(text)
        if self._held is not None and not text.strip():
            held = self._step(self._held) if self._current == self._trial else []
            self._clear()
            return Kind.FULL, (lambda: held) if held else _READ
        if "|" in text or self._header is not None or self._columns is not None or "Trial name" in text:
            return self._table(text)
        return Kind.OTHER, None

    # --- result blocks ------------------------------------------------------------------------------

    def _pair(self, indent: int, key: str, value: str | None) -> tuple[Kind, Emit | None]:
        if self._base is None or indent < self._base:
            self._base = indent
        if indent > self._base:
            if value is not None:
                self._nested.setdefault(key, []).append(value.strip())
            return Kind.FULL, _READ
        if value is None:
            return Kind.FULL, _READ  # a section's heading (``info:``)
        if key != "training_iteration":
            self._block[key] = value.strip()
            return Kind.FULL, _READ
        step = integer(value)
        if step is None:
            self._clear()
            return Kind.FULL, _READ
        if not self._block and not self._nested and self._last is None and self._held is None:
            self._leads = True  # the first iteration printed before any figure: this log leads with it
        followed = self._current == self._trial
        if self._leads and integer(self._block.get("iterations_since_restore")) == step:
            # RLlib's own sorted block after all (the log began with a block's last line): the iteration held had
            # no figures of its own here, and this block's are this iteration's
            self._leads = False
            block, nested = self._block, self._nested
            self._block, self._nested = {}, {}
            events = self._step(self._held) if self._held is not None and followed else []
            self._block, self._nested = block, nested
            events += self._step(step) if followed else []
            self._clear()
            return Kind.FULL, lambda: events
        if self._leads:
            events = self._step(self._held) if self._held is not None and followed else []
            self._clear()
            self._held = step
            return Kind.FULL, (lambda: events) if events else _READ
        events = self._step(step) if followed else []
        self._clear()
        return Kind.FULL, lambda: events

    def _size(self) -> int:
        return len(self._block) + sum(map(len, self._nested.values()))

    def _step(self, step: int) -> list[Event]:
        """The block's iteration as a step, when it is past the last one read; the rest of an iteration given in part
        at a batch's end, when it completes that one."""
        released = self._released
        if released is not None and step == self._released_step:
            return not_again(self._events(step), released) if self._size() > self._released_size else []
        if self._last is not None and step <= self._last:
            return []
        self._last = step
        return self._events(step)

    def _events(self, step: int) -> list[Event]:
        """The block's events, its iteration ``step``."""
        block = self._block
        at = finite(number(block.get("timestamp")))
        if at is not None and at <= 0:
            at = None
        if at is not None and (self._own_latest is None or at > self._own_latest):
            self._own_latest = at
        seconds = finite(number(block.get("time_this_iter_s")))
        losses = {v for v in self._nested.get("total_loss", ()) if finite(number(v)) is not None}
        loss = finite(number(next(iter(losses)))) if len(losses) == 1 else None  # (several policies: no one loss)
        if not losses:
            loss = finite(number(block.get("loss")))  # (a Trainer's own metric, named so)
        rates = [("reward", reward)] if (reward := self._reward()) is not None else []
        rates.extend(self._env_steps())
        events: list[Event] = [TrainStep(
            at=at,
            stage="train",
            step=step,
            loss=loss,
            loss_note=(LOSS_NOTE if losses else "the reported loss") if loss is not None else None,
            lr=self._lr(),
            step_seconds=seconds if seconds is not None and seconds > 0 else None,
            elapsed_seconds=finite(number(block.get("time_total_s"))),
            figures=tuple(rates),
        )]
        if block.get("done") == "true" and not self._ended:
            self._ended = True
            events.append(StageEnd(at=at, summary=f"done: true (training_iteration {step})"))
        return events

    def _reward(self) -> float | None:
        for name in _REWARDS:
            value = finite(number(self._block.get(name)))
            if value is not None:
                return value
        for name in _REWARDS:
            values = {v for v in self._nested.get(name, ())}
            if len(values) == 1:
                return finite(number(next(iter(values))))
        return None

    def _env_steps(self) -> list[tuple[str, float]]:
        """The environment's steps sampled so far, the first of ``_ENV_STEPS`` the block prints (one value)."""
        for name in _ENV_STEPS:
            value = finite(number(self._block.get(name)))
            if value is None:
                values = set(self._nested.get(name, ()))
                value = finite(number(next(iter(values)))) if len(values) == 1 else None
            if value is not None and value >= 0:
                return [(ENV_TIMESTEPS, value)]
        return []

    def _lr(self) -> float | None:
        values = set(self._nested.get("cur_lr", ()))
        return finite(number(next(iter(values)))) if len(values) == 1 else None

    def _clear(self) -> None:
        self._block, self._nested, self._base, self._in_box, self._held = {}, {}, None, False, None
        self._released, self._released_step, self._released_size = None, None, 0

    # --- Ray 2.5+'s rounded boxes ------------------------------------------------------------------------

    def _rounded(self, text: str) -> tuple[Kind, Emit | None] | None:
        completed = _COMPLETED.match(text)
        if completed is not None:
            self._completed = completed.group(1)
            return Kind.FULL, _READ
        title = _BOX_TITLE.match(text)
        if title is not None:
            self._clear()
            self._in_box = True
            self._current = title.group(1)
            if self._trial is None:
                self._trial = self._current
            return Kind.FULL, _READ
        if text.startswith("╰"):
            if not self._in_box:
                self._air_header = None
                return Kind.FULL, _READ
            self._in_box = False
            step = integer(self._block.get("training_iteration"))
            followed = self._current == self._trial
            events = self._step(step) if step is not None and followed else []
            if followed and self._completed is not None and self._completed == self._current and not self._ended:
                self._ended = True
                events.append(StageEnd(at=None, summary=f"Trial {self._completed} completed training"))
            self._clear()
            return Kind.FULL, (lambda: events) if events else _READ
        if text[:1] in "╭├":
            return Kind.FULL, _READ
        if not (text.startswith("│") and text.rstrip().endswith("│")):
            return None
        if self._in_box:
            row = _BOX_ROW.match(text.rstrip())
            if row is not None:
                key, value = row.group(1), row.group(2)
                self._block[key] = value
                if "/" in key:
                    self._nested.setdefault(key.rsplit("/", 1)[1], []).append(value)
            return Kind.FULL, _READ
        inner = text.rstrip()[1:-1].strip()
        names = _SPACED.split(inner)
        if all(n in names for n in ("Trial name", "status")):
            self._air_header = names
            return Kind.FULL, _READ
        if self._air_header is not None and len(names) == len(self._air_header):
            return Kind.FULL, self._row(dict(zip(self._air_header, names, strict=True)))
        return Kind.OTHER, None

    # --- Tune's status --------------------------------------------------------------------------------

    def _old_status(self, text: str) -> tuple[Kind, Emit | None]:
        m = _OLD_STATUS.match(text)
        if m is None:
            return Kind.OTHER, None
        return Kind.FULL, self._trial_row(m.group(1), m.group(2), m.group(4), m.group(3), m.group(6), None, m.group(5))

    def _table(self, text: str) -> tuple[Kind, Emit | None]:
        stripped = text.strip()
        if stripped.startswith("|") and stripped.endswith("|"):
            boxed = [cell.strip() for cell in stripped.strip("|").split("|")]
            if all(n in boxed for n in ("Trial name", "status")):
                self._boxed = boxed
                return Kind.FULL, _READ
            if self._boxed is None or len(boxed) != len(self._boxed) or set(stripped) <= set("|-+"):
                return Kind.OTHER, None
            return Kind.FULL, self._row(dict(zip(self._boxed, boxed, strict=True)))
        if stripped.startswith("+") and set(stripped) <= set("+-"):
            return Kind.OTHER, None  # a boxed table's border
        if all(n in text for n in _HEADER_NEEDLES) and "  " in text:
            self._header, self._columns = [text], None
            return Kind.FULL, _READ
        if self._header is not None and set(stripped) <= set("- ") and "-" in stripped:
            header = self._header[0]
            self._columns = [(header[m.start():m.end()].strip(), m.start(), m.end())
                             for m in re.finditer(r"-+", text)]
            self._header = None
            return Kind.FULL, _READ
        if self._columns is not None and stripped:
            cells = {name: text[start:end].strip() for name, start, end in self._columns}
            if cells.get("status") not in _STATUSES:
                self._columns = None
                return Kind.OTHER, None
            return Kind.FULL, self._row(cells)
        self._header = None
        self._columns = None if not stripped else self._columns
        return Kind.OTHER, None

    def _row(self, cells: dict[str, str]) -> Emit | None:
        return self._trial_row(cells.get("Trial name", ""), cells.get("status", ""), cells.get("iter"),
                               cells.get("total time (s)"), cells.get("reward"), cells.get("loss"), cells.get("ts"))

    def _trial_row(self, trial: str, status: str, iteration: str | None, total_seconds: str | None,
                   reward: str | None, loss: str | None, timesteps: str | None = None) -> Emit | None:
        if not trial or status not in _STATUSES:
            return None
        if self._trial is None:
            self._trial = trial
        reward_value = finite(number(reward))
        ts = finite(number(timesteps))
        own = tuple((TRIAL_PART + f"{trial}/{name}", value) for name, value in (
            ("iter", finite(number(iteration))), ("reward", reward_value), ("ts", ts)) if value is not None)
        self._trials[trial] = own
        if trial != self._trial:
            # Another trial the table lists: its figures beside its name (the followed one's again, so both show)
            figures = (*self._trials.get(self._trial, ()), *own)
            return lambda: [StepFigures(at=None, figures=figures)]
        events: list[Event] = []
        step = integer(iteration)
        if step is not None and (self._last is None or step > self._last):
            self._last = step
            loss_value = finite(number(loss))
            several = own if len(self._trials) > 1 else ()
            events.append(TrainStep(
                at=None,
                stage="train",
                step=step,
                loss=loss_value,
                elapsed_seconds=finite(number(total_seconds)),
                figures=(*((("reward", reward_value),) if reward_value is not None else ()),
                         *(((ENV_TIMESTEPS, ts),) if ts is not None and ts >= 0 else ()), *several),
            ))
        if status == "TERMINATED" and not self._ended and self._last is not None:
            self._ended = True
            events.append(StageEnd(at=None, summary=f"{trial}: TERMINATED"))
        return (lambda: events) if events else None
