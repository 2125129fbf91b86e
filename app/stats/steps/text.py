"""The text a person reads about a step trainer: status line and details."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence

from ... import text
from ...snapshot import PeerView, RoundView, SwarmView
from ..events import (
    EPOCH_SECONDS,
    LOGGING_INTERVAL_SECONDS,
    LOSS_AFTER_LAST_STEP,
    MFU_AS_PRINTED,
    PERCENT_SUFFIX,
    RUN_SECONDS,
    TRAIN_PERPLEXITY,
    CollabProgress,
    TrainingPause,
    TrainStep,
)
from ..tracker import WARMUP_COUNT, WARMUP_SECONDS
from .health import Crash
from .rising import Rise
from .rules import FIRST_LINE_WAIT_SECONDS
from .stage import (
    EXPLODED_FACTOR,
    AllReduce,
    Errors,
    Measure,
    RunFacts,
    Stage,
    between_pauses,
    clock_step_seconds,
    count_noun,
    count_unit,
    counts_a_pass,
    data_epoch,
    epoch_average_seconds,
    eta_step_seconds,
    finite,
    header_epoch_after,
    lines_needed,
    printed_step_seconds,
    row_groups_per_step,
    scored_by,
    steady_step,
    step_seconds,
    timed_before_pass,
)
from .verdict import EarlyVerdict, Line, Status, Verdict

EVALS_SHOWN = 4

# The units a memory figure may carry after its printed name (``memory/max_mem M``, ``memory/Peak mem GB``).
_MEMORY_UNITS = frozenset({"K", "M", "G", "T", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"})

STAGE_LABELS = {"sft": "SFT ", "mid": "mid ", "rl": "RL "}
# The figures an evaluation job's summary leads with (nanochat's base_eval: bpb, then CORE).
_HEADLINE = re.compile(r"bpb|core|loss|perplexity|ppl")
# A family's main evaluation figure, after any prefix naming its task or split (detectron2's ``bbox_AP``, ``segm_AP``,
# YOLO's ``mAP50-95``, Keras' ``val_loss``, HF's ``eval_loss``): shown first, the others as printed.
_MAIN_EVAL = re.compile(r"(?:^|[/_ ])(?:ap|map|map50-95|map@?\.?5:\.?95|map_0\.5:0\.95)(?:\(\w\))?$"
                        r"|^(?:val|valid|validation|eval|test)[/_ ]loss$")


def details(
    v: Verdict, stage: Stage, per_gpu: str, run: RunFacts, all_reduce: AllReduce | None, notes: Sequence[str],
    grad_warning: str | None = None,
) -> list[str]:
    """The detail lines under the status, most telling first: only those the verdict shows.

    ``notes``: lines about the run's health the verdict does not weigh (fp16 skips, the
    collaboration), written under the verdict's lead line.
    """
    # One line per fact in the order a person reads them; split up, that order would scatter.
    m, stall, shows = v.measure, v.stall, v.shows
    top: list[str] = []
    if v.crash is not None and Line.CRASH in shows:
        top.append(crash_line(v.crash, stage.latest, stage.counts_epochs))
        if Line.REACHED_END in shows:
            # An evaluation, an export or an upload after the last step failed: the training itself got to
            # its end (whether its weights were saved, only the log's own lines say).
            top.append(f"Training had reached {position(stage.latest, stage.epoch, stage.counts_epochs)} before "
                       + ("it was stopped" if v.crash.stopped is not None else "the crash"))
    if v.broken is not None and Line.BROKEN in shows:
        top.append(v.broken.sentence)
    body: list[tuple[Line, str]] = []
    sentence = swarm_sentence(v)
    if sentence is not None:
        body.append((Line.SWARM, sentence))
    latest = stage.latest
    # A dict logged every N steps is no step; a line an epoch counts epochs.
    # (a log of the steps' rate alone: its rate is of steps, its records the rate's reports)
    unit = "steps" if latest.unnumbered else "logged records" if latest.logged else f"{count_noun(stage)}s"
    # The lines read, said as lines: a bar's redraw at 0/2020 and at 1/2020 are two lines of one step, and Keras'
    # epoch line of 370515/370515 one line of many steps (a dict, and an epoch a line, are one each).
    line_noun = "logged record" if latest.logged else ("epoch" if stage.counts_epochs else f"{count_noun(stage)} line")
    counted = f"{stage.lines} {line_noun}{'' if stage.lines == 1 else 's'}"
    # (its time per record as the record counts: a loop that logs once an epoch prints an epoch's time, a search a trial's)
    paced_per = unit[:-1] if not (latest.unnumbered or latest.logged) else "step"
    over = f"from the trainer's own time per {paced_per}" if m.paced else f"over {text.minutes(m.observed_seconds)} min"
    if m.evaluations:
        over += ", its evaluations' pauses included"  # (the run's pace; the step time beside it is a step's own)
    before = ""
    if Line.BEFORE_THE_CRASH in shows:  # the rate as it stood when it died
        before = "Before it stopped: " if v.crash is not None and v.crash.stopped is not None else "Before the crash: "
    if Line.RATE_TOKENS in shows and m.tokens_per_hour is not None and m.steps_per_hour is not None:
        body.append((Line.RATE_TOKENS, (f"{before}{text.compact(m.tokens_per_hour)} tok/h{per_gpu} · "
                                       f"{text.compact(m.steps_per_hour)} {unit}/h ({over})")))
    elif Line.RATE_STEPS in shows and m.steps_per_hour is not None:
        body.append((Line.RATE_STEPS, f"{before}{text.compact(m.steps_per_hour)} {unit}/h ({over})"
                                      + ("" if latest.logged else f" · tokens per {unit[:-1]} not printed")))
    elif Line.NO_RATE_SUMMARY_ONLY in shows:
        body.append((Line.NO_RATE_SUMMARY_ONLY, "no rate: the log holds the run's end summary, no step line"))
    elif Line.WHOLE_RUN_RATE in shows and latest.elapsed_seconds:
        clock = text.exact_duration(latest.elapsed_seconds)
        whole = text.compact(latest.step * 3600 / latest.elapsed_seconds)
        body.append((Line.WHOLE_RUN_RATE,
                     f"{latest.step:,} {unit} in {clock} of the trainer's own clock ({whole} {unit}/h over the whole run)"))
    elif Line.NO_RATE_NO_TIME in shows or Line.NO_RATE_TOO_FEW in shows:
        read = f"{stage.lines} {'logged' if latest.logged else count_noun(stage)} line{'s' if stage.lines != 1 else ''}"
        if Line.NO_RATE_NO_TIME in shows:
            body.append((Line.NO_RATE_NO_TIME, f"no rate: {no_time_read(stage)} for its {read}"))
        else:
            body.append((Line.NO_RATE_TOO_FEW, f"no rate: {read}, fewer than the {lines_needed(stage)} a rate needs"))
    elif Line.NO_STEP_YET in shows and stall.since is not None:
        clock = "on the trainer's own clock" if finite(latest.elapsed_seconds) else "since its first line"
        waited = f": {text.exact_duration(stall.since)} at step 0 {clock}" if stall.since >= 60 else " at step 0"
        body.append((Line.NO_STEP_YET, f"No step done yet{waited} (a stall after {text.duration(stall.limit or 0.0)})"))
    elif Line.NO_RATE_TOO_SHORT in shows:
        # (the lines measured: those before lines the log marks left out are not in the time said)
        measured = stage.lines - stage.lines_before_start
        spanned = f"the last {measured} of its {counted}, after lines left out," if (
            stage.measured_after_left_out and 0 < measured < stage.lines) else counted
        body.append((Line.NO_RATE_TOO_SHORT,
                     f"no rate: {spanned} over less than {text.minutes(WARMUP_SECONDS)} min of its own time"))
    elif Line.NO_TIMING in shows:
        # (a step's time worked out from the trainer's ETA is timing: no rate yet, the step's time said below)
        read = "no rate read" if worked_out_step(stage, m) is not None else "no timing read"
        body.append((Line.NO_TIMING, (f"{read} from this log ({counted}, {no_time_read(stage).rstrip(',')}): "
                                     "measured as lines arrive")))
    elif Line.WARMUP in shows:
        body.append((Line.WARMUP, m.warmup_view().text or f"measuring… ({counted} so far)"))
    ended = stage.finished if stage.finished is not None else stage.saved_message
    if Line.STOPPED_EARLY in shows and stage.stop_message is not None:
        body.append((Line.STOPPED_EARLY, f"Stopped early at {step_of(latest, stage.counts_epochs)}: {clip(stage.stop_message, 90)}"))
    elif Line.FINISHED_SUMMARY in shows and ended is not None:
        body.append((Line.FINISHED_SUMMARY, f"Finished: {clip(ended, 90)}"))
    elif Line.FINISHED_LAST_STEP in shows:
        # (the last of a plan counted from zero: ``epoch 49, the last of 50``, no parentheses in parentheses)
        where = (f"epoch {latest.step}, the last of {latest.last_of_epochs:,}"
                 if latest.last_of_epochs is not None and latest.total_steps is None and latest.epoch == latest.step
                 else position(latest, epochs=stage.counts_epochs))
        body.append((Line.FINISHED_LAST_STEP, f"Finished: reached its last step ({where})"))
    elif Line.STALLED in shows and stall.since is not None and stall.limit is not None:
        # After the last epoch's bar the wait allowed for its evaluation and save is the limit.
        limit = stall.allowed if stall.pause == "finishing" and stall.allowed is not None else stall.limit
        body.append((Line.STALLED, (f"Stalled: no {record_noun(stage)} for "
                                    f"{text.exact_duration(stall.since)} (limit {text.exact_duration(limit)})")))
    elif Line.FINISHING in shows and stall.since is not None and stall.allowed is not None:
        body.append((Line.FINISHING,
                     ("Finishing: the last epoch's steps are done, the trainer's end line not printed yet (what "
                     "it does meanwhile, an evaluation or a save, is not in the log yet) · "
                     f"{text.duration(stall.since)} since the last step, done after {text.duration(stall.allowed)}")))
    elif Line.EVALUATING in shows and stage.eval_pass is not None:
        body.append((Line.EVALUATING, evaluating_line(stage.eval_pass, stage, stall.since)))
    elif Line.PAUSED in shows and stall.since is not None:
        last = record_noun(stage)
        body.append((Line.PAUSED, f"Paused: {stall.pause} ({text.duration(stall.since)} since the last {last})"))
    elif Line.FIRST_LINE_LIMIT in shows and stall.first_line is not None and stall.limit is not None:
        first_step, stride = stall.first_line
        per_step = seconds_text(latest.step_seconds or 0.0)
        noun = count_noun(stage)
        # (a step the log prints rounded, as printed: ``step 31K``)
        first = latest.step_printed if latest.step_printed is not None and first_step == latest.step else f"{first_step}"
        why = (f"{noun} {first} suggests a line every {stride} {noun}s of {per_step}" if stride is not None
               else f"{noun} {first} does not say how many {noun}s of {per_step} the log prints between lines")
        body.append((Line.FIRST_LINE_LIMIT, f"Stall limit {text.duration(stall.limit)} until a second {noun} line: {why}"))
    body.append((Line.STAGE, stage_line(stage)))
    lines: list[str] = []
    if stage.loss is not None:
        loss = text.loss_figure(stage.loss) if math.isfinite(stage.loss) else f"{stage.loss}"
        note = f"{stage.loss_note}, as printed" if stage.loss_note else "as printed"
        extra = ""
        if stage.grad_norm is not None:
            extra = f" · grad norm {stage.grad_norm:.4g}"
        lines.append(f"Loss {loss} ({note}){extra}")
        if not math.isfinite(stage.loss):
            lines.append(f"Loss not a number{diverged_since(stage)}")
        elif stage.exploded:
            since = diverged_since(stage)
            early = statistics.median(stage.early_losses)
            lines.append(f"Loss exploded{since}: {EXPLODED_FACTOR:.0f}× or more its early {early:.4g}")
    elif latest.loss is None and latest.loss_note and latest.loss_note.startswith("loss is "):
        lines.append(f"No loss here: {latest.loss_note}")  # a placeholder printed instead (torchtitan's pipeline)
    elif TRAIN_PERPLEXITY in stage.figures:
        # (a record that prints its training perplexity and no loss: that figure, under its own name, never a loss)
        lines.append(f"Perplexity {figure(stage.figures[TRAIN_PERPLEXITY])} (training, as printed)")
    for name in stage.eval_diverged:
        value, step = stage.evals.get(name, (None, None))
        at = f" at {count_noun(stage)} {step}" if step is not None and not latest.logged else ""
        lines.append(f"{name} is {value}{at}, not a number: the run has diverged")
    for name, (value, step) in stage.evals.items():
        if name not in stage.eval_broken:
            continue
        at = f" at {count_noun(stage)} {step}" if step is not None and not latest.logged else ""
        lines.append(f"{name} is {value}{at}, not a number, but the training loss after it is finite: the evaluation "
                     "broke, not the run")
    if latest.lr_multiplier is not None:
        lines.append(f"LR × {latest.lr_multiplier:.2f} (multiplier)")
    elif stage.lr is not None:
        lines.append(f"LR {stage.lr:.3g}")
    speed = speed_parts(stage, run, v.measure)
    if speed:
        lines.append(" · ".join(speed))
    if Line.ETA in shows:
        eta, trainer_eta, parts = v.eta_seconds, v.trainer_eta_seconds, []
        if eta is not None:
            parts.append(f"{text.close_duration(eta)} (tokwatch)")
        if trainer_eta is not None:
            # (the epoch's bar counting its validation on: its time left is the epoch's, that validation included)
            whose = "trainer, its validation included" if stage.shared_bar is not None else "trainer"
            parts.append(f"{text.close_duration(trainer_eta)} ({whose})")
        elif latest.trainer_eta_seconds is not None and eta is not None:
            # Printed, but the steps left at the log's own pace say otherwise (rules.trainer_eta).
            parts.append(f"the trainer's {text.close_duration(latest.trainer_eta_seconds)} left out: it does not fit "
                         "the steps left at this pace")
        if latest.run_eta and not latest.ends_at_total and trainer_eta is not None:
            # mmengine's and mmcv's ``eta`` beside an epoch's count is the whole run's; tokwatch's is the epoch's.
            run_eta = f"ETA {text.close_duration(trainer_eta)} (trainer)"
            lines.append(run_eta + (f" · epoch ends in {text.close_duration(eta)} (tokwatch)" if eta is not None else ""))
        else:
            # A bar that counts an epoch's batches (Lightning, NeMo, llama-recipes) times that epoch only.
            lines.append(("ETA " if latest.ends_at_total else "Epoch ends in ") + " · ".join(parts))
    evals, more = shown_evals(latest_evals(stage))
    if evals:
        # (a logged count is no step, nor a count of an epoch's batches the evaluation followed)
        said = not (latest.logged or latest.epoch_steps is not None or not latest.ends_at_total)
        lines.append("Eval " + " · ".join(eval_figure(name, value) for name, value, _ in evals) + more_evals(more)
                     + (eval_where(evals, count_noun(stage),
                                   placed=all(name in stage.evals_placed for name, _, _ in evals)) if said else "")
                     + "".join(f" · {eval_figure(name, value)}"
                               + (eval_where([(name, value, step)], count_noun(stage),
                                             placed=name in stage.evals_placed) if said else "")
                               for name, value, step in older_bests(stage, evals)))
    data = data_line(stage)
    if data:
        lines.append(data)
    lines.extend(figure_lines(stage.figures))
    if Line.LOSS_SPIKES in shows:
        lines.append(spikes_line(stage))
    lines.extend(all_reduce_lines(all_reduce))
    lines.extend(run_details(run))
    warning = [grad_warning] if Line.GRAD_WARNING in shows and grad_warning is not None else []
    rise = stage.rise.rising() if Line.LOSS_RISING in shows else None
    if rise is not None:
        warning.append(rising_line(rise, stage))
    return top + _under_lead(body, v.lead, [*warning, *notes]) + lines


def _under_lead(body: list[tuple[Line, str]], lead: Line | None, notes: Sequence[str]) -> list[str]:
    """The body's lines with ``notes`` under its ``lead`` line (first when there is none)."""
    if not notes:
        return [line for _, line in body]
    at = next((i + 1 for i, (kind, _) in enumerate(body) if kind is lead), 0)
    lines = [line for _, line in body]
    return lines[:at] + list(notes) + lines[at:]


