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
* nanoGPT's planned iterations, printed apart from its step lines by its configurator: a config file's
  lines echoed whole (``Overriding config with config/train_shakespeare_char.py:`` then ``max_iters = 5000``)
  and each command-line override (``Overriding: max_iters = 2000``), the last one printed the run's. Its
  loop trains ``iter_num`` 0 to ``max_iters`` inclusive (train.py: ``if iter_num > max_iters: break`` after
  the step), so ``iter 5000`` of 5000 is its last step: the run is done at its total.
* modded-nanogpt ``step:N/M [train_loss:…] [val_loss:…] train_time:…ms step_avg:…ms`` (forks: a padded
  step, `` | `` between pairs, ``train_time`` in seconds).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...stats.events import (
    EvalResult,
    Event,
    RunInfo,
    StageEnd,
    TrainingPause,
    TrainStep,
)
from .fields import NUM, Kind, finite, integer, number
from .pipeline import EmitLines
from .prefix import LineTimes
from .shapes import LLMC_MFU_NOTE, NANOGPT_LOSS_NOTE, NANOGPT_MFU_NOTE, UsualLine

Emit = Callable[[], list[Event]]

_NUM = NUM
_ITER_HEAD = re.compile(r"iter (\d{1,12}): ")
_SEGMENT = re.compile(r"([a-z][\w/ ]{0,30}?)\s+(\S+)")
_MS_VALUE = re.compile(rf"({_NUM})ms(?:/step)?")
_PCT_VALUE = re.compile(rf"({_NUM})%")
_NANOGPT_EVAL = re.compile(rf"step (\d{{1,12}}): train loss\s+({_NUM}), val loss\s+({_NUM})")
_TOKENS_PER_ITER = re.compile(r"tokens per iteration will be: ([\d,]+)")
_MAX_ITERS = re.compile(r"(?:Overriding: )?max_iters = (\d{1,12})(?:\s+#.*)?")
# llm.c's CUDA step line and its PyTorch reference's (no z-scores, no MFU): named alike so one
# reader serves both. llm.c right-aligns its figures (``%7.6f``, ``%6.4f``): a diverged run
# prints ``loss     nan (+nanz)| norm   -nan (-nanz)``, so every gap is ``\s+``.
_LLMC = re.compile(
    rf"step\s+(?P<step>\d{{1,12}})/(?P<total>\d{{1,12}})\s+\|\s+loss\s+(?P<loss>{_NUM})\s*\([^)]{{0,20}}z\)"
    rf"\s*\|\s*norm\s+(?P<norm>{_NUM})\s*\([^)]{{0,20}}z\)\s*\|\s*lr\s+(?P<lr>{_NUM})\s+\|\s+(?P<ms>{_NUM})\s+ms"
    rf"\s+\|\s+(?P<mfu>{_NUM})%\s+bf16 MFU\s+\|\s+(?P<tok_s>{_NUM})\s+tok/s"
)
_LLMC_TORCH = re.compile(
    rf"step\s+(?P<step>\d{{1,12}})/(?P<total>\d{{1,12}})\s+\|\s+train loss\s+(?P<loss>{_NUM})\s+\|\s+norm\s+(?P<norm>{_NUM})"
    rf"\s+\|\s+lr\s+(?P<lr>{_NUM})\s+\|\s+\((?P<ms>{_NUM})\s+ms\s+\|\s+(?P<tok_s>{_NUM})\s+tok/s\)"
)
# llm.c's first train_gpt2cu (April 2024): ``step 3: train loss 4.345248 (took 140.415392 ms)``.
_LLMC_EARLY = re.compile(rf"step (\d{{1,12}}): train loss\s+({_NUM}) \(took ({_NUM}) ms\)")
_LLMC_VAL = re.compile(rf"val loss\s+({_NUM})")
_HELLASWAG = re.compile(rf"HellaSwag: (\d+)/(\d+) = ({_NUM})")
_LLMC_LOGFILE = re.compile(
    rf"s:(\d{{1,12}})\s+(trl|tel|eval):\s*({_NUM})(?:\s+lr:\s*({_NUM}))?(?:\s+norm:\s*({_NUM}))?"
)
# modded-nanogpt and its forks: ``step:N/M`` then ``name:value`` pairs in any order and number
# (``train_loss``, ``val_loss``, ``val_bpb``, ``train_bpb``, ``train_time``, ``step_avg``, …),
# separated by one space or a padded run of them (``step:0/20000    val_loss:6.9469``), or by `` | ``
# after a padded step (``step:   0/3250 | val_loss:10.8258 | train_time:0.0s``).
_MODDED_HEAD = re.compile(r"step:\s{0,12}(\d{1,12})/(\d{1,12})(?=\s|$)")
_SPACED_PAIR = re.compile(r"(\w):\s+(?=[-\d.]|nan)")
# A figure in a unit the reader has no use for (``peak_vram:3840MB``): no figure, no cut line either.
_OTHER_UNIT = re.compile(r"\d[\d.]*[A-Za-z]{1,4}")
_MODDED_TIME = ("train_time", "step_avg")
_GLUED = re.compile(r"iter \d+: loss |step \d+: train loss |step\s+\d+/\d+ \| |step:\s*\d+/\d+ ")
_FRAGMENT_KEYS = (", time ", "ms, mfu", "% bf16 MFU", " tok/s", "z)| norm", "train_time:")


