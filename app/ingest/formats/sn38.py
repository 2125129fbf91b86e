"""Bittensor SN38 "Distributed Training" miners (KMFODA → dstrbtd), and hivemind's own lines.

Research note §4. The miner logs through bittensor (``2025-06-27 14:03:11.482 |  INFO  | msg``,
colours stripped), since 2025‑09 possibly as ``   Rank 0    | msg`` (undated), or to its file
handler (``… - name - LEVEL - msg``). Messages are matched unanchored: the per-step line
changed ~7 times (``Outer Step: … | Inner Step: … | Learning Rate: … | Average Loss: …`` now).
An all-reduce round is the DiLoCo outer step: several lines report its end (the averager's,
then the miner's), so one round gives one result, the first that names it.

hivemind lines (``Jun 27 14:05:02.117 [INFO] …``) carry no year, so they are undated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.ingest.formats.base import LocalToEpoch, local_to_epoch
from app.ingest.formats.fields import Kind, LocalTimes, WrapJoiner, clean, finite, integer, number
from app.stats.events import (
    AllReduceResult,
    Event,
    PeerGroup,
    StepFigures,
    Tick,
    TrainingPause,
    TrainStep,
)

_NUM = r"[-+]?(?:\d[\d,]*(?:\.\d*)?(?:e[-+]?\d+)?|nan|inf)"
_BITTENSOR = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)[.,](\d{3}) (?:\| +[A-Z]+ +\| (?:\S+:\S+:\d+ +\| )?|- \S+ - [A-Z]+ - )"
)
_HIVEMIND_OLD = re.compile(r"\[(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})\]\[[A-Z]+\](?:\[[^\]]*\])? ?")
_HIVEMIND = re.compile(r"[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{3} \[[A-Z]+\](?: \[[^\]]+\])? ")
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
_HM_STEP = re.compile(rf"Step #(\d+)(?:\tloss = ({_NUM}))?")
_HM_EPOCH = re.compile(r"Transitioning to epoch (\d+)")
_HM_LOSS = re.compile(rf"Local loss: ({_NUM})")
_HM_PERF = re.compile(rf"Performance: ({_NUM}) samples/sec")

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
)


class _Line:
    __slots__ = ("at", "message", "rank")

    def __init__(self, at: float | None, rank: int | None, message: str) -> None:
        self.at = at
        self.rank = rank
        self.message = message


class Sn38Parser:
    """SN38 miner and hivemind lines in, step and all-reduce events out."""

    def __init__(self, name: str = "sn38", to_epoch: LocalToEpoch = local_to_epoch) -> None:
        self.name = name
        self._times = LocalTimes(to_epoch)
        self._joiner: WrapJoiner[_Line] = WrapJoiner(self._classify)
        self.bad_lines = 0
        self._rank: int | None = None
        self._round_open = False
        self._round_peers: int | None = None
        self._miner_steps = False  # an SN38 step line was seen: hivemind epochs are not steps then
        self._hivemind_steps = False  # hivemind's example trainer prints ``Step #N`` itself
        self._latest: float | None = None


    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order; end with a ``Tick`` when any line carried a time."""
        events: list[Event] = []
        self._latest = None
        for raw in lines:
            for line in self._joiner.records(clean(raw)):
                self._read(line, events)
        for line in self._joiner.end_records():
            self._read(line, events)
        if self._latest is not None:
            events.append(Tick(at=self._latest))
        self.bad_lines = self._joiner.bad
        return events

    def _classify(self, text: str) -> tuple[Kind, _Line | None]:
        line = self._split_prefix(text)
        if line is None:
            return Kind.OTHER, _Line(None, None, text)
        # A message ending in a bare number (the loss has two decimals) may have been cut.
        return (Kind.OPEN if text[-1:].isdigit() else Kind.FULL), line

    def _split_prefix(self, text: str) -> _Line | None:
        first = text[:1]
        if first.isdigit():
            m = _BITTENSOR.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._times.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :])
            m = _PM2.match(text)
            if m is not None:
                return self._split_prefix(text[m.end() :]) or _Line(None, None, text[m.end() :])
        elif first == "[":
            m = _HIVEMIND_OLD.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._times.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :])
        elif first == " " or first == "R":
            m = _RANK.match(text)
            if m is not None:
                return _Line(None, int(m.group(1)), text[m.end() :])
        elif first.isupper():
            m = _HIVEMIND.match(text)
            if m is not None:
                return _Line(None, None, text[m.end() :])
        return None

    def _read(self, line: _Line, events: list[Event]) -> None:
        if line.rank is not None:
            if self._rank is None or line.rank < self._rank:
                self._rank = line.rank
            elif line.rank != self._rank:
                return  # another local rank repeating the same run
        at = line.at
        if at is not None and (self._latest is None or at > self._latest):
            self._latest = at
        message = line.message
        if ("Step" in message or "Index: " in message) and self._step(at, message, events):
            return
        if "ll Reduce" in message or "llReduce" in message or "Averag" in message or "training" in message or "eer" in message:
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
                rate = number(m.group(1))
                assert rate is not None
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
                if self._round_open or marker.startswith("Averaging"):
                    error = message[i + len(marker) :].strip() if has_error else message[i:].strip()
                    events.append(AllReduceResult(at=at, ok=False, peers=self._round_peers, error=error or None))
                    self._round_open = False
                return
        if "Skipped averaging: there are no other peers" in message:
            events.append(AllReduceResult(at=at, ok=False, peers=0, error="no other peers"))

    def _group(self, at: float | None, peers: int, events: list[Event]) -> None:
        if peers > 0:
            self._round_peers = peers
            events.append(PeerGroup(at=at, peers=peers))