def early_details(
    v: EarlyVerdict, now: float, planned: int | None, pending: Sequence[tuple[str, float | None, int | None]],
    evaluated: str | None, run: RunFacts, all_reduce: AllReduce | None, errors: Errors | None,
    collaboration: str | None, skips: str | None, warning: str | None, evaluating: TrainingPause | None = None,
) -> list[str]:
    """The detail lines before the first training step: only those the verdict shows (``evaluating``: a validation
    pass under way, its batches counted, where no figure of one was read yet)."""
    shows = v.shows
    top: list[str] = []
    if v.crash is not None and Line.CRASH in shows:
        top.append(crash_line(v.crash, None))
    if v.broken is not None and Line.BROKEN in shows:
        top.append(v.broken.sentence)
    if Line.GRAD_WARNING in shows and warning is not None:
        top.append(warning)
    body: list[tuple[Line, str]] = []
    sentence = swarm_sentence(v)
    if sentence is not None:
        body.append((Line.SWARM, sentence))
    if Line.COLLABORATION in shows and collaboration is not None:
        body.append((Line.COLLABORATION, collaboration))
    if Line.WAITING in shows:
        waited = ""
        if v.since is not None and v.status in (Status.WAITING, Status.STALLED) and now - v.since >= 60:
            # Timed by the log's own dates from the line that said training starts.
            waited = (f": {text.exact_duration(now - v.since)} since training started "
                      f"(a stall after {text.duration(FIRST_LINE_WAIT_SECONDS)})")
        of = (f" of {planned:,} planned" if planned is not None
              else f" ({epochs_planned(run.total_epochs)})" if run.total_epochs is not None else "")
        body.append((Line.WAITING, f"waiting for the first training step{of}{waited}"))
    if Line.VALIDATION_ONLY in shows and not pending and evaluating is not None:
        after = "" if evaluating.epoch is None else f" after epoch {evaluating.epoch:g}"
        done, batches = evaluating.done or 0, evaluating.batches or 0
        body.append((Line.VALIDATION_ONLY, (f"Only validation lines so far, no training step: validating{after}, "
                                           f"{done:,}/{batches:,} batches")))
    elif Line.VALIDATION_ONLY in shows:
        shown, more = shown_evals(newest_evals(pending))
        figures = ", ".join(eval_figure(name, value) for name, value, _ in shown) + (f", + {more} more" if more else "")
        body.append((Line.VALIDATION_ONLY, f"Only {_held_out_set(pending)} lines so far, no training step: {figures}"))
    if Line.FINISHED_SUMMARY in shows and evaluated is not None:
        stopped = "Stopped early" if Line.STOPPED_EARLY in shows else "Finished"
        # (whole, up to two lines' worth: with no step line, the end's own words hold the run's only figures)
        body.append((Line.FINISHED_SUMMARY, f"{stopped}: {clip(evaluated, 160)}"))
    if Line.NO_RATE_SUMMARY_ONLY in shows or Line.STOPPED_EARLY in shows:
        body.append((Line.NO_RATE_SUMMARY_ONLY, "no rate: the log holds the run's end, no step line"))
    if Line.ENDED_EVALUATION in shows and pending:
        lines = _set_lines(newest_evals(pending))
        body.extend((Line.ENDED_EVALUATION, line) for line in lines)
    if Line.EVALUATION_ONLY in shows:
        # Its headline figures (bits per byte, CORE, a loss) before the tasks' own.
        headline = sorted(pending, key=lambda item: _HEADLINE.search(item[0].lower()) is None)
        more = len(headline) - EVALS_SHOWN
        figures = (", ".join(eval_figure(name, value) for name, value, _ in headline[:EVALS_SHOWN])
                   + (f", + {more} more" if more > 0 else ""))
        body.append((Line.EVALUATION_ONLY, f"Evaluation only, no training step: {figures}"))
    return (top + _under_lead(body, v.lead, [skips] if skips is not None else [])
            + all_reduce_lines(all_reduce) + error_lines(errors) + run_details(run))


