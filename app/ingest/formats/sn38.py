"""Bittensor SN38 "Distributed Training" miners (KMFODA → dstrbtd), and hivemind's own lines.

Research note §4. The miner logs through bittensor (``2025-06-27 14:03:11.482 |  INFO  | msg``,
colours stripped), since 2025‑09 possibly as ``   Rank 0    | msg`` (undated), or to its file
handler (``… - name - LEVEL - msg``). Messages are matched unanchored: the per-step line
changed ~7 times (``Outer Step: … | Inner Step: … | Learning Rate: … | Average Loss: …`` now).
An all-reduce round is the DiLoCo outer step: several lines report its end (the averager's,
then the miner's), so one round gives one result, the first that names it.

hivemind lines (``Jun 27 14:05:02.117 [INFO] …``) carry no year: it comes from
``reference_time`` (when the file was last written: a December line in a January file is last
year's); without one they stay undated.

Failures: one failed round is often reported by several lines (the miner's "Gradient averaging
step failed", the averager's ``Averaging step failed: could not find a group`` and its traceback,
hivemind's ``Averaging failed with <class …>``): lines within a few seconds with nothing else
between are one failure, with the most telling text. The errors the SN38 README lists as known
(a DHT peer it cannot connect to, a state download that times out, an asyncio task's timeout)
are counted as :class:`TrainerError`.
"""

from __future__ import annotations

import re

from ...stats.events import (
    AllReduceResult,
    CollabProgress,
    Event,
    PeerGroup,
    StepFigures,
    TrainerError,
    TrainingPause,
    TrainStep,
)
from .base import EpochToDate, LocalToEpoch, local_date, local_to_epoch
from .fields import (
    MONTHS,
    NUM,
    Kind,
    LocalTimes,
    finite,
    integer,
    number,
    year_of,
)
from .pipeline import StepLines

_NUM = NUM
_BITTENSOR = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)[.,](\d{3}) (?:\| +[A-Z]+ +\| (?:\S+:\S+:\d+ +\| )?|- \S+ - [A-Z]+ - )"
)
_HIVEMIND_OLD = re.compile(r"\[(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})\]\[[A-Z]+\](?:\[[^\]]*\])? ?")
# python logging's default format, no time (``ERROR:hivemind.optim.optimizer:Failed to …``).
_PYTHON_LOGGING = re.compile(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.<>-]{1,120}:")
_HIVEMIND = re.compile(r"([A-Z][a-z]{2}) (\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3}) \[[A-Z]+\](?: \[[^\]]+\])? ")
_RANK = re.compile(r"\s*Rank (\d{1,4})\s*\| ")
_PM2 = re.compile(r"\d+\|[\w.-]{1,64}\s*\| ")

_OUTER = re.compile(
    rf"Outer Step: (\d+) \| Inner Step: (\d+) \|(?: Learning Rate: ({_NUM}) \|)? Average Loss: ({_NUM})"
)
_INNER = re.compile(rf"Inner Step: (\d+) \| Average Loss: ({_NUM})")
_INDEX = re.compile(rf"Index: (\d+) \| Loss: ({_NUM})")
_OLD_STEP = re.compile(rf"Step (\d+) Loss: ({_NUM})")
_MAPPING = re.compile(r"'[^']{1,200}':\s*\d+")
_PARTS = re.compile(r"num_parts_by_peer \(([\d, ]{0,2000})\)")
_AVERAGED = re.compile(r"Averaged (?:gradients|parameters) with (\d+) peers")
# run_training_monitor.py prints a tab before "loss"; copies of it have spaces.
_HM_STEP = re.compile(rf"Step #(\d+)(?:\s+loss = ({_NUM}))?")
# The ALBERT example of 2021 (``[2021/11/01 07:28:18.759][INFO][__main__.on_step_end:153] Step 0``).
_HM_BARE_STEP = re.compile(r"^Step (\d+)$")
# hivemind's progress tracker: ``<run> accumulated 64 samples for epoch #15040 from 4 peers. ETA 16.79 sec``.
_HM_PROGRESS = re.compile(rf"accumulated (\d+) samples for epoch #(\d+) from (\d+) peers\. ETA ({_NUM}) sec")
_LOCAL_EPOCH = re.compile(rf"Local samples:\s+\d+ \| Local epoch:\s+(\d+)(?: \| Loss: ({_NUM}))?")
_HM_EPOCH = re.compile(r"Transitioning to epoch (\d+)")
_HM_LOSS = re.compile(rf"Local loss: ({_NUM})")
_HM_PERF = re.compile(rf"Performance: ({_NUM}) samples/sec")
# A tqdm bar with no newline of its own, a record printed straight after it (hivemind's examples put
# the local loss in the bar's description: ``loss = 1.911: 459it [00:04, 114.34it/s]Oct 09 …``).
_GLUED_BAR = re.compile(r"^[^\[\]]{0,200}?\d+(?:it|/\d+) \[[\d:]+(?:<[\d:?]+)?,[^\]]{0,120}\]")
_BAR_LOSS = re.compile(rf"\bloss\s*[=:]\s*({_NUM})")

