"""Where undated step lines sit in time, from the durations the trainer printed itself.

torchtitan and SN38 print their own times. nanochat, nanoGPT, llm.c and HF print none, so
their parsers emit ``at=None`` and :func:`place_in_time` (placing.py) gives those events times before the
tracker applies them: the last line of a batch gets the moment it was read (its arrival; for a
cold start, the log file's modification time, when its last line was written) and each earlier
line steps back by the durations the trainer printed itself (``dt``, ``time …ms``, ``… ms``,
tqdm's elapsed clock). So a cold start on an undated log is measured at once on the trainer's
own clock (which leaves out the evaluation pauses the trainer does not time), and live lines
are measured on arrival. Where no duration is printed (nanochat RL) earlier lines stay undated:
their figures show, and the window fills from live arrivals.
"""

from __future__ import annotations

from ..events import TrainStep


def covered_steps(previous: TrainStep | None, step: TrainStep) -> int | None:
    """How many steps ``step``'s line accounts for after ``previous`` (None: not comparable)."""
    if previous is None or previous.stage != step.stage or previous.logged != step.logged:
        return None
    if step.outer_step is not None and previous.outer_step is not None and step.outer_step != previous.outer_step:
        # SN38: the inner step restarts at 0 with each outer step (DiLoCo round).
        return step.step + 1 if step.outer_step > previous.outer_step else None
    delta = step.step - previous.step
    return delta if delta > 0 else None


# The log's own dates over a printed duration they contradict: a step line whose printed time for its steps
# is more than CLOCK_FACTOR times what the dates of it and the step line before allow (a date's second of
# slack on each) cannot be those steps' time; the field is something else (flair's ``time (sec)`` is the
# epoch's elapsed time, read as a step's until three lines show it growing). The dates must be a second
# apart or more: lines stamped in one burst (a buffered pipe's, by a wrapper) say nothing of the steps.
CLOCK_FACTOR = 2.0
CLOCK_SLACK_SECONDS = 1.0


def clock_gap(previous: TrainStep, step: TrainStep) -> float | None:
    """The seconds between two step lines by the log's own dates (None: either undated, or out of order)."""
    if previous.at is None or step.at is None or step.at < previous.at:
        return None
    return step.at - previous.at


def clock_contradicts(printed_seconds: float, gap_seconds: float) -> bool:
    """A line's printed duration is more than the log's own dates allow (:data:`CLOCK_FACTOR`)."""
    return (gap_seconds >= CLOCK_SLACK_SECONDS
            and printed_seconds > CLOCK_FACTOR * (gap_seconds + CLOCK_SLACK_SECONDS))


def timeline_offset(previous: TrainStep | None, step: TrainStep, offset: int) -> int:
    """What to add to ``step``'s own step to place it on the run's one timeline, after ``previous`` (whose
    place was ``previous.step + offset``; None after a new run's start, or before any step).

    A counter that restarts while the run goes on is counted on from where the timeline was, so the
    loss chart, the steps/h history and the round markers never fold back on themselves:

    * SN38's inner step goes back to 0 whenever the miner's outer step (its all-reduce round) is done,
      or its state was loaded (KMFODA/DistributedTraining ``neurons/miner.py``: ``inner_step = 0``;
      the older miner also after a failed round, its outer step unchanged). Inner steps are counted
      from 0: the line after the restart is ``step + 1`` steps on (as :func:`covered_steps` counts them).
    * A trainer that counts its batches again at each epoch (fairseq's ``epoch 011  3000 / 8223``): the
      epoch before ends at its count (8223 on, whether it counts from 0 or from 1), or where no count is
      printed, the line after the restart is its own count on, and at least one step.

    Any other step back is a new run or a resume from a checkpoint, whose steps are the model's: the
    timeline is the log's step again. hivemind's local step after a state download takes the swarm's
    (a step forward, said as the log says it).
    """
    if previous is None or previous.stage != step.stage or previous.logged != step.logged:
        return 0
    if step.outer_step is not None and previous.outer_step is not None:
        if step.outer_step == previous.outer_step and step.step >= previous.step:
            return offset
        return previous.step + offset + 1
    if (not step.ends_at_total and step.epoch is not None and previous.epoch is not None
            and step.epoch > previous.epoch):  # (a count of the epoch's batches: the generic reader's bars)
        if previous.total_steps is not None and previous.total_steps >= previous.step:
            # The epoch's count was done (its steps after the last line too), and so were those of any epoch
            # the log does not show (an excerpt from epoch 0 to epoch 19), each as long as the bar says.
            epochs = step.epoch - previous.epoch
            whole = int(epochs) if epochs == int(epochs) else 1
            return offset + previous.total_steps * whole
        return previous.step + offset + max(step.step, 1) - step.step
    if step.step >= previous.step:
        return offset
    return 0