def crash_line(crash: Crash, latest: TrainStep | None, epochs: bool = False) -> str:
    """``Crashed: …``, or where someone stopped the run (``Stopped by hand at step 6 of 29,790: KeyboardInterrupt``)."""
    if crash.stopped is None:
        return f"{'Crashed (killed)' if crash.killed else 'Crashed'}: {clip(crash.error, 200)}"
    who = "Stopped by hand" if crash.stopped == "hand" else "Stopped from outside"
    where = f"at {step_of(latest, epochs)}" if latest is not None else "before the first step"
    return f"{who} {where}: {clip(crash.error, 200)}"


def step_of(latest: TrainStep, epochs: bool = False) -> str:
    """``step 7,182 of 9,000``; ``step 7,182``; the epoch of a log of dicts without step numbers."""
    if latest.logged or latest.outer_step is not None:
        return position(latest)
    if not latest.ends_at_total and latest.epoch is not None:
        # The count is the epoch's batches (Keras' ``1/1`` bar each epoch): the run is as far as its epoch.
        of = f" of {latest.epoch_total:,}" if latest.epoch_total is not None else ""
        return f"epoch {latest.epoch:g}{of}"
    total = f" of {latest.total_steps:,}" if latest.total_steps is not None else ""
    return f"{count_unit(latest.counter, epochs)} {latest.step:,}{total}"


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


def clock_step(stage: Stage) -> tuple[float, str] | None:
    """A step's time worked out from the trainer's own clock, read under some steps, over the steps between, and how
    (``worked out: the trainer's clock, 33.24 s over 8 steps``): the one figure the details and the snapshot's
    ``step_seconds`` give where no step's time is printed nor measured. None for a log of dicts (no steps between)."""
    clock = clock_step_seconds(stage)
    if stage.latest.logged:
        return None
    if clock is None:
        return eta_step(stage)
    each, span, steps = clock
    return each, f"worked out: the trainer's clock, {seconds_text(span)} over {steps:,} {count_noun(stage)}s"


def worked_out_step(stage: Stage, m: Measure) -> tuple[float, str] | None:
    """The step's time the details work out from the trainer's own clock or ETA, where no line prints one and none is
    measured, with where it comes from (``the trainer's ETA``): the status line and the rate's line say it too, never
    "no timing" above a step's time (Keras' bar of ``ETA: 31`` alone at 17/88: 437 ms a step)."""
    if step_seconds(stage, m) is not None:
        return None
    clock = clock_step(stage)
    if clock is None:
        return None
    return clock[0], "the trainer's clock" if clock_step_seconds(stage) is not None else "the trainer's ETA"


def eta_step(stage: Stage) -> tuple[float, str] | None:
    """A step's time worked out from the trainer's ETA over the steps left, the same on two lines of its bar, and how
    (``worked out: the trainer's ETA over the steps left, 107 s for 65 at 35/100, 108 s for 66 at 34/100``),
    where no line prints a step's time nor a clock."""
    paced = eta_step_seconds(stage)
    if paced is None:
        return None
    each, first, last = paced
    total = last.total_steps or 0
    said = [f"{round(line.trainer_eta_seconds or 0.0)} s for {total - line.step:,} at {line.step}/{total}"
            for line in (last, first)]
    return each, f"worked out: the trainer's ETA over the {count_noun(stage)}s left, {said[0]}, {said[1]}"


def speed_parts(stage: Stage, run: RunFacts, m: Measure | None = None) -> list[str]:
    latest = stage.latest
    steady = m.steady if m is not None else steady_step(stage)  # (worked out once, with the rate: Measure.steady)
    parts: list[str] = []
    seconds = step_seconds(stage, m)
    if (seconds is not None and stage.counts_epochs and printed_step_seconds(stage) is None
            and timed_before_pass(stage) is None and epoch_time_printed(stage)):
        # An epoch measured by the lines' times where the trainer prints its epochs' own (nnU-Net's ``Epoch time: 134.63
        # s``, its evaluation and save outside it): the printed one alone is shown, below, never two epoch times
        seconds = None
    elif seconds is not None:
        # The trainer's own time of a step is said to be its own: the rate beside it is measured.
        # (worked out from a printed time of many steps, it says how: an epoch's time is no step's as printed)
        before = timed_before_pass(stage)
        steady_said = steady_note(stage, steady)
        own = f" ({steady_said})" if steady_said is not None else \
            measured_note(stage, m) if printed_step_seconds(stage) is None and before is None else \
            f" (as printed at {step_of(before, stage.counts_epochs)})" if before is not None else \
            f" ({latest.step_seconds_note})" if latest.step_seconds_note else \
            f" (a training batch's, as printed at {latest.step}/{stage.shared_bar.total})" if stage.shared_bar else \
            " (as printed)"
        average = epoch_average_seconds(stage)
        if average is not None and stage.epoch_average is not None:
            # (which one is shown, and the line's own beside it: its window leaves out the epoch's slow first iteration)
            own = f" (epoch {stage.epoch_average[0]:g}'s average, as printed at its end)"
            line = printed_step_seconds(stage)
            if line is not None:
                own += f" · the latest line's time {seconds_text(line)} (as printed)"
        parts.append(f"{count_noun(stage)} {seconds_text(seconds)}{own}")
        note = latest.step_seconds_note or ""
        if stage.clock_over_printed and finite(latest.step_seconds) is not None and " as printed" in note:
            # The printed figure the dates contradict, under its printed name, said to be no step's time (ESPnet's
            # ``train_time`` of an optimizer step over several batches); a time worked out from another figure
            # (fairseq's ``ups=0.04`` is no ``25`` printed) is not shown as printed.
            parts.append(f"{note.split(' as printed')[0]} {as_printed(latest.step_seconds or 0.0)} as printed: more "
                         "than a step takes by the log's dates")
    elif (clock := clock_step(stage)) is not None:
        each, note = clock
        parts.append(f"{count_noun(stage)} {seconds_text(each)} ({note})")
    elif (last_epoch := epoch_with_its_evaluation(stage)) is not None and not epoch_time_printed(stage):
        # A line a whole epoch, each followed by its evaluation: the time between the last two epoch lines, which the
        # rate leaves out (the evaluation's pause is in it), is still the epoch's own time, said with what it holds;
        # where the trainer prints an epoch's time (nnU-Net's ``This epoch took 75.09 s``), that one alone is shown
        parts.append(f"epoch {seconds_text(last_epoch)} (from the lines' times, its evaluation included)")
    elif ((before := stage.timed_step) is not None and before is not latest and not stage.clock_over_printed
          and before.counter == latest.counter):  # (an epoch line's time is no time of a sample counted after it)
        # The latest line printed no time of its own (a new bar at ``0/101 [00:00<?, ?it/s]``) and none is measured:
        # the last one printed, said where (the run's pace before a crash at the next epoch's start).
        own = f"{before.step_seconds_note}, " if before.step_seconds_note else ""
        parts.append(f"{count_noun(stage)} {seconds_text(before.step_seconds or 0.0)} "
                     f"({own}as printed at {step_of(before, stage.counts_epochs)})")
    if seconds is None and not parts and stage.counts_epochs and len(stage.reprint_gaps) >= WARMUP_COUNT:
        # No epoch seen whole yet, its lines naming only their epoch (a T5 fine-tune's ``Epoch 17 - Batch loss: …``
        # every 1.3 s): their own pace, measured, never an epoch's time
        pace = statistics.median(stage.reprint_gaps)
        parts.append(f"a line every {seconds_text(pace)} in the epoch (measured from the lines' times; its lines "
                     "number no batch)")
    interval_seconds = finite(dict(latest.figures).get(LOGGING_INTERVAL_SECONDS))
    if interval_seconds is not None and seconds is None and interval_seconds > 0:
        # A logging hook's interval, the steps it spans printed nowhere in the log: its time as printed, no step's.
        parts.append(f"{as_printed(interval_seconds)} s per logging interval (as printed; the steps it spans are not "
                     "in the log)")
    epoch_seconds = finite(dict(latest.figures).get(EPOCH_SECONDS))
    if epoch_seconds is not None:
        if epoch_seconds > 0:
            parts.append(f"epoch {seconds_text(epoch_seconds)} (as printed)")  # (an epoch's time, printed beside its last step)
    elif stage.epoch_time is not None:
        # The next epoch's lines print none: the last one printed stays shown, said whose (MXNet's ``Time cost=``).
        epoch, seconds = stage.epoch_time
        whose = f"epoch {epoch:g} took" if epoch is not None else "an epoch took"
        parts.append(f"{whose} {seconds_text(seconds)} (as printed)")
    rate = shown_tokens_per_second(stage, steady)
    if rate is not None and rate >= 0:
        parts.append(f"{text.compact(rate)} tok/s{'/GPU' if latest.per_device else ''}")
    unsaid_mfu = finite(dict(latest.figures).get(MFU_AS_PRINTED))
    if latest.mfu is not None:
        parts.append(f"MFU {latest.mfu:.2f}%" + (f" ({latest.mfu_note})" if latest.mfu_note else ""))
    elif unsaid_mfu is not None:
        parts.append(f"MFU {as_printed(unsaid_mfu)} (as printed: the log does not say whether a fraction or a percent)")
    elif latest.mfu_note is not None:
        parts.append(f"MFU {latest.mfu_note}")
    elif run.peak_unknown and run.gpu_name is not None:
        parts.append("MFU unknown (no peak FLOPS for this GPU)")
    return parts


