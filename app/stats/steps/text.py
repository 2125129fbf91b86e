"""The text a person reads about a step trainer: status line and details."""

from __future__ import annotations

import math
import statistics

from ... import text
from ...snapshot import State
from ..events import TrainStep
from ..tracker import WARMUP_SECONDS
from .rules import Stall
from .stage import (
    EXPLODED_FACTOR,
    AllReduce,
    Errors,
    Measure,
    RunFacts,
    Stage,
    diverged,
    finished,
    finite,
    no_timing,
    row_groups_per_step,
    step_seconds,
)

EVALS_SHOWN = 4

STAGE_LABELS = {"sft": "SFT ", "mid": "mid ", "rl": "RL "}


def details(
    stage: Stage, m: Measure, stall: Stall, eta: float | None, per_gpu: str, run: RunFacts, all_reduce: AllReduce | None
) -> list[str]:
    """The detail lines under the status, most telling first."""
    # One line per fact in the order a person reads them; split up, that order would scatter.
    lines: list[str] = []
    latest = stage.latest
    unit = "logged steps" if latest.logged else "steps"
    if m.tokens_per_hour is not None and m.steps_per_hour is not None:
        over = ("from the trainer's own time per step" if m.paced
                else f"over {text.minutes(m.observed_seconds)} min")
        lines.append(
            f"{text.compact(m.tokens_per_hour)} tok/h{per_gpu} · {text.compact(m.steps_per_hour)} {unit}/h ({over})"
        )
    elif m.steps_per_hour is not None:
        over = ("from the trainer's own time per step" if m.paced
                else f"over {text.minutes(m.observed_seconds)} min")
        lines.append(
            f"{text.compact(m.steps_per_hour)} {unit}/h ({over})"
            + ("" if latest.logged else " · tokens per step not printed")
        )
    elif finished(stage) or diverged(stage) or stall.stalled or stall.pause == "finishing":
        # A run that is over, finishing, stalled or whose loss is not a number is measured no further: no warm-up line.
        if finished(stage) and stage.lines == 0:
            lines.append("no rate: the log holds the run's end summary, no step line")
        elif finished(stage):
            lines.append(f"no rate: {stage.lines} {unit} over less than {text.minutes(WARMUP_SECONDS)} min of its own time")
    elif no_timing(stage, m):
        lines.append(f"no timing in this log ({stage.lines} {unit}, no durations or times): measured as lines arrive")
    else:
        lines.append(m.warmup_view().text or f"measuring… ({stage.lines} {unit} so far)")
    if stage.finished is not None:
        lines.append(f"Finished: {clip(stage.finished, 90)}")
    elif finished(stage):
        lines.append(f"Finished: reached its last step ({position(latest)})")
    elif stall.stalled and stall.since is not None and stall.limit is not None:
        # After the last epoch's bar the wait allowed for its evaluation and save is the limit.
        limit = stall.allowed if stall.pause == "finishing" and stall.allowed is not None else stall.limit
        lines.append(f"Stalled: no step for {text.exact_duration(stall.since)} (limit {text.exact_duration(limit)})")
    elif stall.pause == "finishing" and stall.since is not None and stall.allowed is not None:
        lines.append(
            "Finishing: the last epoch's steps are done, the trainer's end line not printed yet (it evaluates, "
            f"saves and sums up) · {text.duration(stall.since)} since the last step, a stall after "
            f"{text.duration(stall.allowed)}"
        )
    elif stall.pause is not None and stall.since is not None and not diverged(stage):
        lines.append(f"Paused: {stall.pause} ({text.duration(stall.since)} since the last step)")
    elif stall.first_line is not None and stall.limit is not None and not finished(stage):
        first_step, stride = stall.first_line
        per_step = seconds_text(latest.step_seconds or 0.0)
        why = (f"step {first_step} suggests a line every {stride} steps of {per_step}" if stride is not None
               else f"step {first_step} does not say how many steps of {per_step} the log prints between lines")
        lines.append(f"Stall limit {text.duration(stall.limit)} until a second step line: {why}")
    lines.append(stage_line(stage))
    if stage.loss is not None:
        loss = f"{stage.loss:.4f}" if math.isfinite(stage.loss) else f"{stage.loss}"
        note = f"{stage.loss_note}, as printed" if stage.loss_note else "as printed"
        extra = ""
        if stage.grad_norm is not None:
            extra = f" · grad norm {stage.grad_norm:.4g}"
        lines.append(f"Loss {loss} ({note}){extra}")
        if not math.isfinite(stage.loss):
            since = f" since step {stage.diverged_step}" if stage.diverged_step is not None and not latest.logged else ""
            lines.append(f"Loss not a number{since}")
        elif stage.exploded:
            since = f" since step {stage.diverged_step}" if stage.diverged_step is not None and not latest.logged else ""
            early = statistics.median(stage.early_losses)
            lines.append(f"Loss exploded{since}: {EXPLODED_FACTOR:.0f}× or more its early {early:.4g}")
    elif latest.loss is None and latest.loss_note and latest.loss_note.startswith("loss is "):
        lines.append(f"No loss here: {latest.loss_note}")  # a placeholder printed instead (torchtitan's pipeline)
    for name in stage.eval_diverged:
        value, step = stage.evals.get(name, (None, None))
        at = f" at step {step}" if step is not None and not latest.logged else ""
        lines.append(f"{name} is {value}{at}, not a number: the run has diverged")
    if latest.lr_multiplier is not None:
        lines.append(f"LR × {latest.lr_multiplier:.2f} (multiplier)")
    elif stage.lr is not None:
        lines.append(f"LR {stage.lr:.3g}")
    speed = speed_parts(stage, run)
    if speed:
        lines.append(" · ".join(speed))
    finishing = stall.pause == "finishing"  # the last epoch's bar is full: its end is not ahead
    if not finished(stage) and not finishing and (eta is not None or latest.trainer_eta_seconds is not None):
        parts = []
        if eta is not None:
            parts.append(f"{text.duration(eta)} (tokwatch)")
        if latest.trainer_eta_seconds is not None:
            parts.append(f"{text.duration(latest.trainer_eta_seconds)} (trainer)")
        # A bar that counts an epoch's batches (Lightning, NeMo, llama-recipes) times that epoch only.
        lines.append(("ETA " if latest.ends_at_total else "Epoch ends in ") + " · ".join(parts))
    evals = latest_evals(stage)
    if evals:
        lines.append("Eval " + " · ".join(f"{name} {figure(value)}" for name, value, _ in evals)
                     + ("" if latest.logged else eval_where(evals)))  # a logged count is no step
    data = data_line(stage)
    if data:
        lines.append(data)
    lines.extend(figure_lines(stage.figures))
    lines.extend(all_reduce_lines(all_reduce))
    lines.extend(run_details(run))
    return lines