__all__ = ["LLMC_MFU_NOTE", "NANOGPT_LOSS_NOTE", "NANOGPT_MFU_NOTE", "NanogptParser"]


class NanogptParser(EmitLines):
    """Lines of nanoGPT, llm.c or modded-nanogpt in, step/eval events out.

    The trainers print no time; a launcher's or logger's prefix may (app/ingest/formats/prefix.py),
    and then the events carry it. Their usual step lines (registry.py) are read by the pipeline.
    """

    glued = _GLUED
    glued_needles = ("tep", "iter ")

    def __init__(self, name: str = "nanogpt", usual: tuple[UsualLine, ...] = ()) -> None:
        self.name = name
        self._times = LineTimes()
        self._start_emitting(usual)
        self._eval_steps: list[int] = []  # the latest steps of ``step N: train loss …`` lines (their cadence)

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """What a piece of a nanoGPT, llm.c or modded-nanogpt line is."""
        if text.startswith("iter "):
            return _nanogpt_step(text)
        if text.startswith("step"):
            kind, emit = _step_line(text)
            evaluation = _NANOGPT_EVAL.fullmatch(text) if emit is not None and ": train loss" in text[:24] else None
            if evaluation is None or emit is None:
                return kind, emit
            return kind, self._evaluation(int(evaluation.group(1)), emit)
        if len(text) < 5 and ("iter ".startswith(text) or "step ".startswith(text)):
            return Kind.PARTIAL, None  # a wrap right inside the first word
        if text.startswith(("Overriding: max_iters", "max_iters")):
            planned = _MAX_ITERS.fullmatch(text)
            if planned is not None and int(planned.group(1)) > 0:
                return Kind.FULL, self._planned(int(planned.group(1)))
        return _other_line(text)

    def _planned(self, total: int) -> Emit:
        """The configurator's ``max_iters``: the total of the steps read after it (pipeline.py's ``planned_total``)."""

        def read() -> list[Event]:
            self.planned_total = total
            return [RunInfo(at=None, total_steps=total)]

        return read

    def _evaluation(self, step: int, emit: Emit) -> Emit:
        """An evaluation line's events, and the run's end where it is the lecture script's last.

        Karpathy's lecture scripts (``gpt.py``, ``bigram.py`` and the nanoGPT-style scripts after them) evaluate
        ``if iter % eval_interval == 0 or iter == max_iters - 1``: an evaluation one step short of the cadence's next
        (``step 4999`` after 0, 500, …, 4500) is the loop's last iteration, and the script then generates its sample
        and exits. nanoGPT's train.py evaluates on the cadence alone, so it never prints one."""

        def read() -> list[Event]:
            events = emit()
            steps = self._eval_steps
            if steps and step == steps[-1]:
                return events  # (the same line read again)
            cadence = steps[-1] - steps[-2] if len(steps) >= 3 and steps[-1] - steps[-2] == steps[-2] - steps[-3] else 0
            steps.append(step)
            del steps[:-3]
            if cadence > 1 and step == steps[-2] + cadence - 1:
                events.append(StageEnd(at=None, said=True, summary=(
                    f"evaluated at step {step}, one short of every {cadence}: the loop's last iteration")))
            return events

        return read


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
        loss_note=NANOGPT_LOSS_NOTE,
        lr=finite(lr),
        step_seconds=step_ms / 1000 if step_ms is not None and step_ms > 0 else None,
        mfu=finite(mfu),
        mfu_note=mfu_note,
    )
    return (Kind.OPEN if last_open else Kind.FULL), lambda: [event]


def _step_line(text: str) -> tuple[Kind, Emit | None]:
    if text.startswith("step:"):
        return _modded_line(text)
    if text.startswith("step ") and ": train loss" in text[:24]:
        if text.endswith(" ms)"):
            early = _LLMC_EARLY.fullmatch(text)
            if early is not None:
                took = number(early.group(3))
                step_event = TrainStep(
                    at=None,
                    stage="train",
                    step=int(early.group(1)),
                    loss=number(early.group(2)),
                    loss_note="this step's mean",
                    step_seconds=took / 1000 if took else None,
                )
                return Kind.FULL, lambda: [step_event]
        m = _NANOGPT_EVAL.fullmatch(text)
        if m is None:
            return Kind.PARTIAL, None
        step_number = int(m.group(1))
        evals: list[Event] = [
            EvalResult(at=None, name="train_loss", value=number(m.group(2)), step=step_number),
            EvalResult(at=None, name="val_loss", value=number(m.group(3)), step=step_number),
        ]
        return Kind.OPEN, lambda: evals
    if re.match(r"step\s+\d+/\d+ \| ", text) is None:
        return (Kind.PARTIAL, None) if re.match(r"step\s+\d", text) else (Kind.OTHER, None)
    m = _LLMC.fullmatch(text) or _LLMC_TORCH.fullmatch(text)
    if m is not None:
        llmc = _llmc_step(m)
        return Kind.FULL, lambda: [llmc]
    return Kind.PARTIAL, None


