"""pytorch/torchtitan: ``[rank0]:[titan] <time> - root - INFO - step: 10  loss: …  tps: …  mfu: …%``.

Research note §3.2 (``torchtitan/components/metrics.py`` at ``00fbaafa``). Every step line is
ANSI-coloured by default (stripped first). Under torchrun without a rank filter every rank
prints the same step: one rank is followed (rank 0 as soon as it shows up), and a line that
repeats the step and loss just emitted is dropped. ``tps`` (``wps`` in early 2024) is tokens
per second *per device*; the device mesh line gives the device count. The message is read as
``key: value`` pairs so forks' extra fields (``step_time:``, ``iso_mfu:``, …) are harmless.
"""

from __future__ import annotations

import re
from math import prod

from ...stats.events import (
    EvalResult,
    Event,
    RunInfo,
    StageEnd,
    StageStart,
    TrainingPause,
    TrainStep,
)
from .base import LocalToEpoch, local_to_epoch
from .fields import NUM, Kind, LocalTimes, finite, integer, number
from .pipeline import StepLines
from .prefix import LineTimes, PrefixReader

_PREFIX = re.compile(
    r"(?:\[rank(\d{1,6})\]:)?\[titan\] (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d),(\d{3}) - \S+ - [A-Z]+ - "
)
_PAIR = re.compile(rf"([a-z_]{{2,30}}):\s*({NUM})(GiB\(([\d.]+)%\)|%)?")
_MESH = re.compile(r"Building \d-D device mesh with \[[^\]]*\], \[([\d, ]{1,100})\]")
_PEAK_UNKNOWN = re.compile(r"Peak flops undefined for: (.{1,100}), fallback to (\S+)")
_STARTS = re.compile(r"Training starts at step (\d+)")
# The init line (``Training starts at step 1, …, total steps 100 (warmup 200)`` in 2024,
# ``Trainer is initialized with …, total steps 10 (warmup 200)`` since): the run's length.
_TOTAL = re.compile(r"total steps (\d+)")
_INIT = ("Training starts at step", "Trainer is initialized", "Training completed")
# A pipeline-parallel rank that holds no loss prints this placeholder (only the last stage has one).
PIPELINE_PLACEHOLDER = -1.0
PIPELINE_NOTE = "loss is on the last pipeline stage"
# A step line that ends with its throughput: its step and loss were printed, and nothing else is due.
_LAST_TPS = re.compile(r"\b[tw]ps:\s*[\d,]+(?:\.\d+)?\s*$")


class _Record:
    """One line's time, rank and what its message means."""

    __slots__ = ("at", "kind", "message", "rank")

    def __init__(self, at: float | None, rank: int | None, message: str, kind: Kind) -> None:
        self.at = at
        self.rank = rank
        self.message = message
        self.kind = kind