def evaluating_line(under_way: TrainingPause, stage: Stage, since: float | None) -> str:
    """``Evaluating after step 178: its pass at 2 (as printed)``: where the evaluation's pass under way is, and how long
    since the last step where the lines say."""
    done, batches = under_way.done, under_way.batches
    where = (f"{done}/{batches} of its pass" if done is not None and batches is not None
             else f"its pass at {done} (as printed)" if done is not None
             else f"its pass of {batches} begun" if batches is not None else "its pass begun")
    last = "the last logged record" if stage.latest.logged else position(stage.latest, stage.epoch, stage.counts_epochs)
    quiet = f" · {text.duration(since)} since then" if since is not None and since >= 1 else ""
    return f"Evaluating after {last}: {where}, no result yet{quiet}"


def epoch_time_printed(stage: Stage) -> bool:
    """True when the log prints an epoch's own time, shown for the latest line (its own, or the last one printed)."""
    seconds = finite(dict(stage.latest.figures).get(EPOCH_SECONDS))
    return (seconds is not None and seconds > 0) or (seconds is None and stage.epoch_time is not None)


def steady_note(stage: Stage, steady: tuple[float, float | None] | None) -> str | None:
    """How a step time that is the steps' before the latest (``steady``: stage.steady_step, Measure.steady) is said:
    ``as printed, the steps before; step 5,000's 4.75 s held its evaluation``; None where the latest line's own time is
    shown."""
    if steady is None or epoch_average_seconds(stage) is not None:
        return None  # (an epoch's average printed as it ended is the step time shown, said as such)
    held = "its evaluation" if stage.held_pause == "evaluation" else "a checkpoint's save"
    printed = seconds_text(printed_step_seconds(stage) or 0.0)
    return f"as printed, the {count_noun(stage)}s before; {count_noun(stage)} {stage.latest.step:,}'s {printed} held {held}"


def shown_tokens_per_second(stage: Stage, steady: tuple[float, float | None] | None) -> float | None:
    """The tokens a second shown beside the step time: the latest line's as printed, or the steps' before it where
    the step time shown is theirs (``steady``: stage.steady_step, Measure.steady)."""
    return finite(steady[1] if steady is not None else stage.latest.tokens_per_second)


def epoch_with_its_evaluation(stage: Stage) -> float | None:
    """The time between the last two lines of a log whose lines are whole epochs, where the later one came after the
    evaluation that followed the earlier (an end-to-end ASR trainer's dated ``(Epoch 21) TRAIN LOSS`` lines, 4 h 22 min
    apart, a ``VALID`` pass between them); None otherwise."""
    if not stage.counts_epochs or not stage.line_durations or not stage.ended_wait[-1] or stage.covered[-1] != 1:
        return None
    seconds = finite(stage.line_durations[-1])
    return seconds if seconds is not None and seconds > 0 and stage.evaluated_last else None


def measured_note(stage: Stage, m: Measure | None = None) -> str:
    """How a step time that no line printed was worked out: from the lines' times (the log's dates, or when
    the lines were read), never as printed.

    A log whose lines print no date has no lines' times to measure by: its step time is measured from what the trainer
    printed, said as such (legacy OpenNMT-py's ``744 s elapsed``, Turi Create's ``Elapsed Time`` column: the trainer's
    clock; MLX-LM's ``Tokens/sec`` over its ``Trained Tokens``: its printed times), or, read live, from when the lines
    arrived. Where the stretch the rate measured holds evaluations' pauses and the step's time leaves them out
    (between_pauses), it says so: the rate beside it says it holds them."""
    said = _measured_from(stage)
    if m is not None and m.steps_per_hour and between_pauses(stage, m) is not None:
        return said[:-1] + ", the evaluations' pauses left out)"
    return said


def _measured_from(stage: Stage) -> str:
    if stage.clock_over_printed:
        return " (from the log's dates)"
    latest = stage.latest
    if latest.at is None:
        if finite(latest.elapsed_seconds) is not None:
            return " (measured from the trainer's own clock)"
        if latest.tokens and finite(latest.tokens_per_second) and not latest.per_device:
            return " (worked out from the tokens and tokens a second printed)"
        return " (worked out from the trainer's printed times)" if stage.printed_timing else " (measured as the lines arrived)"
    return " (measured from the lines' times)"


def no_time_read(stage: Stage) -> str:
    """Why no step's time was read: none at all, only each epoch's (DGL's ``Epoch Time(s): 7.2513``, shown
    beside the step time as printed), which times no step: an epoch's batches are not all step lines, or only a
    throughput (tokens a second, shown as printed). An epoch's time printed before the latest line's epoch began is
    still printed (MXNet's ``Time cost=`` after each epoch)."""
    each = count_unit(stage.latest.counter)  # (what a line's count counts: an episode's time is no step's either)
    if stage.epoch_time is not None:
        return f"each epoch's time printed, no {each}'s,"
    if any(name.startswith("time/") for name in stage.figures):
        # A time printed beside the lines under its own name, its unit not printed (DCGAN-tensorflow's ``time: 342.2326``,
        # the run's clock; an RL loop's ``Time: 4.03`` an episode's): shown as printed, so never said not to be there,
        # nor said whose (the log does not say).
        return "only a time without its unit printed,"
    if finite(stage.latest.tokens_per_second) is not None:
        # (a throughput printed is no step's time: OpenNMT's ``Source tokens/s 1268``, shown as printed beside it)
        return "its tokens a second printed, no duration or time read"
    if LOGGING_INTERVAL_SECONDS in stage.figures:
        # (TF Estimator's ``step = 208 (7.759 sec)`` with no step line before it: the interval's time, shown as printed)
        return f"only a logging interval's time printed, the {each}s it spans not,"
    run_seconds = finite(stage.figures.get(RUN_SECONDS))
    if run_seconds is not None and run_seconds > 0:
        # (the whole run's time, printed as it ended: PyTorch-Ignite's ``Engine run complete. Time taken: 00:01:45.348``
        # before its launcher's ``End of run``, the transfer-learning tutorial's ``Training complete in 24m 31s``; shown
        # as printed, no step's nor epoch's time, its mean over the run's epochs or steps said to be derived)
        return (f"only the whole run's time printed ({run_time_text(run_seconds)}, as printed"
                f"{mean_over_run(stage, run_seconds)}), no {count_noun(stage)}'s,")
    if finite(stage.latest.trainer_eta_seconds) is not None:
        # (Keras' bar of ``ETA: 1:47`` alone: the time left, shown as the trainer's; a step's time only where two lines agree)
        # (where two lines agreed, a step's time worked out from it is shown below: said so, never "no step's time")
        told = f"a {each}'s time worked out from it" if eta_step_seconds(stage) is not None else f"no {each}'s time"
        return f"only the trainer's ETA printed, {told},"
    return "no duration or time read"  # (said before "for its 60 step lines", or inside brackets without the comma)


def run_time_text(seconds: float) -> str:
    """A whole run's printed time to the second: ``5 min 37 s``, ``5 h 04 min 5 s``."""
    if seconds < 600:
        return seconds_text(seconds)
    whole = int(seconds + 0.5)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    said = f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
    return f"{said} {rest} s" if rest else said


