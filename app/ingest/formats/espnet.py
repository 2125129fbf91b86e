"""ESPnet2's trainer: ``1epoch:train:1365-2046batch: iter_time=…, loss=61.936, loss_att=…, acc=…, lr_0=…``.

``espnet2/train/trainer.py`` logs, behind its logger's ``[host] 2020-07-19 08:49:04,080 (trainer:464) INFO:``,
one line every ``log_interval`` batches: the epoch, the batches it covers in that epoch, then the interval's
means as ``name=value``. The batch count starts again with each epoch (the position is the epoch's, as a
MetricLogger's is); ``loss`` is the model's loss and the other ``loss_*`` its parts; ``lr_0`` the first
parameter group's learning rate. Its ``*_time`` figures are means whose sum is not the batch's wall time,
save ``train_time``: the trainer's seconds an optimizer step (``espnet2/train/trainer.py`` registers
``time.perf_counter() - start_time`` once every ``accum_grad`` batches, "sec/step, where step refers to
accum_grad * mini-batch"), read as the step's time as printed. With ``accum_grad`` above 1 a step is several of
the batches the line counts, and the log's own dates contradict it (timing.clock_contradicts): the dates time
the batches then. ``3/20epoch started`` gives
the run's epochs, ``3epoch results: [train] … [valid] loss=…`` the epoch's validation, and ``The training
was finished at 20 epochs`` its end.
"""

from __future__ import annotations

import re

from ...stats.events import EvalResult, Event, StageEnd, TrainStep
from .base import LocalToEpoch, local_to_epoch
from .fields import Kind, LocalTimes, finite, number
from .pipeline import Emit, EmitLines
from .prefix import LineTimes, dated

# The trainer's own logger before the message, when the pipeline has not peeled it.
_LOGGER = re.compile(r"^`?\[[^\]]{1,120}\] (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d),(\d{3}) \([\w.]{1,60}:\d{1,6}\) [A-Z]+: ")
_TRAIN = re.compile(r"(\d{1,6})epoch:train:(\d{1,12})-(\d{1,12})batch: (.{1,2000}?)`?$")
_STARTED = re.compile(r"(\d{1,6})/(\d{1,6})epoch started")
_RESULTS = re.compile(r"(\d{1,6})epoch results: (.{1,4000})$")
_FINISHED = re.compile(r"The training was finished at (\d{1,6}) epochs")
_SECTION = re.compile(r"\[(\w{1,40})\] ")
# What ``train_time`` is, said beside it.
TRAIN_TIME_NOTE = "train_time as printed, the interval's mean"
# Figures of an interval that are no model figure: its times and counts.
_NOT_FIGURES = ("time", "total_count", "gpu_max_cached_mem_GB")


def _pairs(body: str) -> dict[str, float]:
    pairs: dict[str, float] = {}
    for part in body.split(","):
        key, sep, value = part.strip().partition("=")
        figure = number(value) if sep else None
        if figure is not None and key:
            pairs[key] = figure
    return pairs


class EspnetParser(EmitLines):
    """ESPnet2's trainer lines in, step, evaluation and end events out."""

    name = "espnet"

    def __init__(self, to_epoch: LocalToEpoch = local_to_epoch) -> None:
        self._times = LineTimes()
        self._local = LocalTimes(to_epoch)
        self._start_emitting()
        self._epochs: int | None = None  # the run's epochs, from ``N/Mepoch started``
        self._last_step: int | None = None

    def batch_latest(self) -> float | None:
        """The latest time a line carried (the trainer's logger's, or a prefix's)."""
        prefixed = self._times.latest
        return self._latest if prefixed is None or (self._latest is not None and self._latest > prefixed) else prefixed

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """A training interval's line, an epoch's start or results, or the run's end; anything else is not ESPnet's."""
        logger = _LOGGER.match(text)
        if logger is None:
            return self._read_message(text)
        year, month, day, hour, minute, second, millis = (int(logger.group(i)) for i in range(1, 8))
        at = self._local.epoch(year, month, day, hour, minute, second + millis / 1000)
        if at is not None and (self._latest is None or at > self._latest):
            self._latest = at
        kind, emit = self._read_message(text[logger.end() :])
        if emit is None or at is None:
            return kind, emit
        undated = emit
        return kind, lambda: dated(undated(), at)

    def _read_message(self, message: str) -> tuple[Kind, Emit | None]:
        if "batch: " in message:
            train = _TRAIN.search(message)
            if train is not None:
                return self._train(int(train.group(1)), int(train.group(3)), train.group(4))
        if "epoch started" in message:
            started = _STARTED.search(message)
            if started is not None:
                self._epochs = int(started.group(2))
                return Kind.FULL, None
        if "epoch results: " in message:
            results = _RESULTS.search(message)
            if results is not None:
                return self._results(results.group(2))
        finished = _FINISHED.search(message) if "was finished" in message else None
        if finished is not None:
            end = StageEnd(at=None, summary=message.strip(" `"))
            return Kind.FULL, lambda: [end]
        return Kind.OTHER, None

    def _train(self, epoch: int, batch: int, body: str) -> tuple[Kind, Emit | None]:
        pairs = _pairs(body.rstrip("` "))
        loss = finite(pairs.get("loss"))
        parts = tuple((f"loss/{key}", value) for key, value in pairs.items()
                      if key.startswith("loss_") and finite(value) is not None)
        step = TrainStep(
            at=None,
            stage="train",
            step=batch,
            loss=pairs.get("loss"),
            loss_note="the interval's mean" if loss is not None else None,
            lr=finite(pairs.get("lr_0", pairs.get("lr"))),
            step_seconds=finite(pairs.get("train_time")),
            step_seconds_note=TRAIN_TIME_NOTE if finite(pairs.get("train_time")) is not None else None,
            grad_norm=finite(pairs.get("grad_norm")),
            epoch=float(epoch),
            epoch_total=self._epochs,
            ends_at_total=False,
            figures=parts if len(parts) >= 2 else (),
        )
        self._last_step = batch
        # ``train_time=1.793`` ends the line in a bare number: a wrap may still continue it.
        return (Kind.OPEN if body.rstrip("` ")[-1:].isdigit() else Kind.FULL), lambda: [step]

    def _results(self, body: str) -> tuple[Kind, Emit | None]:
        sections = _SECTION.split(" " + body)
        evals: list[Event] = []
        for name, figures in zip(sections[1::2], sections[2::2], strict=False):
            if name == "train":
                continue
            for key, value in _pairs(figures).items():
                if key not in _NOT_FIGURES and not key.endswith("_time"):
                    evals.append(EvalResult(at=None, name=f"{name}_{key}", value=value, step=self._last_step))
        return Kind.FULL, (lambda: evals) if evals else None