class TorchtitanParser(StepLines[_Record]):
    """torchtitan console lines in, dated step/eval events out.

    torchrun's rank, and a launcher's or logger's prefix before the line (or before a step line
    printed without torchtitan's own logger), are read by the pipeline (app/ingest/formats/prefix.py).
    """

    _times: LineTimes

    name = "torchtitan"

    def __init__(self, to_epoch: LocalToEpoch = local_to_epoch) -> None:
        self._local = LocalTimes(to_epoch)
        self._times = LineTimes(PrefixReader(to_epoch), follow=False)  # ranks: see :meth:`emit`
        self._start(self.classify)
        self._rank: int | None = None  # the rank followed
        self._last: tuple[int, float | None] | None = None  # (step, loss) last emitted
        self._fallback_note: str | None = None
        self._total: int | None = None  # from the init line

    def batch_latest(self) -> float | None:
        """The latest time a record carried (torchtitan's own stamp, or its prefix's)."""
        return self._latest

    def classify(self, text: str) -> tuple[Kind, _Record | None]:
        """What a piece of a torchtitan line is: a record of its logger (dated), or a fragment."""
        if "[titan]" not in text[:40]:
            if "step:" in text and "loss:" in text:
                # Without torchtitan's logger (a custom logging setup): read the message alone,
                # at the time its own prefix gave, if any.
                return self._message_kind(self._times.at, self._times.rank, text)
            if text.startswith(_INIT):
                return self._message_kind(self._times.at, self._times.rank, text)
            if text[:1] == " " or ":" not in text[:12]:
                return (Kind.FRAGMENT if ("GiB(" in text or "tps:" in text) else Kind.OTHER), None
            return Kind.OTHER, None
        m = _PREFIX.match(text)
        if m is None:
            return Kind.PARTIAL, None
        year, month, day, hour, minute, second, millis = (int(m.group(i)) for i in range(2, 9))
        at = self._local.epoch(year, month, day, hour, minute, second + millis / 1000)
        if at is None:
            return Kind.FRAGMENT, None
        rank = int(m.group(1)) if m.group(1) is not None else self._times.rank
        return self._message_kind(at, rank, text[m.end() :])

    def _message_kind(self, at: float | None, rank: int | None, message: str) -> tuple[Kind, _Record | None]:
        if "step:" in message[:20] and "loss:" in message:
            # Whole once the mfu figure (the last of the template) is; a line whose last column is
            # ``tps`` (a build that prints no tflops or mfu) ends in a number a wrap could have
            # cut, so it waits for the next line; a wrap cut it otherwise.
            if re.search(r"mfu:\s*-?[\d.]+%", message):
                kind = Kind.FULL
            elif _LAST_TPS.search(message):
                kind = Kind.OPEN
            else:
                kind = Kind.PARTIAL
            if message.lstrip().startswith("validate") and "memory:" in message:
                kind = Kind.FULL
            return kind, _Record(at, rank, message, kind)
        return Kind.FULL, _Record(at, rank, message, Kind.FULL)

    def emit(self, record: _Record, events: list[Event]) -> None:
        """A whole record's events, for the rank followed."""
        if record.rank is not None:
            if self._rank is None or (record.rank == 0 and self._rank != 0):
                self._rank = record.rank
            elif record.rank != self._rank and not self._ahead(record.message):
                # The same run seen through another rank; its line for a step the followed rank
                # has not printed (yet, or ever: a cut log) still moves the run on.
                return
        at = record.at
        if at is not None and (self._latest is None or at > self._latest):
            self._latest = at
        message = record.message.strip()
        if message.startswith(("step:", "validate step:")):
            self._step_message(at, message, events)
        elif message.startswith(_INIT[:2]):
            total = _TOTAL.search(message)
            if total is not None and int(total.group(1)) > 0:
                self._total = int(total.group(1))
                events.append(RunInfo(at=at, total_steps=self._total))
            if _STARTS.match(message):
                self._last = None
                events.append(StageStart(at=at))
        elif message.startswith("Training completed"):
            events.append(StageEnd(at=at, summary=message))
        elif message.startswith("Building") and "device mesh" in message:
            m = _MESH.search(message)
            if m is not None:
                sizes = [integer(s) for s in m.group(1).split(",") if s.strip()]
                if sizes and all(s is not None and s > 0 for s in sizes):
                    events.append(RunInfo(at=at, device_count=prod(s for s in sizes if s is not None)))
        elif message.startswith("Peak flops undefined"):
            m = _PEAK_UNKNOWN.search(message)
            if m is not None:
                self._fallback_note = f"vs {m.group(2)} peak: {m.group(1)} not in torchtitan's table"
                events.append(RunInfo(at=at, gpu_name=m.group(1), peak_flops_unknown=True))
        elif message.startswith("Saving the checkpoint"):
            events.append(TrainingPause(at=at, reason="checkpoint"))

    def _ahead(self, message: str) -> bool:
        """True for a training step line whose step is past the last one emitted."""
        message = message.strip()
        if not message.startswith("step:"):
            return False
        m = _PAIR.match(message)
        step = integer(m.group(2)) if m is not None and m.group(1) == "step" else None
        return step is not None and (self._last is None or step > self._last[0])

    def _step_message(self, at: float | None, message: str, events: list[Event]) -> None:
        validate = message.startswith("validate")
        pairs: dict[str, tuple[str, str | None, str | None]] = {}
        for m in _PAIR.finditer(message):
            pairs.setdefault(m.group(1), (m.group(2), m.group(3), m.group(4)))
        step_number = integer(pairs["step"][0]) if "step" in pairs else None
        loss = number(pairs["loss"][0]) if "loss" in pairs else None
        if step_number is None or loss is None:
            return
        if validate:
            events.append(EvalResult(at=at, name="val_loss", value=loss, step=step_number))
            return
        if self._last == (step_number, loss):
            return  # the same step printed again (another rank, no prefix to tell)
        self._last = (step_number, loss)
        figures: list[tuple[str, float]] = []
        memory = pairs.get("memory")
        if memory is not None:
            gib, percent = number(memory[0]), number(memory[2])
            if gib is not None:
                figures.append(("memory_gib", gib))
            if percent is not None:
                figures.append(("memory_percent", percent))
        tflops = number(pairs["tflops"][0]) if "tflops" in pairs else None
        if tflops is not None and finite(tflops) is not None:
            figures.append(("tflops", tflops))
        throughput = pairs.get("tps") or pairs.get("wps")
        mfu = number(pairs["mfu"][0]) if "mfu" in pairs else None
        placeholder = loss == PIPELINE_PLACEHOLDER
        events.append(
            TrainStep(
                at=at,
                stage="train",
                step=step_number,
                total_steps=self._total,
                loss=None if placeholder else loss,
                loss_note=PIPELINE_NOTE if placeholder else "global average",
                grad_norm=number(pairs["grad_norm"][0]) if "grad_norm" in pairs else None,
                tokens_per_second=finite(number(throughput[0])) if throughput is not None else None,
                per_device=True,
                mfu=finite(mfu),
                mfu_note=self._fallback_note if mfu is not None else None,
                figures=tuple(figures),
            )
        )