def mean_over_run(stage: Stage, run_seconds: float) -> str:
    """``; ≈3.04 min an epoch over its 100, from the printed total``: the run's time over the epochs (or steps) it
    covered, where the log shows them from the first (an epoch counted from 1, or from 0 to its printed last, the
    transfer-learning tutorial's ``Epoch 0/24`` … ``Epoch 24/24``; a step from 1); else nothing. Derived, never a
    measured rate: an excerpt that begins mid-run (``Epoch 73/74``) does not say how many the time spans, nor does a run
    resumed from a checkpoint, nor an epoch 0 that may be an evaluation before the first epoch (Ignite's NMT tutorial)."""
    first, last = stage.first_step, stage.latest.step
    if first is None or stage.latest.logged:
        return ""
    if stage.counts_epochs:
        from_zero = first == 0 and stage.latest.total_steps == last
        covered = last + 1 if from_zero else last if first == 1 else 0
    else:
        covered = last if first == 1 and stage.latest.epoch is None else 0
    if covered < 2:
        return ""
    mean = run_seconds / covered
    said = (seconds_text(mean) if mean < 60 else f"{mean / 60:.3g} min" if mean < 3600 else f"{mean / 3600:.3g} h")
    return f"; ≈{said} {'an' if count_noun(stage)[:1] in 'aeiou' else 'a'} {count_noun(stage)} over its {covered:,}, from the printed total"


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


def diverged_since(stage: Stage) -> str:
    """Since when the loss is not a number: its step, or its epoch where the step counts within an epoch (a Keras
    bar's ``9595/9595`` samples, a MetricLogger's ``[60/208]``), "after" the last step where the log said it went bad
    after that step's line, else nothing (a log of dicts numbers no step)."""
    latest = stage.latest
    if stage.diverged_step is None or latest.logged:
        return ""
    if stage.diverged_epoch is not None and counts_in_epoch(latest):
        return f" since epoch {stage.diverged_epoch:g}"
    if stage.loss_note == LOSS_AFTER_LAST_STEP:
        # (the NaN belongs to a step the log did not print; the last printed one's loss was a number)
        after = f" after {count_noun(stage)} {stage.diverged_step}"
        if latest.loss is not None and math.isfinite(latest.loss) and latest.step == stage.diverged_step:
            after += f" (its loss {text.loss_figure(latest.loss)})"
        return after
    return f" since {count_noun(stage)} {stage.diverged_step}"


def counts_in_epoch(step: TrainStep) -> bool:
    """The step line's count is its epoch's batches or samples, not the run's step (as :func:`position` reads it)."""
    return step.outer_step is None and not step.ends_at_total and step.epoch is not None


def position(step: TrainStep, epoch: float | None = None, epochs: bool = False) -> str:
    """Where the run is: ``step 383/29000``, ``outer 42 · step 2``, the epoch of a log of
    dicts without step numbers (``epoch 0.44``), or of a log whose lines count epochs (``epoch 855/1500``)."""
    if step.logged:
        epoch = step.epoch if step.epoch is not None else epoch
        if epoch is None and step.unnumbered:
            return "no step number printed"  # (the steps' rate alone: its count of reports is no position)
        return f"epoch {epoch:g}" if epoch is not None else f"{step.step} logged records"
    if step.outer_step is not None:
        return f"outer {step.outer_step} · step {step.step}"
    in_epoch = step.epoch if step.epoch is not None else epoch
    of = epochs_of(step)
    if step.epoch_percent is not None and in_epoch is not None:
        return f"epoch {in_epoch:g}{of} · {step.epoch_percent:g}% of the epoch"
    if step.total_steps is not None and not step.ends_at_total and in_epoch is not None:
        # The count is the epoch's batches (a MetricLogger's ``[60/208]``, Lightning's bar): the run
        # is as far as its epoch, whose count alone would read as the whole run's.
        return f"epoch {in_epoch:g}{of} · {step.step}/{step.total_steps}{counted(step)} in the epoch"
    if not step.ends_at_total and step.epoch is not None:
        # Its bar full (Keras prints whole epochs); the run is in the epoch a later header started.
        later = header_epoch_after(step, epoch)
        if later is not None:
            return f"epoch {later:g}{of}"  # (its bar not drawn yet: the full count was the epoch before's)
        count = f"{step.step}/{step.epoch_steps}" if step.epoch_steps is not None else f"{step.step}"
        return f"epoch {step.epoch:g}{of} · {count}{counted(step)} in the epoch"
    if not step.ends_at_total and in_epoch is None and step.epoch_total is not None and step.total_steps is not None:
        # An epoch's batches before any epoch is numbered (the first bar under YOLO's header, before its first row): where
        # the run is in it, beside the epochs its banner planned; the count alone would read as the whole run's
        return f"{epochs_planned(step.epoch_total)} · {step.step}/{step.total_steps}{counted(step)} in the epoch"
    if counts_a_pass(step, epoch):
        size = step.total_steps if step.total_steps is not None else step.epoch_steps
        count = f"{step.step}/{size}" if size is not None else f"{step.step}"
        return f"{count}{counted(step)} in the pass"
    noun = count_unit(step.counter, epochs)
    # (a counter the log prints rounded, ``step:50K``, said as printed)
    count = step.step_printed if step.step_printed is not None else f"{step.step}"
    where = f"{noun} {count}/{step.total_steps}" if step.total_steps is not None else f"{noun} {count}"
    if step.total_steps is None and step.last_of_epochs is not None and step.epoch == step.step:
        where += epochs_of(step)  # (the last of the plan's epochs counted from zero: ``epoch 49 (last of 50)``)
    if step.epoch_batch is not None and in_epoch is not None:
        # The run's update count, and the place in its epoch printed beside it (fairseq's ``1000 / 2737``).
        batches = f"/{step.epoch_batches}" if step.epoch_batches is not None else ""
        return f"{where} · epoch {in_epoch:g}{of} · {step.epoch_batch}{batches} in the epoch"
    return where


def epochs_of(step: TrainStep) -> str:
    """The run's epochs after its epoch's number: ``/40`` as printed (``Epoch 12/40``), or `` (last of 50)`` where the
    run's stop said it reached its planned 50 at an epoch counted from zero (``49/50`` would read as one to go)."""
    if step.epoch_total is not None:
        return f"/{step.epoch_total}"
    return f" (last of {step.last_of_epochs:,})" if step.last_of_epochs is not None else ""


def record_noun(stage: Stage) -> str:
    """What one of the log's records is: a step (its count's unit), a logged record, a report of the steps' rate."""
    latest = stage.latest
    return "report of the steps' rate" if latest.unnumbered else "logged record" if latest.logged else count_noun(stage)


def counted(step: TrainStep) -> str:
    """`` images``: the unit of a count in the epoch, where the log names one that is no step (TrainStep.counter)."""
    return f" {step.counter}s" if step.counter is not None else ""


def progress(stage: Stage) -> str:
    bar = stage.shared_bar
    if bar is not None:
        # The epoch's bar counting its validation on after the training (Lightning 1.x): its newest count, both parts
        epoch = stage_epoch(stage)
        of = epochs_of(stage.latest)
        where = f"epoch {epoch:g}{of} · " if epoch is not None else ""
        return (f"{STAGE_LABELS.get(stage.latest.stage, '')}{where}bar {bar.count}/{bar.total}: {bar.trained} training + "
                f"{bar.count - bar.trained} validation batches")
    return STAGE_LABELS.get(stage.latest.stage, "") + position(stage.latest, stage.epoch, stage.counts_epochs)


def stage_line(stage: Stage) -> str:
    latest = stage.latest
    where = position(latest, stage.epoch, stage.counts_epochs)
    if latest.unnumbered:
        where += f" ({latest.step} report{'s' if latest.step != 1 else ''} of the steps' rate)"
    elif latest.logged:
        where += f" ({latest.step} logged record{'s' if latest.step != 1 else ''}: no step number read)"
    elif latest.progress_percent is not None:
        where += f" ({latest.progress_percent:.2f}%)"
    elif latest.epoch_batch is not None and latest.epoch_batches and stage_epoch(stage) is not None:
        where += f" ({100 * latest.epoch_batch / latest.epoch_batches:.1f}% of the epoch)"
    elif latest.total_steps:
        where += f" ({100 * latest.step / latest.total_steps:.1f}%)"
    elif (not latest.ends_at_total and latest.epoch_steps is not None and latest.epoch is not None
          and stage.epoch is not None and stage.epoch > latest.epoch):
        # (a new epoch begun, its bar not drawn yet: the epoch's steps are the full bar's before it, as printed)
        # (a count whose unit is unsaid is the full bar's count, as printed: no steps)
        where += (f" · {latest.epoch_steps}/{latest.epoch_steps} in the epoch before" if latest.count_unsaid
                  else f" · {latest.epoch_steps:,} {count_unit(latest.counter)}s an epoch")
    return f"Stage {stage.name} · {where}"


def stage_epoch(stage: Stage) -> float | None:
    """The epoch the latest line is in: its own, else the one a line before it named."""
    return stage.latest.epoch if stage.latest.epoch is not None else stage.epoch