def _modded_line(text: str) -> tuple[Kind, Emit | None]:
    """``step:N/M`` and its ``name:value`` pairs: a training step, or an evaluation and its figures.

    Whole once it holds ``train_time:…ms``; ending in a bare number (a fork's ``train_bpb:2.0053``
    after it), a wrap may still continue it: OPEN. An evaluation line is also the run's position
    (its step and train_time), so the last validation of a run that stops early moves the step.
    """
    head = _MODDED_HEAD.match(text)
    if head is None:
        return Kind.PARTIAL, None
    tail = text[head.end() :]
    if ": " in tail:
        tail = _SPACED_PAIR.sub(r"\1:", tail)  # ``val_loss: 5.4178`` (a fork's spacing)
    pairs: dict[str, tuple[float | None, str | None]] = {}
    # whitespace-separated ``name:value`` tokens (a split: this runs on every step line)
    for token in tail.split():
        if token == "|":
            continue  # a fork's separator between pairs
        name, sep, value = token.partition(":")
        unit = None
        if value.endswith("ms"):
            value, unit = value[:-2], "ms"
        elif value.endswith("s"):
            value, unit = value[:-1], "s"  # forms that time in seconds (``train_time:5.418s``)
        elif value.endswith("%"):
            value, unit = value[:-1], "%"
        figure = number(value)
        if figure is None and sep and name and unit is None and (value.isidentifier() or _OTHER_UNIT.fullmatch(value)):
            continue  # a fork's word (``handoff:keep``) or a figure in another unit (``peak_vram:3840MB``)
        if not sep or not name or figure is None:
            return Kind.PARTIAL, None  # a wrap cut the line, or it is no record (yet)
        if unit == "s":
            figure, unit = figure * 1000, "ms"
        pairs.setdefault(name, (figure, unit))
    if "train_time" not in pairs and pairs.get("t", (None, None))[1] == "ms":
        # A fork's short keys (``step:1000/10000 loss:3.3120 t:91478ms avg:91.5ms``): the same figures.
        for short, full in (("t", "train_time"), ("avg", "step_avg"), ("loss", "train_loss")):
            if short in pairs and full not in pairs:
                pairs[full] = pairs.pop(short)
    if "train_time" not in pairs:
        return Kind.PARTIAL, None
    step_number, total = int(head.group(1)), int(head.group(2))
    train_ms, _ = pairs["train_time"]
    avg_ms = finite(pairs.get("step_avg", (None, None))[0])
    events: list[Event] = []
    figures = {k: v for k, (v, _) in pairs.items() if k not in _MODDED_TIME}
    if any(k.startswith("val_") for k in figures):
        events.extend(EvalResult(at=None, name=k, value=v, step=step_number) for k, v in figures.items())
        figures = {}
    events.insert(
        0,
        TrainStep(
            at=None,
            stage="train",
            step=step_number,
            total_steps=total,
            loss=figures.pop("train_loss", None),
            loss_note="this step's",
            elapsed_seconds=train_ms / 1000 if train_ms is not None and train_ms >= 0 else None,
            elapsed_training_only=True,  # (its ``train_time`` is stopped while it evaluates)
            step_seconds=avg_ms / 1000 if avg_ms is not None and avg_ms > 0 else None,
            figures=tuple((k, v) for k, v in figures.items() if v is not None and finite(v) is not None),
        ),
    )
    kind = Kind.OPEN if tail.rstrip()[-1:].isdigit() else Kind.FULL
    return kind, lambda: events


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
        if text.startswith("stopping_early:"):
            return Kind.FULL, None  # a fork's wall-clock cap: the final validation and summary follow
        if text.startswith("saving checkpoint to "):
            return Kind.FULL, lambda: [TrainingPause(at=None, reason="checkpoint")]
        if text.startswith("s:"):
            return _llmc_logfile(text)
    elif first == "v" and text.startswith("val loss "):
        m = _LLMC_VAL.fullmatch(text)
        if m is not None:
            val = EvalResult(at=None, name="val_loss", value=number(m.group(1)))
            return Kind.OPEN, lambda: [val]
    elif first in ("H", "e"):
        if text.startswith("HellaSwag: "):
            m = _HELLASWAG.fullmatch(text)
            if m is not None:
                hs = EvalResult(at=None, name="hellaswag", value=number(m.group(3)))
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
        events = [EvalResult(at=None, name=name, value=value, step=step_number)]
    return Kind.OPEN, lambda: events