_ROUND_OPENERS = (
    "Received All Reduce Call",
    "Received Main All Reduce Call",
    "Received Local All Reduce Call",
    "All Reduce Start",
    "Pausing continuous training",
    "Starting Pseudo Gradient Averaging",
)
_SUCCESSES = ("AllReduce Operation Finished Succesfully", "Averaging Round Finished Succesfully", "All Reduce Finish")
_FAILURES = (
    ("All Reduce Runner failed with error ", True),
    ("All Reduce Failed with error: ", True),
    ("Unexpected error during Averaging Process: ", True),
    ("All Reduce Failed At Checkpoint", False),
    ("Averaging gradients failed with ", True),
    ("Averaging failed with ", True),
    ("Gradient averaging step failed with error", True),
    ("Averaging step failed", False),
)
# The errors the SN38 README lists as known (its screenshots): each is counted, the last shown.
_KNOWN_ERRORS = (
    "to init DHT using initial_peer",
    "Failed to connect to DHT",
    "Failed to download state from",
    "Failed to load state from peer",
    "Task exception was never retrieved",
)
# Lines of one failure report arrive within this many seconds of each other.
_SAME_FAILURE_SECONDS = 10.0


class _Line:
    __slots__ = ("at", "bar_loss", "message", "prefixed", "rank")

    def __init__(self, at: float | None, rank: int | None, message: str, prefixed: bool = True) -> None:
        self.at = at
        self.rank = rank
        self.message = message
        self.prefixed = prefixed  # a logger's line (not a traceback's or other bare text)
        self.bar_loss: float | None = None  # the loss a bar glued before it showed