def data_line(stage: Stage) -> str | None:
    latest = stage.latest
    if latest.parquet_index is not None and latest.row_group is not None:
        line = f"Data epoch {latest.epoch:g} · pq {latest.parquet_index} · rg {latest.row_group}"
        per_step = row_groups_per_step(stage)
        if per_step is not None:
            line += f" (≈{per_step:.3g} row groups/step)"
        return line
    epoch = data_epoch(stage)
    if epoch is not None:
        # (a position in the epoch printed beside the run's step: fairseq's ``epoch 001:  650 / 1891``)
        printed = dict(latest.figures)  # (the latest step line's own, never an earlier line's)
        done, steps = printed.get("epoch/step"), printed.get("epoch/steps")
        where = f" · {done:,.0f}/{steps:,.0f} in the epoch" if done is not None and steps else ""
        # (the run's epochs as printed, ``epoch   0/ 10``, when the step beside it is the run's count, not the epoch's)
        # (kohya's ``epoch 6/80`` header after its bar in epoch 5: the header's epoch, of the same run's epochs)
        of = (f"/{latest.epoch_total}" if latest.epoch_total and latest.ends_at_total and latest.epoch is not None
              and (latest.epoch == epoch or latest.epoch < epoch <= latest.epoch_total) else "")
        return f"Data epoch {epoch:g}{of}{where}"
    return None


def latest_evals(stage: Stage) -> list[tuple[str, float | None, int | None]]:
    """The figures of the latest evaluation step, in the order printed (all of them: ``shown_evals`` picks)."""
    return newest_evals([(name, value, step) for name, (value, step) in stage.evals.items()])


def older_bests(stage: Stage, shown: Sequence[tuple[str, float | None, int | None]],
                ) -> list[tuple[str, float | None, int | None]]:
    """The bests so far printed beside the latest evaluation but reached at an earlier step (``Best test accuracy:
    85.38%`` after the last epoch, first printed at epoch 32): each shown with its own step, never the latest's."""
    names = {name for name, _, _ in shown}
    bests: list[tuple[str, float | None, int | None]] = [
        (name, value, step) for name, (value, step) in stage.evals.items()
        if name not in names and step is not None and (scored := scored_by(name)) is not None and scored[0]]
    return bests[:1]


def newest_evals(items: Sequence[tuple[str, float | None, int | None]]) -> list[tuple[str, float | None, int | None]]:
    """Those of the newest evaluation step (and those printed at no step), in the order printed."""
    steps = [step for _, _, step in items if step is not None]
    if not steps:
        return list(items)
    newest = max(steps)
    return [item for item in items if item[2] == newest] + [item for item in items if item[2] is None]


def shown_evals(items: Sequence[tuple[str, float | None, int | None]],
                ) -> tuple[list[tuple[str, float | None, int | None]], int]:
    """The few evaluation figures shown, the main one first (``bbox_AP``, ``mAP50-95``, ``val_loss``) and the others
    as printed, and how many more there are: a COCO table's dozen figures would push its headline AP out."""
    main = [item for item in items if _MAIN_EVAL.search(item[0].lower())]
    ordered = main + [item for item in items if not _MAIN_EVAL.search(item[0].lower())]
    return ordered[:EVALS_SHOWN], max(0, len(ordered) - EVALS_SHOWN)


def more_evals(more: int) -> str:
    """`` · + 8 more``: the evaluation figures not shown, said rather than dropped silently."""
    return f" · + {more} more" if more else ""


def eval_where(evals: list[tuple[str, float | None, int | None]], noun: str = "step", placed: bool = False) -> str:
    """`` (step 600)``: where the evaluations were (a logged count is no step: none is said beside a log of dicts);
    ``placed``: no step was read with them (none printed, or one the reader does not take), so they are kept at the
    step logged before them, said so: `` (after step 600, the last logged before it)``."""
    steps = {step for _, _, step in evals}
    if len(steps) == 1:
        (step,) = steps
        if step is None:
            return ""
        return f" (after {noun} {step}, the last logged before it)" if placed else f" ({noun} {step})"
    return ""


def eval_figure(name: str, value: float | None) -> str:
    """``val_loss 0.5406`` as shown; a share named so (``val_percent``) is shown in per cent, as printed: ``val 65.75%``."""
    if name.endswith(PERCENT_SUFFIX) and value is not None:
        return f"{name.removesuffix(PERCENT_SUFFIX)} {figure(value)}%"
    return f"{name} {figure(value)}"


def figure(value: float | None) -> str:
    if value is None:
        return "?"
    return text.loss_figure(value) if abs(value) < 100 else text.decimals(value, 1)


def spikes_line(stage: Stage) -> str:
    """``Loss spikes 2 (the latest at step 61, recovered)``, the count in its own word (``at episode 12``)."""
    spikes = stage.spikes
    # (a log of dicts without step numbers counts its records: no step to name)
    where = (f"the latest at {count_noun(stage)} {spikes.steps[-1]:,}" if spikes.steps and not stage.latest.logged
             else "the latest")
    return f"Loss spikes {spikes.count} ({where}, {'not recovered yet' if spikes.in_spike else 'recovered'})"


def rising_line(rise: Rise, stage: Stage) -> str:
    """``Warning: the loss is rising, from its lowest 11.97 at step 400 to 13.14 at step 2800`` (each step's epoch
    where the two differ; no step where the log numbers none)."""
    noun = count_noun(stage)

    def at(step: int, epoch: float | None) -> str:
        if stage.latest.logged:
            return ""  # (a count of dicts is no step)
        of = f" of epoch {epoch:g}" if epoch is not None and rise.low_epoch != rise.epoch and noun != "epoch" else ""
        return f" at {noun} {step:,}{of}"

    return (f"Warning: the loss is rising, from its lowest {text.loss_figure(rise.low)}{at(rise.low_step, rise.low_epoch)}"
            f" to {text.loss_figure(rise.loss)}{at(rise.step, rise.epoch)} (each of its newest {rise.tail} of {rise.records}"
            " records above that low, the newest the highest)")


def figure_lines(figures: dict[str, float]) -> list[str]:
    # A loss printed in its parts, none of them the model's one loss (YOLO's ``box_loss``, BasicSR's ``l_g_pix``): a
    # parser names each ``loss/`` and its name as printed.
    named = [(name.partition("/"), value) for name, value in figures.items()]
    losses = [f"{part} {figure(value)}" for (whose, slash, part), value in named if whose == "loss" and slash]
    lines = ["Losses " + " · ".join(losses)] if len(losses) >= 2 else []
    # Rates a parser kept under their printed names (dreamerv3's ``fps/train``), as ``rate/`` and that name.
    rates = [f"{part} {value:.6g}" for (whose, slash, part), value in named if whose == "rate" and slash]
    if rates:
        lines.append("Rates " + " · ".join(rates))
    # Counts of what the run has done so far, as printed (an RL table's environment timesteps).
    totals = [f"{part} {value:,.0f}" for (whose, slash, part), value in named if whose == "total" and slash]
    if totals:
        lines.append("Totals " + " · ".join(totals))
    lines.extend(trial_lines(named))
    # A step record's one figure under a name that is no loss's (a GAN's ``G: 0.41``, ``entropy: 2.1``, ``reward:``):
    # under that name, as printed, and said to be no loss (docs/formats.md, "A step's one figure").
    # (a share printed in per cent keeps its sign: ``figure/Win Rate %`` reads ``Win Rate 18%``)
    own = [f"{part.removesuffix(' %')} {as_printed(value)}%" if part.endswith(" %") else f"{part} {as_printed(value)}"
           for (whose, slash, part), value in named if whose == "figure" and slash]
    if len(own) == 1:
        lines.append(f"Figure {own[0]} (as printed beside a step; not read as its loss)")
    elif own:
        lines.append("Figures " + " · ".join(own) + " (as printed beside a step; none read as its loss)")
    # An epoch's summary after its steps (``Epoch 49 completed | Average loss: 0.0278``): that epoch's, no step's.
    summed = [(part, value) for (whose, slash, part), value in named if whose == "summary" and slash and part != "epoch"]
    if summed and "summary/epoch" in figures:
        lines.append(f"Epoch {figures['summary/epoch']:g}'s summary: "
                     + " · ".join(f"{part} {as_printed(value)}" for part, value in summed) + " (as printed)")
    # A table's figures whose header is not in the log (neupy's rows pasted without it): each by its column's place,
    # never under a name the log does not print.
    columns = [f"{part}: {as_printed(value)}" for (whose, slash, part), value in named if whose == "column" and slash]
    if columns:
        lines.append("Columns " + " · ".join(columns) + " (unnamed: the table's header is not in the log)")
    # Memory and times printed beside a step under their own names, with their unit only where one was printed
    # (``max_mem: 2372M`` is ``memory/max_mem M``; vietocr's ``gpu time: 38.92`` has none): shown as printed.
    # (named only ``memory``, mmdet's ``memory: 4090``, the group's name says it: ``Memory 4090 (as printed)``)
    printed = [f"{'' if name.lower() in ('memory', 'mem') else name + ' '}{as_printed(value)}{f' {unit}' if unit else ''}"
               for (whose, slash, part), value in named if whose == "memory" and slash
               for name, _, unit in [_name_and_unit(part)]]
    if printed:
        lines.append("Memory " + " · ".join(printed) + " (as printed)")
    times = [f"{part} {as_printed(value)}" for (whose, slash, part), value in named if whose == "time" and slash]
    if [part for (whose, slash, part), _ in named if whose == "time" and slash] == ["time"]:
        # A bare ``time`` alone (MST's ``Avg. Loss: 0.014821 time: 666.83``): what it is, only that a step's line
        # printed it; its unit, and whether it is the step's own time, the log does not say.
        lines.append(f"Times {times[0]} (printed beside a step, unit not printed)")
    elif times:
        lines.append("Times " + " · ".join(times) + " (as printed, unit not printed)")
    parts = []
    if "reward" in figures:
        parts.append(f"reward {text.loss_figure(figures['reward'])}")
    if "sequence_length" in figures:
        parts.append(f"mean sequence {figures['sequence_length']:.1f} tokens")
    if "response_length" in figures:
        parts.append(f"mean response {figures['response_length']:.1f} tokens")
    if "memory_gib" in figures:
        memory = f"memory {figures['memory_gib']:.2f} GiB"
        if "memory_percent" in figures:
            memory += f" ({figures['memory_percent']:.2f}%)"
        parts.append(memory)
    if "tflops" in figures:
        parts.append(f"{figures['tflops']:.2f} TFLOPS")
    if "samples_per_second" in figures:
        parts.append(f"{samples_rate(figures['samples_per_second'])} samples/s")
    if "num_tokens" in figures:
        # (TRL's ``num_tokens``: the tokens its trainer has seen so far, as it logs them)
        parts.append(f"{figures['num_tokens']:,.0f} tokens seen (as printed)")
    if not parts:
        return lines
    line = " · ".join(parts)
    return [*lines, line[:1].upper() + line[1:]]