def all_reduce_lines(all_reduce: AllReduce | None) -> list[str]:
    """The all-reduce counts and the last error, for a run with rounds."""
    if all_reduce is None:
        return []
    ar = all_reduce
    peers = f" · last group {ar.peers} peers" if ar.peers is not None else ""
    lines = [f"All-reduce: {ar.succeeded} ok · {ar.failed} failed{peers}"]
    if ar.last_error is not None and ar.last_ok is False:
        lines.append(f"Last all-reduce error: {clip(ar.last_error, 90)}")
    return lines


def error_lines(errors: Errors | None) -> list[str]:
    """The trainer's other errors: how many, and the last one."""
    if errors is None or errors.last is None:
        return []
    return [f"Errors: {errors.count} · last: {clip(errors.last, 90)}"]


def speed_parts(stage: Stage, run: RunFacts) -> list[str]:
    latest = stage.latest
    parts: list[str] = []
    seconds = step_seconds(stage)
    if seconds is not None:
        parts.append(f"step {seconds_text(seconds)}")
    rate = finite(latest.tokens_per_second)
    if rate is not None and rate >= 0:
        parts.append(f"{text.compact(rate)} tok/s{'/GPU' if latest.per_device else ''}")
    if latest.mfu is not None:
        parts.append(f"MFU {latest.mfu:.2f}%" + (f" ({latest.mfu_note})" if latest.mfu_note else ""))
    elif latest.mfu_note is not None:
        parts.append(f"MFU {latest.mfu_note}")
    elif run.peak_unknown and run.gpu_name is not None:
        parts.append("MFU unknown (no peak FLOPS for this GPU)")
    return parts


def run_details(run: RunFacts) -> list[str]:
    """The GPU and device count line, if the trainer printed them."""
    if run.gpu_name is None and run.device_count is None:
        return []
    parts = []
    if run.gpu_name is not None:
        peak = ""
        if run.peak_flops is not None:
            peak = f" · peak {text.compact(run.peak_flops / 1e12)} TFLOPS"
        elif run.peak_unknown:
            peak = " · peak FLOPS unknown to the trainer"
        parts.append(f"GPU {clip(run.gpu_name, 60)}{peak}")
    if run.device_count is not None:
        parts.append(f"{run.device_count} devices")
    return [" · ".join(parts)]


def position(step: TrainStep, epoch: float | None = None) -> str:
    """Where the run is: ``step 383/29000``, ``outer 42 · step 2``, or the epoch of a log of
    dicts without step numbers (``epoch 0.44``)."""
    if step.logged:
        epoch = step.epoch if step.epoch is not None else epoch
        return f"epoch {epoch:g}" if epoch is not None else f"{step.step} logged steps"
    if step.outer_step is not None:
        return f"outer {step.outer_step} · step {step.step}"
    if step.total_steps is not None:
        return f"step {step.step}/{step.total_steps}"
    return f"step {step.step}"


def progress(stage: Stage) -> str:
    return STAGE_LABELS.get(stage.latest.stage, "") + position(stage.latest, stage.epoch)