def timeline_covered(previous: TrainStep | None, step: TrainStep, before: int, after: int) -> int | None:
    """:func:`covered_steps`, or where the step counter restarted while the run went on (an epoch's batches
    counted again), the steps between the two lines on the run's one timeline (``before``, ``after``: the
    previous line's and this line's :func:`timeline_offset`)."""
    covered = covered_steps(previous, step)
    if covered is None and previous is not None and after != before and step.step + after > previous.step + before:
        return step.step + after - (previous.step + before)
    return covered


# A bar's clock in whole seconds: read as its steps' time from this long on (within a tenth).
BAR_CLOCK_SECONDS = 10.0


def clock_restarted(previous: TrainStep, step: TrainStep) -> bool:
    """Where the step count started again (a new epoch's), whether the trainer's clock did too: it went back (legacy
    OpenNMT-py's epoch clock, ``69 s elapsed`` at the end of epoch 9, ``5 s elapsed`` 50 batches into epoch 10), or
    the count came back to where it was (tianshou's closing bars, ``50001it [00:40`` then ``50001it [00:42``: each
    bar's own time). A clock that went on while the count went back is the run's, running over the epoch's end
    (``840 s elapsed`` at batch 1500, ``870 s elapsed`` at the next epoch's batch 50): its span is those steps'."""
    if step.elapsed_seconds is None or previous.elapsed_seconds is None:
        return False
    return step.elapsed_seconds < previous.elapsed_seconds or step.step >= previous.step


def line_seconds(previous: TrainStep | None, step: TrainStep, covered: int | None = None) -> float | None:
    """The time ``step``'s line accounts for, from the trainer's own printed durations.

    ``covered``: :func:`timeline_covered` of the two, when the caller has it already; else the steps between
    them, counted on over a count that restarts while the run goes on (an epoch's batches counted again).
    """
    if covered is None:
        covered = covered_steps(previous, step)
        if covered is None and previous is not None:
            covered = timeline_covered(previous, step, 0, timeline_offset(previous, step, 0))
    if previous is not None and covered is not None:
        if step.elapsed_seconds is not None and previous.elapsed_seconds is not None:
            if (step.step > 0 and covered_steps(previous, step) is None and step.elapsed_seconds >= BAR_CLOCK_SECONDS
                    and clock_restarted(previous, step)):
                # The count started again (a new epoch's bar) and its clock with it: the bar's own time since it
                # started, at its pace for the steps since the line before (two closing bars ``[00:53<00:00`` are
                # 53 s of steps apart, not none).
                return step.elapsed_seconds * covered / step.step
            delta = step.elapsed_seconds - previous.elapsed_seconds
            # (a clock of whole seconds that has not moved over steps whose time no line prints says they took less
            # than one, not none: a bar's ``[00:00<?, ?it/s]`` after its ``[00:00<…`` times nothing)
            if delta > 0 or (delta == 0 and (covered == 0 or step.step_seconds is not None)):
                return delta
        if step.tokens and step.tokens_per_second and step.tokens_per_second > 0 and not step.per_device:
            # The tokens since the last line at the trainer's own tokens a second (MLX-LM's ``Tokens/sec``
            # and ``Trained Tokens``, both over its report's iterations): the time they took, so that the
            # tokens an hour measured are the ones the log prints, never more.
            return step.tokens / step.tokens_per_second
        if step.step_seconds is not None and step.interval_average:
            return step.step_seconds * covered  # (each step of the interval at its average)
        if step.step_seconds is not None:
            # nanoGPT's ``time`` is the last iteration's only, and the iteration after an
            # evaluation (or the first, compiling) includes that pause: the other iterations of
            # the interval took the smaller of this line's and the previous line's time.
            others = step.step_seconds
            if previous.step_seconds is not None:
                others = min(others, previous.step_seconds)
            return others * (covered - 1) + step.step_seconds
        return None
    if previous is not None and previous.stage == step.stage and previous.step == step.step:
        # The same step printed again (its validation, a redraw): only the clock between them.
        if step.elapsed_seconds is not None and previous.elapsed_seconds is not None:
            return max(0.0, step.elapsed_seconds - previous.elapsed_seconds)
        return 0.0
    return step.step_seconds
