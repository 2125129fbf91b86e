"""karpathy/nanochat: base_train, mid_train, chat_sft (old and new), chat_rl, base_eval.

Templates and their history: research note ``other-log-formats.md`` §1 (HEAD ``92d63d4``).
nanochat prints with a bare ``print0``: no timestamps, so events carry a time only when a
launcher's or logger's prefix gave the line one (app/ingest/formats/prefix.py).

A speedrun log runs the stages one after another, each restarting its step:

* ``step 00383/29000 (1.32%) | loss: … | … | total time: …m`` — base_train (has ``/total``);
* ``step 00012 (1.85%) | loss: … | … | total time: …m`` — chat_sft since 2026‑01‑31, or the
  deleted mid_train (no ``epoch:`` field before 2026‑01‑13: called ``mid``, else ``sft``);
* ``Step 00012/00701 | Training loss: …| lrm: …| num_tokens: …`` — chat_sft before 2026‑01‑31;
* ``Step 1/467 | Average reward: … | Average sequence length: …`` — chat_rl.

The base/SFT line is read as ``key: value`` segments, so inserted fields (grad norm, eta,
epoch, ``pq:``/``rg:``) and the ``mfu:`` → ``bf16_mfu:`` rename need no new regex. It counts
as whole only once its ``total time: …m`` segment is whole: a wrap that cut it is re-joined
with the next line, or dropped and counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ...stats.events import (
    EvalResult,
    Event,
    RunInfo,
    StageEnd,
    TrainingPause,
    TrainStep,
)
from .fields import NUM, Kind, finite, integer, number, split_glued
from .pipeline import EmitLines
from .prefix import LineTimes
from .shapes import MFU_ZERO_NOTE, NANOCHAT_LOSS_NOTE, UsualLine

__all__ = ["MFU_ZERO_NOTE", "NanochatParser", "eval_name"]

Emit = Callable[[], list[Event]]

_STEP_HEAD = re.compile(r"step (\d{1,9})(?:/(\d{1,9}))? \(([\d.]+)%\) \| ")
_BIG_STEP_HEAD = re.compile(r"Step (\d{1,9})(?:/(\d{1,9}))? \| ")
_GLUED = re.compile(r"step \d+(?:/\d+)? \(\d|Step \d+(?:/\d+)? \| ")
_MINUTES = re.compile(r"([\d.]+)m")
_MS = re.compile(r"([\d.]+)ms")
_EPOCH = re.compile(r"(\d+)(?: pq: (\d+) rg: (\d+))?")
_NUM = NUM
_EXAMPLE = re.compile(
    rf"Example step (\d+) \| Pass (\d+) \| loss: ({_NUM}) \| Average reward: ({_NUM})"
)
_REWARD = re.compile(rf"Average reward: ({_NUM})(?: \| Average sequence length: ({_NUM}))?")
_LEGACY_SFT = re.compile(rf"Training loss: ({_NUM}) ?\| lrm: ({_NUM}) ?\| num_tokens: ([\d,]+)")
_EVAL_PAIR = re.compile(rf"([A-Za-z][\w@ ./-]{{0,60}}): ({_NUM})")
_GPU = re.compile(r"GPU: (.{1,200}) \| Peak FLOPS \(BF16\): (\S+)")
_SEQUENCES = re.compile(r"Total sequences per step: ([\d,]+)")
_TOTAL_TIME = re.compile(r"Total training time: ([\d.]+)m")
# base_eval's task line, printed in two parts: the head, then (when the task is done) its
# figures. Later versions insert fields before the time (``| evaluated: 10042 | skipped: 0``).
_EVAL_HEAD = re.compile(r"Evaluating: (\S{1,100}) \(\d+-shot, type: [\w ]{1,40}\)\.\.\. ?")
_BASE_EVAL = re.compile(
    r"accuracy: ([\d.]+) \| centered: ([-\d.]+)(?: \| [a-z_ ]{1,30}: [\w.]{1,20}){0,6} \| time: ([\d.]+)s"
)
# base_eval's end: it wrote its results (``Results written to: …csv``); versions before 2026
# print the csv instead, whose last row is ``CORE , , 0.221946``.
_RESULTS_WRITTEN = re.compile(r"Results written to: \S.{0,400}")
_CORE_ROW = re.compile(rf"CORE\s*,\s*,\s*({_NUM})\s*")
_BPB = re.compile(rf"(train|val) bpb: ({_NUM})")
_CORE = re.compile(rf"CORE metric: ({_NUM})")
# base_train's plan: ``Calculated number of iterations from target data:param ratio: 615,173``
# (or ``… from target FLOPs: …``, ``Using user-provided number of iterations: …``).
_ITERATIONS = re.compile(r"(?:Calculated number of iterations from [^:]{1,80}|Using user-provided number of iterations)"
                         r"(?::[^:]{0,40})?: ([\d,]+)")
_MIN_BPB = re.compile(rf"Minimum validation bpb: ({_NUM})")
_TASK = re.compile(r"  ([A-Za-z][\w-]{0,40}): ([\d.]+)%")
# chat_eval: ``ARC-Easy accuracy: 64.31%`` per task, then (all tasks done) ``ChatCORE metric: 0.2412``, its last line.
_CHAT_TASK = re.compile(r"([A-Za-z][\w-]{0,40}) accuracy: ([\d.]+)%")
_CHATCORE = re.compile(rf"ChatCORE metric: ({_NUM})")
# Keys of the step line: a piece holding them but not starting like a record is a torn tail.
# A step line whose figures are whole up to the MFU, and nothing after it.
_CUT_BEFORE_EPOCH = re.compile(r" \| dt: [\d.]+ms \| tok/sec: [\d,]+ \| (?:bf16_)?mfu: -?\d+\.\d\d$")
_STEP_KEYS = ("lrm: ", "dt: ", "tok/sec: ", "total time: ", "mfu: ", "loss: ", "eta: ")

_EVAL_NAMES = {
    "validation bpb": "val_bpb",
    "validation loss": "val_loss",
    "core metric": "core",
    "chatcore": "chatcore",
    "chatcore_cat": "chatcore_cat",
}


def _unfinished_eval(text: str) -> list[str]:
    """A task's head with something else glued after it (a traceback, a warning: the task never
    printed its figures): the head says an evaluation was under way, the rest is a line of its own."""
    m = _EVAL_HEAD.match(text)
    if m is None or m.end() == len(text) or text.startswith("accuracy: ", m.end()):
        return [text]
    return [text[: m.end()].rstrip(), text[m.end() :]]


def eval_name(label: str) -> str:
    """A stable key for an evaluation label: ``Validation bpb`` → ``val_bpb``."""
    key = label.strip().lower()
    return _EVAL_NAMES.get(key, key.replace(" ", "_"))


class NanochatParser(EmitLines):
    """Lines of any nanochat script in, step/eval/run events out (all undated)."""

    name = "nanochat"

    def __init__(self, usual: tuple[UsualLine, ...] = ()) -> None:
        self._times = LineTimes()
        self._start_emitting(usual)
        self._rl_sequences: int | None = None

    def pieces(self, part: str) -> Iterable[str]:
        """Two records run into one line, and an evaluation's head with something else glued after it."""
        for text in split_glued(part, _GLUED) if ("tep " in part) else (part,):
            yield from _unfinished_eval(text) if text.startswith("Evaluating: ") else (text,)

    # --- reading one piece ------------------------------------------------------

    def classify(self, text: str) -> tuple[Kind, Emit | None]:
        """What a piece of a nanochat line is."""
        if text.startswith("step "):
            return self._step_line(text)
        if text.startswith("Step "):
            return self._big_step_line(text)
        if 0 < len(text) < 5 and ("step ".startswith(text) or "Step ".startswith(text)):
            return Kind.PARTIAL, None  # a wrap right inside the first word
        return self._other_line(text)

    def _step_line(self, text: str) -> tuple[Kind, Emit | None]:
        if text.endswith("|"):
            text = text.rstrip("| ")  # cut right after a separator
        head = _STEP_HEAD.match(text)
        if head is None:
            return (Kind.PARTIAL, None) if re.match(r"step (?:\d|$)", text) else (Kind.OTHER, None)
        fields: dict[str, str] = {}
        whole = False
        # The line ends with ``total time`` (before 2026-01-05) or ``eta``: until the eta segment
        # is whole a wrap may still continue it, so the record is OPEN (held one line).
        kind = Kind.OPEN
        for segment in text[head.end() :].split(" | "):
            key, sep, value = segment.partition(": ")
            if whole:
                # Past the whole total-time segment only eta matters; a newer version's
                # appended fields are ignored.
                if key == "eta" and _MINUTES.fullmatch(value):
                    fields["eta"] = value
                    kind = Kind.FULL
                break
            if not sep or key in fields:  # cut, or two unrelated pieces joined
                return Kind.PARTIAL, None
            fields[key] = value
            if key == "total time":
                if not _MINUTES.fullmatch(value):
                    return Kind.PARTIAL, None
                whole = True
        if not whole:
            if not _CUT_BEFORE_EPOCH.search(text):
                return Kind.PARTIAL, None
            # Cut before ``| epoch …`` (a terminal or a grep that kept the line's head): every
            # figure up to the MFU is whole, so it is a step line; held one line in case a wrap
            # continues it.
            kind = Kind.OPEN
        step_number = int(head.group(1))
        total = int(head.group(2)) if head.group(2) else None
        percent = number(head.group(3))
        event = self._train_step(step_number, total, percent, fields)
        if event is None:
            return Kind.PARTIAL, None
        return kind, lambda: [event]

    def _train_step(
        self, step_number: int, total: int | None, percent: float | None, fields: dict[str, str]
    ) -> TrainStep | None:
        def read(key: str, pattern: re.Pattern[str] | None = None) -> float | None:
            value = fields.get(key)
            if value is None:
                return None
            if pattern is not None:
                m = pattern.fullmatch(value)
                return number(m.group(1)) if m else None
            return number(value)

        loss = read("loss")
        dt_ms = read("dt", _MS)
        tok_s = read("tok/sec")
        mfu_key = "bf16_mfu" if "bf16_mfu" in fields else "mfu"
        mfu = read(mfu_key)
        # A known key whose value is unreadable: two pieces wrongly joined, never a figure.
        for key, value in (("loss", loss), ("dt", dt_ms), ("tok/sec", tok_s), (mfu_key, mfu)):
            if key in fields and value is None:
                return None
        epoch = parquet = row_group = None
        if "epoch" in fields:
            m = _EPOCH.fullmatch(fields["epoch"])
            if m is None:
                return None
            epoch = int(m.group(1))
            parquet = int(m.group(2)) if m.group(2) else None
            row_group = int(m.group(3)) if m.group(3) else None
        eta_minutes = read("eta", _MINUTES)
        mfu_note = None
        if mfu is not None and mfu == 0.0:
            mfu, mfu_note = None, MFU_ZERO_NOTE
        if total is not None:
            stage = "base"
        else:
            stage = "sft" if "epoch" in fields else "mid"
        return TrainStep(
            at=None,
            stage=stage,
            step=step_number,
            total_steps=total,
            progress_percent=finite(percent),
            loss=loss,
            loss_note=NANOCHAT_LOSS_NOTE,
            lr_multiplier=finite(read("lrm")),
            grad_norm=read("grad norm"),
            step_seconds=dt_ms / 1000 if dt_ms is not None and dt_ms > 0 else None,
            tokens_per_second=finite(tok_s),
            mfu=finite(mfu),
            mfu_note=mfu_note,
            trainer_eta_seconds=eta_minutes * 60 if eta_minutes is not None else None,
            epoch=epoch,
            parquet_index=parquet,
            row_group=row_group,
        )

    def _big_step_line(self, text: str) -> tuple[Kind, Emit | None]:
        head = _BIG_STEP_HEAD.match(text)
        if head is None:
            return (Kind.PARTIAL, None) if re.match(r"Step (?:\d|$)", text) else (Kind.OTHER, None)
        step_number = int(head.group(1))
        total = int(head.group(2)) if head.group(2) else None
        rest = text[head.end() :]
        if rest.startswith("Example step"):
            # One rollout pass inside an RL step: progress, no figure of its own.
            return (Kind.OPEN, None) if _EXAMPLE.fullmatch(rest) else (Kind.PARTIAL, None)
        if rest.startswith("Average reward"):
            m = _REWARD.fullmatch(rest)
            if m is None:
                return Kind.PARTIAL, None
            reward, length = number(m.group(1)), number(m.group(2))
            return Kind.OPEN, lambda: [self._rl_step(step_number, total, reward, length)]
        if rest.startswith("Training loss"):
            m = _LEGACY_SFT.fullmatch(rest)
            if m is None:
                return Kind.PARTIAL, None
            event = TrainStep(
                at=None,
                stage="sft",
                step=step_number,
                total_steps=total,
                loss=number(m.group(1)),
                loss_note="this step's",
                lr_multiplier=finite(number(m.group(2))),
                tokens=integer(m.group(3)),
            )
            return Kind.OPEN, lambda: [event]
        pairs: list[tuple[str, float | None]] = []
        for segment in re.split(r" \| |, ", rest):
            m = _EVAL_PAIR.fullmatch(segment)
            if m is None:
                return Kind.PARTIAL, None
            pairs.append((eval_name(m.group(1)), number(m.group(2))))
        events: list[Event] = [EvalResult(at=None, name=n, value=v, step=step_number) for n, v in pairs]
        return Kind.OPEN, lambda: events

    def _rl_step(self, step_number: int, total: int | None, reward: float | None, length: float | None) -> Event:
        figures: list[tuple[str, float]] = []
        if reward is not None and finite(reward) is not None:
            figures.append(("reward", reward))
        if length is not None and finite(length) is not None:
            figures.append(("sequence_length", length))
        tokens = None
        if self._rl_sequences is not None and length is not None and finite(length) is not None:
            # Sampled tokens: sequences per step × their mean length (both printed by chat_rl).
            tokens = self._rl_sequences * length
        return TrainStep(
            at=None, stage="rl", step=step_number, total_steps=total, tokens=tokens, figures=tuple(figures)
        )

    def _other_line(self, text: str) -> tuple[Kind, Emit | None]:
        head = text[:12]
        if head.startswith("GPU: "):
            m = _GPU.fullmatch(text)
            if m is None:
                return Kind.PARTIAL, None
            gpu, peak = m.group(1), number(m.group(2))
            info = RunInfo(
                at=None,
                gpu_name=gpu,
                peak_flops=finite(peak),
                peak_flops_unknown=peak is None or finite(peak) is None,
            )
            return Kind.OPEN, lambda: [info]
        if head.startswith("Total "):
            m = _SEQUENCES.fullmatch(text)
            if m is not None:
                sequences = integer(m.group(1))
                return Kind.OPEN, lambda: self._set_sequences(sequences)
            m = _TOTAL_TIME.fullmatch(text)
            if m is not None:
                return Kind.FULL, lambda: [StageEnd(at=None, summary=text)]
            return Kind.OTHER, None
        if head.startswith("Evaluating: "):
            m = _EVAL_HEAD.match(text)
            if m is None:
                return Kind.PARTIAL, None
            if m.end() >= len(text.rstrip()):
                # The head alone: a task under way (its figures follow when it is done).
                return Kind.FULL, lambda: [TrainingPause(at=None, reason="evaluation")]
            result = _BASE_EVAL.fullmatch(text, m.end())
            if result is None:
                return Kind.PARTIAL, None
            name, accuracy = m.group(1), number(result.group(1))
            return Kind.FULL, lambda: [
                TrainingPause(at=None, reason="evaluation"),
                EvalResult(at=None, name=name, value=accuracy),
            ]
        if head.startswith("Results writ") and _RESULTS_WRITTEN.fullmatch(text):
            return Kind.FULL, lambda: [StageEnd(at=None, summary=text, evaluation=True)]
        if head.startswith("CORE ") and not head.startswith("CORE metric"):
            row = _CORE_ROW.fullmatch(text)
            if row is not None:
                row_events: list[Event] = [EvalResult(at=None, name="core", value=number(row.group(1))),
                                           StageEnd(at=None, summary=f"CORE metric: {row.group(1)}", evaluation=True)]
                return Kind.FULL, lambda: row_events
        if head.startswith(("train bpb: ", "val bpb: ")):
            m = _BPB.fullmatch(text)
            if m is not None:
                bpb = EvalResult(at=None, name=f"{m.group(1)}_bpb", value=number(m.group(2)))
                return Kind.OPEN, lambda: [bpb]
        if head.startswith(("Calculated n", "Using user-p")):
            m = _ITERATIONS.fullmatch(text)
            if m is not None:
                planned = integer(m.group(1))
                return Kind.FULL, lambda: [RunInfo(at=None, total_steps=planned)] if planned else []
        if head.startswith("Minimum val"):
            m = _MIN_BPB.fullmatch(text)
            if m is not None:
                best = EvalResult(at=None, name="min_val_bpb", value=number(m.group(1)))
                return Kind.OPEN, lambda: [best]
        if head.startswith("ChatCORE met"):
            chat = _CHATCORE.fullmatch(text)
            if chat is not None:
                chat_events: list[Event] = [EvalResult(at=None, name="chatcore", value=number(chat.group(1))),
                                            StageEnd(at=None, summary=text, evaluation=True)]
                return Kind.FULL, lambda: chat_events
        if text.endswith("%") and " accuracy: " in text:
            task_line = _CHAT_TASK.fullmatch(text)
            if task_line is not None:
                chat_accuracy = EvalResult(at=None, name=task_line.group(1), value=number(task_line.group(2)))
                return Kind.FULL, lambda: [chat_accuracy]
        if head.startswith("CORE metric:"):
            m = _CORE.fullmatch(text)
            if m is not None:
                core = EvalResult(at=None, name="core", value=number(m.group(1)))
                return Kind.OPEN, lambda: [core]
        if head.startswith("  ") and text.endswith("%"):
            m = _TASK.fullmatch(text)
            if m is not None:
                task = EvalResult(at=None, name=m.group(1), value=number(m.group(2)))
                return Kind.FULL, lambda: [task]
        if " | " in text and any(key in text for key in _STEP_KEYS):
            return Kind.FRAGMENT, None
        return Kind.OTHER, None

    def _set_sequences(self, sequences: int | None) -> list[Event]:
        self._rl_sequences = sequences
        return []
