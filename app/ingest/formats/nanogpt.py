"""karpathy/nanoGPT, karpathy/llm.c (CUDA and its PyTorch reference) and modded-nanogpt.

Templates: research note §2. All three print with a bare ``print``/``printf``: no
timestamps, every event has ``at=None``. One parser reads the three families (they never
share a log), registered under three names so the snapshot says which one is in use.

* nanoGPT ``iter N: loss X, time Yms, mfu Z%`` (every ``log_interval``); forks append or insert
  fields (``, lr …``, ``, tokens …``, ``ms/step``), so the line is read as ``key value``
  segments and unknown ones are ignored. Tokens per step come from the startup line
  ``tokens per iteration will be: N``. ``mfu -100.00%`` means "not measured yet".
* llm.c ``step    1/18865 | loss … (…z)| norm … (…z)| lr … | … ms | …% bf16 MFU | … tok/s``
  (1-based step; ``-100.0%`` MFU on an unknown GPU) and the PyTorch reference line, plus
  llm.c's ``main.log`` records (``s:N trl:…``).
* modded-nanogpt ``step:N/M [train_loss:…] [val_loss:…] train_time:…ms step_avg:…ms``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from app.ingest.formats.fields import Kind, WrapJoiner, clean, finite, integer, number, split_glued
from app.stats.events import EvalResult, Event, RunInfo, StageEnd, TrainingPause, TrainStep

Emit = Callable[[], list[Event]]

_NUM = r"[-+]?(?:\d[\d,]*(?:\.\d*)?(?:e[-+]?\d+)?|nan|inf)"
_ITER_HEAD = re.compile(r"iter (\d{1,12}): ")
_SEGMENT = re.compile(r"([a-z][\w/ ]{0,30}?) (\S+)")
_MS_VALUE = re.compile(r"([\d.]+)ms(?:/step)?")
_PCT_VALUE = re.compile(r"(-?[\d.]+)%")
_NANOGPT_EVAL = re.compile(rf"step (\d{{1,12}}): train loss ({_NUM}), val loss ({_NUM})")
_TOKENS_PER_ITER = re.compile(r"tokens per iteration will be: ([\d,]+)")
# llm.c's CUDA step line and its PyTorch reference's (no z-scores, no MFU): named alike so one
# reader serves both.
_LLMC = re.compile(
    rf"step\s+(?P<step>\d{{1,12}})/(?P<total>\d{{1,12}}) \| loss (?P<loss>{_NUM}) \([-+\w.]+z\)"
    rf"\| norm (?P<norm>{_NUM}) \([-+\w.]+z\)\| lr (?P<lr>{_NUM}) \| (?P<ms>[\d.]+) ms"
    rf" \| (?P<mfu>-?[\d.]+)% bf16 MFU \| (?P<tok_s>\d+) tok/s"
)
_LLMC_TORCH = re.compile(
    rf"step\s+(?P<step>\d{{1,12}})/(?P<total>\d{{1,12}}) \| train loss (?P<loss>{_NUM}) \| norm (?P<norm>{_NUM})"
    rf" \| lr (?P<lr>{_NUM}) \| \((?P<ms>[\d.]+) ms \| (?P<tok_s>\d+) tok/s\)"
)
_LLMC_VAL = re.compile(rf"val loss ({_NUM})")
_HELLASWAG = re.compile(r"HellaSwag: (\d+)/(\d+) = ([\d.]+)")
_LLMC_LOGFILE = re.compile(rf"s:(\d{{1,12}}) (trl|tel|eval):({_NUM})(?: lr:({_NUM}))?(?: norm:({_NUM}))?")
_MODDED = re.compile(
    rf"step:(\d{{1,12}})/(\d{{1,12}})(?: train_loss:({_NUM}))?(?: val_loss:({_NUM}))?"
    r" train_time:(\d+)ms(?: step_avg:([\w.]+)ms)?"
)
_GLUED = re.compile(r"iter \d+: loss |step \d+: train loss |step\s+\d+/\d+ \| |step:\d+/\d+ ")
_FRAGMENT_KEYS = (", time ", "ms, mfu", "% bf16 MFU", " tok/s", "z)| norm", "train_time:")

NANOGPT_MFU_NOTE = "not measured yet: nanoGPT printed -100% (its first iterations)"
LLMC_MFU_NOTE = "unknown: llm.c printed -100% (GPU not in its table)"


class NanogptParser:
    """Lines of nanoGPT, llm.c or modded-nanogpt in, step/eval events out (all undated)."""

    def __init__(self, name: str = "nanogpt") -> None:
        self.name = name
        self._joiner: WrapJoiner[Emit] = WrapJoiner(self._classify)
        self.bad_lines = 0


    def feed(self, lines: Iterable[str]) -> list[Event]:
        """Parse lines in log order."""
        events: list[Event] = []
        for raw in lines:
            line = clean(raw)
            # llm.c redraws "evaluating HellaSwag: i/N" with a carriage return.
            parts = [p for p in line.split("\r") if p] if "\r" in line else [line]
            for part in parts:
                for text in split_glued(part, _GLUED) if "tep" in part or "iter " in part else (part,):
                    for emit in self._joiner.records(text):
                        events.extend(emit())
        for emit in self._joiner.end_records():
            events.extend(emit())
        self.bad_lines = self._joiner.bad
        return events

    def _classify(self, text: str) -> tuple[Kind, Emit | None]:
        if text.startswith("iter "):
            return _nanogpt_step(text)
        if text.startswith("step"):
            return _step_line(text)
        if len(text) < 5 and ("iter ".startswith(text) or "step ".startswith(text)):
            return Kind.PARTIAL, None  # a wrap right inside the first word
        return _other_line(text)


def _llmc_step(m: re.Match[str]) -> TrainStep:
    """Read an llm.c step line (CUDA, or the PyTorch reference that prints no MFU)."""
    mfu = number(m.groupdict().get("mfu"))
    mfu_note = None
    if mfu is not None and mfu < 0:
        mfu, mfu_note = None, LLMC_MFU_NOTE
    step_ms = number(m.group("ms"))
    return TrainStep(
        at=None,
        stage="train",
        step=int(m.group("step")),
        total_steps=int(m.group("total")),
        loss=number(m.group("loss")),
        loss_note="this step's mean",
        grad_norm=number(m.group("norm")),
        lr=finite(number(m.group("lr"))),
        step_seconds=step_ms / 1000 if step_ms else None,
        tokens_per_second=finite(number(m.group("tok_s"))),
        mfu=finite(mfu),
        mfu_note=mfu_note,
    )


def _nanogpt_step(text: str) -> tuple[Kind, Emit | None]:
    head = _ITER_HEAD.match(text)
    if head is None:
        return (Kind.PARTIAL, None) if re.match(r"iter (?:\d|$)", text) else (Kind.OTHER, None)
    loss = step_ms = mfu = lr = None
    # Whole only once the template's last figure (mfu …%) is; a fork's tail after it is
    # ignored. Ending anywhere else, a wrap may continue the line: hold it one line (OPEN).
    last_open = True
    for segment in text[head.end() :].split(", "):
        m = _SEGMENT.fullmatch(segment)
        if m is None:
            if loss is not None and step_ms is not None:
                break  # a fork's tail, or a wrap inside it: the known fields are whole
            return Kind.PARTIAL, None
        key, value = m.group(1), m.group(2)
        last_open = key != "mfu"
        if key == "loss":
            loss = number(value)
            if loss is None:
                return Kind.PARTIAL, None
        elif key == "time":
            ms = _MS_VALUE.fullmatch(value)
            if ms is None:
                return Kind.PARTIAL, None
            step_ms = number(ms.group(1))
        elif key == "mfu":
            pct = _PCT_VALUE.fullmatch(value)
            if pct is None:
                return Kind.PARTIAL, None
            mfu = number(pct.group(1))
        elif key == "lr":
            lr = number(value)
            if lr is None:
                return Kind.PARTIAL, None
    if loss is None or step_ms is None:
        return Kind.PARTIAL, None
    mfu_note = None
    if mfu is not None and mfu < 0:
        mfu, mfu_note = None, NANOGPT_MFU_NOTE
    event = TrainStep(
        at=None,
        stage="train",
        step=int(head.group(1)),
        loss=loss,
        loss_note="last micro-batch",
        lr=finite(lr),
        step_seconds=step_ms / 1000 if step_ms is not None and step_ms > 0 else None,
        mfu=finite(mfu),
        mfu_note=mfu_note,
    )
    return (Kind.OPEN if last_open else Kind.FULL), lambda: [event]


def _step_line(text: str) -> tuple[Kind, Emit | None]:
    if text.startswith("step:"):
        m = _MODDED.fullmatch(text)
        if m is None:
            return Kind.PARTIAL, None
        step_number, total = int(m.group(1)), int(m.group(2))
        if m.group(4) is not None:
            val = EvalResult(at=None, name="val_loss", value=finite(number(m.group(4))), step=step_number)
            return Kind.FULL, lambda: [val]
        avg_ms = finite(number(m.group(6)))
        modded = TrainStep(
            at=None,
            stage="train",
            step=step_number,
            total_steps=total,
            loss=number(m.group(3)),
            loss_note="this step's",
            elapsed_seconds=int(m.group(5)) / 1000,
            step_seconds=avg_ms / 1000 if avg_ms is not None and avg_ms > 0 else None,
        )
        return Kind.FULL, lambda: [modded]
    if text.startswith("step ") and ": train loss" in text[:24]:
        m = _NANOGPT_EVAL.fullmatch(text)
        if m is None:
            return Kind.PARTIAL, None
        step_number = int(m.group(1))
        evals: list[Event] = [
            EvalResult(at=None, name="train_loss", value=finite(number(m.group(2))), step=step_number),
            EvalResult(at=None, name="val_loss", value=finite(number(m.group(3))), step=step_number),
        ]
        return Kind.OPEN, lambda: evals
    if re.match(r"step\s+\d+/\d+ \| ", text) is None:
        return (Kind.PARTIAL, None) if re.match(r"step\s+\d", text) else (Kind.OTHER, None)
    m = _LLMC.fullmatch(text) or _LLMC_TORCH.fullmatch(text)
    if m is not None:
        llmc = _llmc_step(m)
        return Kind.FULL, lambda: [llmc]
    return Kind.PARTIAL, None


def _other_line(text: str) -> tuple[Kind, Emit | None]:
    first = text[:1]
    if first == "t":
        m = _TOKENS_PER_ITER.fullmatch(text)
        if m is not None:
            info = RunInfo(at=None, tokens_per_step=integer(m.group(1)))
            return Kind.OPEN, lambda: [info]
        if text.startswith("total average iteration time:"):
            return Kind.FULL, lambda: [StageEnd(at=None, summary=text)]
    elif first == "s":
        if text.startswith("saving checkpoint to "):
            return Kind.FULL, lambda: [TrainingPause(at=None, reason="checkpoint")]
        if text.startswith("s:"):
            return _llmc_logfile(text)
    elif first == "v" and text.startswith("val loss "):
        m = _LLMC_VAL.fullmatch(text)
        if m is not None:
            val = EvalResult(at=None, name="val_loss", value=finite(number(m.group(1))))
            return Kind.OPEN, lambda: [val]
    elif first in ("H", "e"):
        if text.startswith("HellaSwag: "):
            m = _HELLASWAG.fullmatch(text)
            if m is not None:
                hs = EvalResult(at=None, name="hellaswag", value=finite(number(m.group(3))))
                return Kind.OPEN, lambda: [hs]
        if text.startswith("evaluating HellaSwag"):
            return Kind.FULL, lambda: [TrainingPause(at=None, reason="evaluation")]
    elif first == "p" and text.startswith(("peak memory allocated:", "peak memory consumption:")):
        return Kind.FULL, lambda: [StageEnd(at=None, summary=text)]
    if any(key in text for key in _FRAGMENT_KEYS):
        return Kind.FRAGMENT, None
    return Kind.OTHER, None


def _llmc_logfile(text: str) -> tuple[Kind, Emit | None]:
    m = _LLMC_LOGFILE.fullmatch(text)
    if m is None:
        return Kind.OTHER, None
    step_number, kind, value = int(m.group(1)), m.group(2), number(m.group(3))
    events: list[Event]
    if kind == "trl":
        events = [
            TrainStep(
                at=None,
                stage="train",
                step=step_number,
                loss=value,
                loss_note="this step's mean",
                lr=finite(number(m.group(4))),
                grad_norm=number(m.group(5)),
            )
        ]
    else:
        name = "val_loss" if kind == "tel" else "hellaswag"
        events = [EvalResult(at=None, name=name, value=finite(value), step=step_number)]
    return Kind.OPEN, lambda: events