def trial_lines(named: list[tuple[tuple[str, str, str], float]]) -> list[str]:
    """Ray Tune's table of several trials: how many, and each one's figures beside its name (the steps above are the
    first's: one trial is followed, never the others' figures merged into it)."""
    trials: dict[str, list[str]] = {}
    for (whose, slash, rest), value in named:
        if whose == "trial" and slash:
            trial, _, what = rest.rpartition("/")
            trials.setdefault(trial, []).append(f"{what} {value:,.0f}" if what in ("iter", "ts") else
                                                f"{what} {as_printed(value)}")
    if len(trials) < 2:
        return []
    each = "; ".join(f"{trial} {' · '.join(parts)}" for trial, parts in trials.items())
    return [f"Trials {len(trials)}, the first followed: {each}"]


def as_printed(value: float) -> str:
    """A figure as the log printed it (``2372``, ``38.92``), thousands unseparated, never rounded to a few digits."""
    return f"{value:.10g}"


def _name_and_unit(part: str) -> tuple[str, str, str]:
    """``max_mem M`` → (``max_mem``, ``M``); a name printed without a unit is all name (``max mem``)."""
    name, space, unit = part.rpartition(" ")
    return (name, space, unit) if space and unit in _MEMORY_UNITS else (part, "", "")


def recognised(stage: Stage) -> str:
    """Which figures a log read by the generic reader gave: ``generic: step, loss, lr, step time``."""
    latest = stage.latest
    have = [
        ("step", not latest.logged),
        ("logged records", latest.logged and not latest.unnumbered),  # (a log that numbers no step: its records counted)
        ("steps' rate", latest.unnumbered),  # (a log of the steps' rate alone: no step, no record of one)
        ("total", latest.total_steps is not None),
        ("epoch", stage.epoch is not None),
        ("loss", stage.loss is not None),
        ("perplexity", stage.loss is None and TRAIN_PERPLEXITY in stage.figures),
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
    if seconds < 0.01:
        return f"{seconds * 1000:.2g} ms"  # Keras' ``760us/step``: two figures, never "1 ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    return text.close_duration(seconds)


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


def status(v: Verdict, stage: Stage, per_gpu: str) -> str:
    """The one status line the verdict names: where the run is and how fast it goes."""
    where, m = progress(stage), v.measure
    placed = swarm_status(v, where)
    if placed is not None:
        return placed
    match v.status:
        case Status.CRASHED:
            return f"{where} · crashed"
        case Status.STOPPED:
            return f"{where} · {stopped_words(v.crash)}"
        case Status.BROKEN:
            return f"{where} · broken"
        case Status.DIVERGED:
            return f"{where} · diverged"
        case Status.DONE:
            early = "stopped early at " if Line.STOPPED_EARLY in v.shows else ""
            return f"{STAGE_LABELS.get(stage.name, '')}done · {early}{position(stage.latest, stage.epoch, stage.counts_epochs)}"
        case Status.RESTARTING:
            return f"{where} · restarting"
        case Status.STALLED:
            return f"{where} · stalled {short(v.stall.since or 0.0)}"
        case Status.FINISHING:
            return f"{where} · finishing"
        case Status.EVALUATING:
            return f"{where} · evaluating"
        case Status.LOGGED:
            return where + (f" · loss {stage.loss:.3g}" if stage.loss is not None else " · …")
        case Status.TOKENS if m.tokens_per_hour is not None:
            return f"{where} · {text.compact(m.tokens_per_hour)} {'tok/h/GPU' if per_gpu else 'tok/h'}"
        case Status.STEPS if m.steps_per_hour is not None:
            return f"{where} · {text.compact(m.steps_per_hour)} {count_noun(stage)}s/h"
        case Status.NO_TIMING:
            worked = worked_out_step(stage, m)
            if worked is not None:
                return f"{where} · {count_noun(stage)} {seconds_text(worked[0])} (from {worked[1]})"
            return f"{where} · no timing"
        case Status.NO_STEP_YET:
            waited = v.stall.since or 0.0
            return f"{where} · no step yet" + (f" {short(waited)}" if waited >= 60 else "")
    return f"{where} · …"


def stopped_words(crash: Crash | None) -> str:
    """``stopped by hand`` (Ctrl-C) or ``stopped`` (a signal, a scheduler)."""
    return "stopped by hand" if crash is not None and crash.stopped == "hand" else "stopped"


def early_status(
    v: EarlyVerdict, all_reduce: AllReduce | None, errors: Errors | None, overflows: int,
    pending: Sequence[tuple[str, float | None, int | None]], collab: CollabProgress | None, now: float | None = None,
    planned: int | None = None,
) -> str:
    """The status line before the first training step, as the verdict names it (``planned``: the run's steps, as
    printed)."""
    if v.status is Status.ALONE and collab is not None:
        return f"{_epoch(collab)} · alone"
    placed = swarm_status(v, None)
    if placed is not None:
        return placed
    match v.status:
        case Status.CRASHED:
            if v.said_at is not None:
                return f"crashed at {v.said_at[0]} {v.said_at[1]} (as the error says)"
            return f"{_no_step_yet(planned)} · crashed"
        case Status.STOPPED:
            return f"{_no_step_yet(planned)} · {stopped_words(v.crash)}"
        case Status.BROKEN:
            return "broken run"
        case Status.ALL_REDUCE_FAILED if all_reduce is not None:
            return f"no step yet · {all_reduce.failed} all-reduce failed"
        case Status.ERRORS if errors is not None:
            return f"no step yet · {errors.count} error{'s' if errors.count != 1 else ''}"
        case Status.OVERFLOWS:
            return f"no step yet · {overflows} fp16 overflow{'s' if overflows != 1 else ''}"
        case Status.VALIDATION_ONLY:
            steps = [step for _, _, step in pending if step is not None]
            only = f"{_held_out_set(pending)} only"
            of = f" of {planned:,}" if steps and planned is not None and max(steps) <= planned else ""
            return f"{only} · step {max(steps)}{of}" if steps else only
        case Status.EVALUATION_ONLY:
            return "done · evaluation only"
        case Status.COLLABORATING if collab is not None:
            return f"{_epoch(collab)} · {collab.peers} peers"
        case Status.TRAINING_ROUND if v.swarm is not None and v.swarm.training_round is not None:
            return v.swarm.training_round
        case Status.SETTING_UP if v.swarm is not None and v.swarm.setting_up is not None:
            return f"setting up · {v.swarm.setting_up}"
        case Status.STALLED if v.since is not None and now is not None:
            return f"no step yet · stalled {short(now - v.since)}"
        case Status.DONE:
            if v.said_at is not None and v.said_start:
                return f"done at {v.said_at[0]} {v.said_at[1]} (where its start line put it; no step after)"
            if v.said_at is not None:
                return f"done at {v.said_at[0]} {v.said_at[1]} (as the run's closing lines say)"
            return "done · stopped early · no step line" if Line.STOPPED_EARLY in v.shows else "done · no step line"
    return "waiting for first step"


def _no_step_yet(planned: int | None) -> str:
    """``no step yet``, with the run's steps its start lines planned where they said them (``no step yet (40,000
    planned)``): a run that ends before its first step keeps its plan."""
    return "no step yet" if planned is None else f"no step yet ({planned:,} planned)"


def _set_lines(items: Sequence[tuple[str, float | None, int | None]]) -> list[str]:
    """``Eval …`` and ``Test …``: a validation's figures and a test set's (HF's ``predict_…``, ``test_…``) apart."""
    tested = [item for item in items if _TEST_SET.match(item[0])]
    lines = []
    for label, group in (("Eval", [item for item in items if item not in tested]), ("Test", tested)):
        shown, more = shown_evals(group)
        if shown:
            lines.append(f"{label} " + " · ".join(eval_figure(name, value) for name, value, _ in shown) + more_evals(more))
    return lines


_TEST_SET = re.compile(r"(?i)(?:test|predict)[/_ ]")


def _held_out_set(pending: Sequence[tuple[str, float | None, int | None]]) -> str:
    """``test report`` where the figures before any step name a test set and none a validation set, else ``validation``.

    (DeepSpeech's ``Test of Epoch N - WER: …, loss: …`` report is a test, not a validation: the reader names its
    loss ``test_loss``.)
    """
    names = [name.lower() for name, _, _ in pending]
    tested = any("test" in name for name in names) and not any("val" in name for name in names)
    return "test report" if tested else "validation"


def _epoch(collab: CollabProgress) -> str:
    return f"epoch #{collab.epoch}" if collab.epoch is not None else "collaborating"


def collaboration_line(collab: CollabProgress | None) -> str | None:
    """The collaboration's epoch, samples and peers (SN38, hivemind), or None."""
    if collab is None:
        return None
    eta = finite(collab.eta_seconds)
    due = f" · next epoch in {seconds_text(eta)}" if eta is not None and eta >= 0 else ""
    epoch = f"epoch #{collab.epoch} · " if collab.epoch is not None else ""
    return f"Collaboration: {epoch}{collab.samples} samples from {collab.peers} peers{due}"


def swarm_status(v: Verdict | EarlyVerdict, where: str | None) -> str | None:
    """The status line of a collaborator whose place in the swarm is the news, or None."""
    swarm, lead = v.swarm, f"{where} · " if where else ""
    if swarm is None:
        return None
    lasted = short(max(0.0, swarm.now - v.since)) if v.since is not None else ""
    attempts = f"{swarm.join_failures} failed attempt{'s' if swarm.join_failures != 1 else ''}"
    match v.status:
        case Status.CANNOT_JOIN if v.crash is not None:
            # (the trainer's own error, or someone ending it: a shell's notice after that error is no stop)
            ended = "crashed" if v.crash.stopped is None else stopped_words(v.crash)
            return f"{lead}cannot join the swarm · {ended}"
        case Status.CANNOT_JOIN:
            return f"{lead}cannot join the swarm · {attempts}"
        case Status.JOINING:
            return f"{lead}joining the swarm · {attempts}"
        case Status.SYNC_FAILING:
            return f"{lead}out of sync · state download failed {swarm.download_failures}×"
        case Status.OUT_OF_SYNC:
            return f"{lead}out of sync · loading state" + (f" {lasted}" if lasted else "")
        case Status.AVERAGING:
            return f"{lead}averaging {lasted}".rstrip()
        case Status.ALONE:
            rate = v.measure.steps_per_hour if isinstance(v, Verdict) else None
            return f"{lead}alone" + (f" · {text.compact(rate)} steps/h" if rate is not None else "")
    return None


def swarm_sentence(v: Verdict | EarlyVerdict) -> str | None:
    """What the swarm state means, and what usually causes it (the verdict's ``SWARM`` line)."""
    swarm = v.swarm
    if swarm is None or Line.SWARM not in v.shows:
        return None
    since = f" for {text.duration(max(0.0, swarm.now - v.since))}" if v.since is not None else ""
    match v.status:
        case Status.CANNOT_JOIN | Status.JOINING:
            verb = "Cannot join the swarm" if v.status is Status.CANNOT_JOIN else "Joining the swarm"
            causes = [(c, n) for c, n in swarm.join_causes if c != "cause not known"]
            if len(causes) > 1:
                cause = ": " + "; ".join(f"{n}× {c}" for c, n in causes)
            else:
                cause = f": {swarm.join_cause}" if swarm.join_cause else ""
            error = f" (last: {clip(swarm.join_error, 90)})" if swarm.join_error else ""
            tries = f"{swarm.join_failures} failed attempt{'s' if swarm.join_failures != 1 else ''}"
            ended = ""
            if v.crash is not None:  # (its own error, or someone ending it)
                ended = "; the trainer crashed" if v.crash.stopped is None else f"; the trainer was {stopped_words(v.crash)}"
            since = "" if v.crash is not None else since  # (how long it tried is over)
            return f"{verb}: {tries} to join the DHT{since}, no peer reached{cause}{error}{ended}"
        case Status.SYNC_FAILING:
            error = f" (last: {clip(swarm.download_error, 90)})" if swarm.download_error else ""
            return (f"Out of sync and cannot catch up: the state download failed {swarm.download_failures} times"
                    f" in a row{error}; it retries, and trains nothing meanwhile")
        case Status.OUT_OF_SYNC:
            return f"Out of sync with the collaboration{since}: loading the state from its peers before training"
        case Status.AVERAGING:
            return f"Averaging with its peers: training paused for a round{since}"
        case Status.ALONE:
            return "Alone: no other peer to average with; it trains locally, for nobody else"
    return None


def swarm_lines(swarm: SwarmView | None, now: float) -> list[str]:
    """The rounds and peers: last good round, the hour's share spent averaging, the last rounds, the pace, the peers."""
    if swarm is None:
        return []
    rounds = rounds_line(swarm, now)
    pace, peers = pace_line(swarm), peers_line(swarm)
    game = None
    if swarm.swarm_round is not None:
        again = f" (said {swarm.swarm_round_said}× in a row)" if swarm.swarm_round_said > 2 else ""
        game = f"Swarm: {swarm.swarm_round}{again}"
    warning = None
    if swarm.last_warning is not None:
        count = f" (the last of {swarm.warnings})" if swarm.warnings > 1 else ""
        warning = f"Warning{count}: {clip(swarm.last_warning, 160)}"
    download = None
    if swarm.state_download_seconds is not None:
        download = f"State: the last download from a peer took {text.duration(swarm.state_download_seconds)}"
    return ([game] if game else []) + ([warning] if warning else []) + ([download] if download else []) + ([rounds] if rounds else []) + ["  " + round_text(r, now) for r in swarm.rounds[:ROUND_LINES]] \
        + ([pace] if pace else []) + ([peers] if peers else [])


def rounds_line(swarm: SwarmView, now: float) -> str | None:
    """The rounds' counts, the last good one, the share of the last hour spent averaging."""
    if not (swarm.rounds_ok or swarm.rounds_failed or swarm.rounds):
        return None
    parts = [f"{swarm.rounds_ok} ok · {swarm.rounds_failed} failed"]
    if swarm.last_good_round_at is not None:
        parts.append(f"last good round {text.duration(max(0.0, now - swarm.last_good_round_at))} ago")
    elif swarm.rounds_ok == 0 and swarm.rounds_failed:
        parts.append("no good round yet")
    share, covered = swarm.averaging_share_last_hour, swarm.averaging_share_seconds
    if share is not None:
        hour = covered is None or covered >= 3600 - 1
        parts.append(f"{share:.0%} of the last {'hour' if hour else text.duration(covered or 0.0)} averaging")
    return "Rounds: " + " · ".join(parts)


def samples_rate(value: float) -> str:
    """Samples a second: one decimal, or three figures below 1 (a peer downloading the state does 0.00255)."""
    return f"{value:,.1f}" if abs(value) >= 1 or value == 0 else f"{value:.3g}"


def pace_line(swarm: SwarmView) -> str | None:
    """The collaboration's samples/s and this peer's, where the log gives them."""
    pace = []
    if swarm.samples_per_second is not None:
        pace.append(f"collaboration {samples_rate(swarm.samples_per_second)} samples/s")
    if swarm.local_samples_per_second is not None:
        pace.append(f"this peer {samples_rate(swarm.local_samples_per_second)} samples/s")
    return "Pace: " + " · ".join(pace) if pace else None


def peers_line(swarm: SwarmView) -> str | None:
    """The first peers of the table in a few words."""
    if not swarm.peers:
        return None
    shown = ", ".join(peer_text(p) for p in swarm.peers[:PEER_LINES])
    more = f" (+{swarm.peers_known - PEER_LINES} more)" if swarm.peers_known > PEER_LINES else ""
    return f"Peers: {shown}{more}"


ROUND_LINES = 3
PEER_LINES = 4


def round_text(r: RoundView, now: float) -> str:
    """One round in words: when, how long, group, outcome."""
    when = f"{text.duration(max(0.0, now - r.started_at))} ago" if r.started_at is not None else "time unknown"
    length = f" · {seconds_text(r.seconds)}" if r.seconds is not None else ""
    group = f" · {r.peers} peers" if r.peers is not None else ""
    if r.outcome == "running":
        outcome = "under way"
    elif r.outcome == "ok":
        outcome = "ok"
    else:
        at = f" at checkpoint {r.checkpoint}" if r.checkpoint is not None else ""
        outcome = f"failed{at}" + (f": {clip(r.error, 60)}" if r.error else "")
    who = []
    if r.failed_peers:
        who.append("failed " + ", ".join(r.failed_peers))
    if r.banned_peers:
        who.append("banned " + ", ".join(r.banned_peers))
    return f"round {when}{length}{group} · {outcome}" + (f" ({'; '.join(who)})" if who else "")


def peer_text(p: PeerView) -> str:
    """A peer in a few words: UID, id, rounds, failures, banned."""
    name = f"UID {p.uid} ({p.peer})" if p.uid is not None else p.peer
    bad = f", {p.failures} failed" if p.failures else ""
    return f"{name} {p.rounds} round{'s' if p.rounds != 1 else ''}{bad}" + (", banned" if p.banned else "")


def epochs_planned(epochs: int) -> str:
    """``50 epochs planned``, ``1 epoch planned``."""
    return f"{epochs:,} epoch{'' if epochs == 1 else 's'} planned"