class Sn38Parser(StepLines[_Line]):
    """SN38 miner and hivemind lines in, step and all-reduce events out."""

    def __init__(
        self, name: str = "sn38", to_epoch: LocalToEpoch = local_to_epoch, to_date: EpochToDate = local_date
    ) -> None:
        self.name = name
        self._to_date = to_date
        self._reference: tuple[float, tuple[int, int, int]] | None = None
        self._local = LocalTimes(to_epoch)
        self._times = None  # its records read their own prefixes (:meth:`classify`)
        self._start(self.classify)
        self._failure: AllReduceResult | None = None  # a failed round still being reported
        self._rank: int | None = None
        self._round_open = False
        self._round_peers: int | None = None
        self._miner_steps = False  # an SN38 step line was seen: hivemind epochs are not steps then
        self._hivemind_steps = False  # hivemind's example trainer prints ``Step #N`` itself
        self._epoch_start: tuple[int, float, int] | None = None  # epoch, time, samples of its first progress line
        self._own_rate = False  # the trainer prints its samples/sec itself


    def batch_end(self, events: list[Event]) -> None:
        """A failed round still being reported goes out with the batch."""
        self._end_failure(events)

    def classify(self, text: str) -> tuple[Kind, _Line | None]:
        """What a piece of an SN38 or hivemind line is: a record behind its prefix, or text."""
        line = self._split_prefix(text)
        if line is None and "]" in text:
            line = self._after_bar(text)
        if line is None:
            return Kind.OTHER, _Line(None, None, text, prefixed=False)
        # A message ending in a bare number (the loss has two decimals) may have been cut.
        return (Kind.OPEN if text[-1:].isdigit() else Kind.FULL), line

    def _after_bar(self, text: str) -> _Line | None:
        """A record behind a tqdm bar drawn on the same line, with the loss the bar showed; a bar
        alone (its loss only, no record) as a line of its own."""
        m = _GLUED_BAR.match(text)
        if m is None:
            return None
        loss = _BAR_LOSS.search(m.group())
        rest = text[m.end() :]
        line = self._split_prefix(rest) if rest.strip() else None
        if line is None:
            if loss is None:
                return None
            line = _Line(None, None, rest, prefixed=False)
        line.bar_loss = finite(number(loss.group(1))) if loss is not None else None
        return line

    def _split_prefix(self, text: str) -> _Line | None:
        if text[:1] in " \t" and not _RANK.match(text):
            text = text.lstrip()  # an indented copy (a README, a Markdown quote): the line as printed
        first = text[:1]
        if first.isdigit():
            m = _BITTENSOR.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._local.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :])
            m = _PM2.match(text)
            if m is not None:
                return self._split_prefix(text[m.end() :]) or _Line(None, None, text[m.end() :])
        elif first == "[":
            m = _HIVEMIND_OLD.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._local.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :])
        elif first == " " or first == "R":
            m = _RANK.match(text)
            if m is not None:
                return _Line(None, int(m.group(1)), text[m.end() :])
        elif first.isupper():
            m = _HIVEMIND.match(text)
            if m is not None:
                return _Line(self._hivemind_time(m), None, text[m.end() :])
            m = _PYTHON_LOGGING.match(text)
            if m is not None:
                return _Line(None, None, text[m.end() :])
        return None

    def _hivemind_time(self, m: re.Match[str]) -> float | None:
        """A hivemind timestamp's time, its year from the reference time; None without one."""
        month, reference = MONTHS.get(m.group(1)), self._reference_date()
        if month is None or reference is None:
            return None
        day, h, mi, sec, ms = (int(m.group(i)) for i in range(2, 7))
        return self._local.epoch(year_of(month, day, reference), month, day, h, mi, sec + ms / 1000)

    def _reference_date(self) -> tuple[int, int, int] | None:
        t = self.reference_time
        if t is None:
            return None
        if self._reference is None or self._reference[0] != t:
            self._reference = (t, self._to_date(t))
        return self._reference[1]

    def emit(self, line: _Line, events: list[Event]) -> None:
        """A whole line's events, for the rank followed."""
        if line.rank is not None:
            if self._rank is None or line.rank < self._rank:
                self._rank = line.rank
            elif line.rank != self._rank:
                return  # another local rank repeating the same run
        at = line.at
        if at is not None and (self._latest is None or at > self._latest):
            self._latest = at
        message = line.message
        if line.bar_loss is not None:  # the bar was drawn just before the record behind it
            events.append(StepFigures(at=at, loss=line.bar_loss, loss_note="local"))
        if self._failure is not None and line.prefixed and not _is_failure(message):
            self._end_failure(events)
        if ("Step" in message or "Index: " in message) and self._step(at, message, events):
            return
        if "Local epoch" in message:
            m = _LOCAL_EPOCH.search(message)
            if m is not None:  # the hivemind.Optimizer-era miner: its local epoch is its step
                self._miner_steps = True
                events.append(TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2))))
                return
        if "accumulated" in message:
            m = _HM_PROGRESS.search(message)
            if m is not None:
                samples, epoch, peers = int(m.group(1)), int(m.group(2)), int(m.group(3))
                events.append(CollabProgress(at, epoch, samples, peers, finite(number(m.group(4)))))
                self._swarm_rate(at, epoch, samples, events)
                return
        if any(marker in message for marker in _KNOWN_ERRORS):
            events.append(TrainerError(at=at, error=message.strip(" -") or message))
            return
        if (
            "ll Reduce" in message
            or "llReduce" in message
            or "veraging" in message
            or "training" in message
            or "eer" in message
        ):
            self._all_reduce(at, message, events)
            return
        if "Transitioning to epoch" in message:
            m = _HM_EPOCH.search(message)
            # A collaboration's epoch is its step, unless the log prints steps of its own.
            if m is not None and not self._miner_steps and not self._hivemind_steps:
                events.append(TrainStep(at=at, stage="train", step=int(m.group(1))))
            return
        if "Local loss" in message or "Performance" in message:
            m = _HM_LOSS.search(message)
            if m is not None:
                events.append(StepFigures(at=at, loss=number(m.group(1)), loss_note="local"))
                return
            m = _HM_PERF.search(message)
            if m is not None and finite(number(m.group(1))) is not None:
                self._own_rate = True
                rate = number(m.group(1))
                assert rate is not None
                events.append(StepFigures(at=at, figures=(("samples_per_second", rate),)))

    def _swarm_rate(self, at: float | None, epoch: int, samples: int, events: list[Event]) -> None:
        """The collaboration's samples a second since its epoch's first progress line (when the
        trainer does not print a rate of its own)."""
        start = self._epoch_start
        if at is None:
            return
        if start is None or start[0] != epoch or samples < start[2]:
            self._epoch_start = (epoch, at, samples)
            return
        if at > start[1] and samples > start[2] and not self._own_rate:
            rate = (samples - start[2]) / (at - start[1])
            events.append(StepFigures(at=at, figures=(("samples_per_second", rate),)))

    def _step(self, at: float | None, message: str, events: list[Event]) -> bool:
        m = _OUTER.search(message)
        if m is not None:
            self._miner_steps = True
            events.append(
                TrainStep(
                    at=at,
                    stage="train",
                    step=int(m.group(2)),
                    outer_step=int(m.group(1)),
                    loss=number(m.group(4)),
                    loss_note="mean over this step's micro-batches",
                    lr=finite(number(m.group(3))),
                )
            )
            return True
        for pattern in (_INNER, _INDEX, _OLD_STEP):
            m = pattern.search(message)
            if m is not None:
                self._miner_steps = True
                events.append(
                    TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2)), loss_note="average")
                )
                return True
        m = _HM_BARE_STEP.match(message) if not self._miner_steps else None
        if m is not None:
            self._hivemind_steps = True
            events.append(TrainStep(at=at, stage="train", step=int(m.group(1))))
            return True
        m = _HM_STEP.search(message)
        if m is not None and not self._miner_steps and "Step #" in message[:12]:
            self._hivemind_steps = True
            events.append(TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2))))
            return True
        return False

    def _all_reduce(self, at: float | None, message: str, events: list[Event]) -> None:
        if any(opener in message for opener in _ROUND_OPENERS):
            if not self._round_open:
                self._round_open = True
                self._round_peers = None
                events.append(TrainingPause(at=at, reason="all-reduce"))
            return
        if "PeerID to UID mapping" in message:
            self._group(at, len(_MAPPING.findall(message)), events)
            return
        if "num_parts_by_peer" in message:
            m = _PARTS.search(message)
            if m is not None:
                self._group(at, len([p for p in m.group(1).split(",") if p.strip()]), events)
            return
        m = _AVERAGED.search(message)
        if m is not None:
            peers = integer(m.group(1))
            events.append(AllReduceResult(at=at, ok=True, peers=peers))
            self._round_open = False
            return
        if any(success in message for success in _SUCCESSES):
            if self._round_open:
                events.append(AllReduceResult(at=at, ok=True, peers=self._round_peers))
                self._round_open = False
            return
        for marker, has_error in _FAILURES:
            i = message.find(marker)
            if i >= 0:
                if self._round_open or marker.startswith(("Averaging", "Gradient")):
                    error = message[i + len(marker) :].strip(" -:") if has_error else message[i:].strip()
                    self._fail(AllReduceResult(at=at, ok=False, peers=self._round_peers, error=error or None), events)
                    self._round_open = False
                return
        if "Skipped averaging: there are no other peers" in message:
            events.append(AllReduceResult(at=at, ok=False, peers=0, error="no other peers"))

    def _fail(self, failure: AllReduceResult, events: list[Event]) -> None:
        """Take a failure line: the same failure's report goes on, or a new failure begins."""
        held = self._failure
        if held is not None and (
            failure.at is None or held.at is None or failure.at - held.at <= _SAME_FAILURE_SECONDS
        ):
            if _telling(failure.error) > _telling(held.error):
                self._failure = AllReduceResult(at=held.at, ok=False, peers=held.peers, error=failure.error)
            return
        self._end_failure(events)
        self._failure = failure

    def _end_failure(self, events: list[Event]) -> None:
        if self._failure is not None:
            events.append(self._failure)
            self._failure = None

    def _group(self, at: float | None, peers: int, events: list[Event]) -> None:
        if peers > 0:
            self._round_peers = peers
            events.append(PeerGroup(at=at, peers=peers))



def _is_failure(message: str) -> bool:
    return any(marker in message for marker, _ in _FAILURES)


def _telling(error: str | None) -> int:
    """How much an error text says: nothing, only an exception class, or a message."""
    if not error:
        return 0
    return 1 if error.startswith("<class") else 2