def stage_line(stage: Stage) -> str:
    latest = stage.latest
    where = position(latest, stage.epoch)
    if latest.logged:
        where += f" ({latest.step} logged steps: the log prints no step number)"
    elif latest.progress_percent is not None:
        where += f" ({latest.progress_percent:.2f}%)"
    elif latest.total_steps:
        where += f" ({100 * latest.step / latest.total_steps:.1f}%)"
    return f"Stage {stage.name} · {where}"


def data_line(stage: Stage) -> str | None:
    latest = stage.latest
    if latest.parquet_index is not None and latest.row_group is not None:
        line = f"Data epoch {latest.epoch:g} · pq {latest.parquet_index} · rg {latest.row_group}"
        per_step = row_groups_per_step(stage)
        if per_step is not None:
            line += f" (≈{per_step:.3g} row groups/step)"
        return line
    epoch = latest.epoch if latest.epoch is not None else stage.epoch
    if epoch is not None:
        return f"Data epoch {epoch:g}"
    return None


def latest_evals(stage: Stage) -> list[tuple[str, float | None, int | None]]:
    """The figures of the latest evaluation step, in the order printed (a few at most)."""
    items = [(name, value, step) for name, (value, step) in stage.evals.items()]
    steps = [step for _, _, step in items if step is not None]
    if steps:
        newest = max(steps)
        items = [item for item in items if item[2] == newest] + [item for item in items if item[2] is None]
    return items[:EVALS_SHOWN]


def eval_where(evals: list[tuple[str, float | None, int | None]]) -> str:
    steps = {step for _, _, step in evals}
    if len(steps) == 1:
        (step,) = steps
        return f" (step {step})" if step is not None else ""
    return ""


def figure(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:.4f}" if abs(value) < 100 else f"{value:.1f}"


def figure_lines(figures: dict[str, float]) -> list[str]:
    parts = []
    if "reward" in figures:
        parts.append(f"reward {figures['reward']:.4f}")
    if "sequence_length" in figures:
        parts.append(f"mean sequence {figures['sequence_length']:.1f} tokens")
    if "memory_gib" in figures:
        memory = f"memory {figures['memory_gib']:.2f} GiB"
        if "memory_percent" in figures:
            memory += f" ({figures['memory_percent']:.2f}%)"
        parts.append(memory)
    if "tflops" in figures:
        parts.append(f"{figures['tflops']:.2f} TFLOPS")
    if "samples_per_second" in figures:
        parts.append(f"{figures['samples_per_second']:.1f} samples/s")
    if not parts:
        return []
    line = " · ".join(parts)
    return [line[:1].upper() + line[1:]]


def recognised(stage: Stage) -> str:
    """Which figures a log read by the generic reader gave: ``generic: step, loss, lr, step time``."""
    latest = stage.latest
    have = [
        ("step", True),
        ("total", latest.total_steps is not None),
        ("epoch", stage.epoch is not None),
        ("loss", stage.loss is not None),
        ("lr", stage.lr is not None),
        ("grad norm", stage.grad_norm is not None),
        ("step time", latest.step_seconds is not None),
        ("elapsed", latest.elapsed_seconds is not None),
        ("tok/s", latest.tokens_per_second is not None),
        ("tokens", latest.tokens is not None),
        ("ETA", latest.trainer_eta_seconds is not None),
        ("eval", bool(stage.evals)),
    ]
    return "generic: " + ", ".join(name for name, present in have if present)


def clip(value: str, length: int) -> str:
    return value if len(value) <= length else value[: length - 1] + "…"


def seconds_text(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    return text.duration(seconds)


def short(seconds: float) -> str:
    """A status-line duration: 45s, 12m, 2h05m, 3d."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d"


def status(stage: Stage, m: Measure, stall: Stall, restarting: bool, per_gpu: str) -> tuple[State, str]:
    """The state and the one status line: where the run is and how fast it goes.

    A non-finite loss is a divergence whatever else holds; a run that reached its last step (or
    printed its end summary) is done, never stalled; a log of dicts without step numbers shows
    its epoch and loss; a log with no timing at all says so rather than measuring forever.
    """
    where = progress(stage)
    if diverged(stage):
        return "diverged", f"{where} · diverged"
    if finished(stage):
        return "done", f"{STAGE_LABELS.get(stage.name, '')}done · {position(stage.latest, stage.epoch)}"
    if restarting:
        return "working", f"{where} · restarting"
    if stall.stalled:
        return "stalled", f"{where} · stalled {short(stall.since or 0.0)}"
    if stall.pause == "finishing":
        return ("training" if m.steps_per_hour is not None else "measuring"), f"{where} · finishing"
    if stage.latest.logged:
        loss = f" · loss {stage.loss:.3g}" if stage.loss is not None else " · …"
        return ("training" if m.steps_per_hour is not None else "measuring"), where + loss
    if m.tokens_per_hour is not None:
        unit = "tok/h/GPU" if per_gpu else "tok/h"
        return "training", f"{where} · {text.compact(m.tokens_per_hour)} {unit}"
    if m.steps_per_hour is not None:
        return "training", f"{where} · {text.compact(m.steps_per_hour)} steps/h"
    if no_timing(stage, m):
        return "measuring", f"{where} · no timing"
    return "measuring", f"{where} · …"
