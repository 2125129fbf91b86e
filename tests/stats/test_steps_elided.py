"""Steps the log leaves out (an author's "..." over an excerpt's middle, lines missing) are no time measured:
an undated line that comes more steps after the one before than the log's printed cadence starts the rate's
stretch again, one line at a time and in bulk alike."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.ingest.formats import create_parser
from app.snapshot import SourceView
from app.stats.events import Event, StepRun, TrainStep
from app.stats.steps.placing import placed_times
from app.stats.steps.tracker import StepTracker

ROOT = Path(__file__).parents[2]
END = 1_795_000_000.0

# karpathy/nanoGPT issue #97 "High validation loss when fine-tuning Shakespeare on gpt-xl?"
# (https://github.com/karpathy/nanoGPT/issues/97), description by tombenj, 2023-01-30: its first fenced block, whole.
# The author's "..." hides iterations 800-996; the lines print no date, each its last iteration's time.
ISSUE_97 = """\
iter 791: loss 1.2052, time 745.63ms
iter 792: loss 1.1750, time 745.47ms
iter 793: loss 1.0942, time 745.50ms
iter 794: loss 1.9608, time 745.64ms
iter 795: loss 0.6159, time 745.74ms
iter 796: loss 0.9267, time 745.76ms
iter 797: loss 2.4209, time 745.26ms
iter 798: loss 1.0178, time 746.26ms
iter 799: loss 0.6466, time 745.67ms
step 800: train loss 0.9795, val loss 3.7535
saving checkpoint to out-shakespeare
...
iter 997: loss 1.1173, time 747.40ms
iter 998: loss 0.2788, time 745.33ms
iter 999: loss 0.3390, time 745.36ms
step 1000: train loss 0.6703, val loss 3.8986
"""


def source() -> SourceView:
    return SourceView(path=None, size_bytes=None, lines_read=0, bad_lines=0, last_event_at=None)


def once(log: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "once", "--json", "--at", "end", "--no-history", "--log", str(log)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def rate_of(data: dict[str, object]) -> dict[str, object]:
    rate = data["rate"]
    assert isinstance(rate, dict)
    return rate


def test_the_time_across_an_authors_ellipsis_is_not_measured(tmp_path: Path) -> None:
    log = tmp_path / "issue97.log"
    log.write_text(ISSUE_97)
    data = once(log)
    rate = rate_of(data)
    # Measured from iter 997's line on: iters 998 and 999, 745.33 + 745.36 ms (not the 2 min 35 s that 197 unseen
    # iterations at 745 ms each would make of the "...").
    assert rate["observed_seconds"] == pytest.approx(1.49069)
    assert rate["passes_in_window"] == 2
    assert rate["measured"] is False
    warmup = data["warmup"]
    assert isinstance(warmup, dict)
    assert " 1 s of 3 min" in str(warmup["text"]) and "2 min" not in str(warmup["text"])
    assert data["step"] == 999


def composed(cadence: int, before: range, after: range, ms: float) -> str:
    """nanoGPT's lines every ``cadence`` iterations, ``ms`` each iteration, over the two ranges and an elision."""
    lines = [f"iter {i}: loss {4 - i / 10_000:.4f}, time {ms:.2f}ms, mfu 30.00%" for i in before[::cadence]]
    lines += ["...", *(f"iter {i}: loss {3 - i / 100_000:.4f}, time {ms:.2f}ms, mfu 30.00%" for i in after[::cadence])]
    return "\n".join(lines) + "\n"


def test_a_gap_past_the_cadence_starts_the_rate_again(tmp_path: Path) -> None:
    # Every 10 iterations of 1 s each, iters 0-190, then 1000-1100 after the elision. By hand: iter 1000's line is
    # where the stretch starts again; 1010-1100 are 10 lines of 10 iterations of 1 s: 100 s and 100 steps, short of
    # the 3-minute warm-up (before: the 1000 hidden iterations made 1100 s of it and a rate of 3.6k steps/h).
    log = tmp_path / "every-10.log"
    log.write_text(composed(10, range(200), range(1000, 1101), 1000.0))
    rate = rate_of(once(log))
    assert rate["observed_seconds"] == pytest.approx(100.0)
    assert rate["passes_in_window"] == 100
    assert rate["measured"] is False


def test_lines_at_their_usual_cadence_are_measured_through(tmp_path: Path) -> None:
    # The same log without the gap: iters 0-1100 every 10, 1 s each, from iter 0's start (its own printed second
    # before its line): 1101 s observed (under the 20-min window), 1 + 110 x 10 = 1101 steps in it, 3600 steps/h.
    log = tmp_path / "no-gap.log"
    log.write_text(composed(10, range(1000), range(1000, 1101), 1000.0).replace("...\n", ""))
    data = once(log)
    rate = rate_of(data)
    assert rate["observed_seconds"] == pytest.approx(1101.0)
    assert rate["passes_in_window"] == 1101
    assert data["status_line"] == "step 1100 · 3.6k steps/h"


def test_a_dated_gap_is_measured_on_the_logs_own_dates() -> None:
    # Dated lines: the time across the gap is the log's own, not made up, and the stretch goes on. Iters 0-3 a
    # minute apart (6 s each, as printed), then iter 13 a minute later (10 iterations, 9 x 6 + 6 = 60 s as printed,
    # as its date says). By hand: from iter 0's start (6 s before its line) to iter 13's line, 246 s and 14 steps.
    parser = create_parser("nanogpt")
    events = parser.feed([f"iter {i}: loss 2.0, time 6000.00ms" for i in (0, 1, 2, 3, 13)])
    tracker = StepTracker("nanogpt")
    for event, at in zip(events, (END, END + 60, END + 120, END + 180, END + 240), strict=True):
        tracker.apply(replace(event, at=at))
    rate = tracker.snapshot(END + 240, source()).rate
    assert rate.observed_seconds == pytest.approx(246.0)
    assert rate.passes_in_window == 14


def _one_by_one(lines: list[str], log_format: str) -> tuple[StepTracker, list[float | None], list[Event | StepRun]]:
    """A tracker fed ``lines`` one event at a time, placed back from END; the events' times and the lines read as the
    history import reads them (runs of usual lines as StepRuns), for a tracker fed in bulk beside it."""
    events = create_parser(log_format).feed(lines)
    times = placed_times(events, END)
    single = StepTracker(log_format)
    for event, at in zip(events, times, strict=True):
        single.apply(event, END, at)
    items: list[Event | StepRun] = create_parser(log_format).feed_runs(lines)  # type: ignore[attr-defined]
    return single, times, items


def _runs(bulk: StepTracker, items: list[Event | StepRun], times: list[float | None]
          ) -> Iterator[tuple[StepRun, list[float]]]:
    """The runs among ``items``, each with its lines' times; the events between them applied to ``bulk`` one at a
    time, as the history import applies them."""
    i = 0
    for item in items:
        if not isinstance(item, StepRun):
            bulk.apply(item, END, times[i])
            i += 1
            continue
        run_times = [t for t in times[i : i + len(item)] if t is not None]
        assert len(run_times) == len(item)
        i += len(item)
        yield item, run_times


def bulk_and_one_by_one(lines: list[str], log_format: str = "nanogpt") -> tuple[StepTracker, StepTracker]:
    """Two trackers fed ``lines`` placed back from END: one event at a time, and as the history import does (each
    run's first step alone, then as many as :meth:`StepTracker.run_end` allows in bulk)."""
    single, times, items = _one_by_one(lines, log_format)
    assert any(isinstance(item, StepRun) for item in items)
    bulk = StepTracker(log_format)
    bulked = 0
    for item, run_times in _runs(bulk, items, times):
        k = 0
        while k < len(item):
            bulk.apply(item.step(k), END, run_times[k])
            k += 1
            if k < len(item):
                end = bulk.run_end(item, k, run_times, END, END + 1)
                if end > k:
                    bulk.apply_run(item, k, run_times[k:end])
                    bulked += end - k
                k = max(k, end)
    assert bulked > 0
    return single, bulk


def runs_whole_and_one_by_one(lines: list[str], cut_at: int | None = None
                              ) -> tuple[StepTracker, StepTracker, set[int], list[Event | StepRun]]:
    """Two trackers fed nanoGPT-read ``lines`` placed back from END: one event at a time, and each run in bulk from its
    first step on, as far as :meth:`StepTracker.run_end` allows (the rest one at a time); with the steps taken in bulk
    and the items read. ``cut_at``: a step whose line the import takes alone, its run cut there (a 5-minute look or an
    hour's batch ends the run before it)."""
    single, times, items = _one_by_one(lines, "nanogpt")
    bulk = StepTracker("nanogpt")
    bulked: set[int] = set()
    for item, run_times in _runs(bulk, items, times):
        cut = item.steps.index(cut_at) if cut_at in item.steps else len(item)
        k = 0
        while k < len(item):
            end = k if k == cut else bulk.run_end(item, k, run_times[:cut] if k < cut else run_times, END, END + 1)
            if end > k:
                bulked.update(item.steps[k:end])
                bulk.apply_run(item, k, run_times[k:end])
                k = end
            else:
                bulk.apply(item.event(k), END, run_times[k])
                k += 1
    return single, bulk, bulked, items


def iters(steps: range) -> list[str]:
    return [f"iter {i}: loss {4 - i / 10_000:.4f}, time 500.00ms, mfu 30.00%" for i in steps]


def test_in_bulk_a_gap_past_the_cadence_is_taken_as_one_line_at_a_time() -> None:
    # One iteration a line, 500 ms each; iterations 300-319 missing (no line says so): 10 s, inside one of the
    # history's 30-s samples, so the import would take the line in bulk. By hand: the stretch starts again at 320's
    # line; 321-419 are 99 lines of 0.5 s: 49.5 s, 99 steps.
    lines = iters(range(300)) + iters(range(320, 420))
    single, bulk = bulk_and_one_by_one(lines)
    for tracker in (single, bulk):
        snap = tracker.snapshot(END, source())
        assert snap.rate.observed_seconds == pytest.approx(49.5)
        assert snap.rate.passes_in_window == 99


def test_a_trainers_own_clock_across_the_gap_is_measured_through() -> None:
    # modded-nanogpt's way: every step at first, then every 10th, each line with the trainer's elapsed clock
    # (``train_time``) and its step time. Steps 1-5 and then 10, 20 ... 200, one second a step: the clock says how
    # long the steps between lines took, so nothing is made up. By hand: from step 1's start (the clock's 0) to
    # step 200's line, 200 s and 200 steps.
    steps = [*range(1, 6), *range(10, 201, 10)]
    events = [TrainStep(at=None, stage="train", step=s, loss=3.0, step_seconds=1.0, elapsed_seconds=float(s))
              for s in steps]  # fmt: skip
    tracker = StepTracker("modded-nanogpt")
    tracker.apply_all(events, END, arrival=END)
    rate = tracker.snapshot(END, source()).rate
    assert rate.observed_seconds == pytest.approx(200.0)
    assert rate.passes_in_window == 200


def test_in_bulk_the_first_line_after_an_evaluation_ended_a_wait_as_one_at_a_time() -> None:
    # modded-nanogpt's record script: a step every 50 ms on its clock, a validation at step 40, then ten more steps.
    # One by one, step 41's line is the first after the evaluation: its time held the evaluation's wait, and the
    # step time of the recent lines leaves it out (stage.step_seconds). The import takes step 41 in bulk, the
    # evaluation's line inside the same run: the same ten lines, the first of them after the wait.
    def line(step: int, figure: str) -> str:
        return f"step:{step}/100 {figure} train_time:{step * 50}ms step_avg:50.00ms"

    lines = [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(1, 41)]
    lines += [line(40, "val_loss:3.7000")] + [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(41, 51)]
    single, bulk, bulked, items = runs_whole_and_one_by_one(lines)
    assert 41 in bulked and any(item.evals for item in items if isinstance(item, StepRun))  # (the evaluation in the run)
    one, many = single.progress.stage, bulk.progress.stage
    assert one is not None and many is not None
    assert list(one.ended_wait)[-10:] == [True] + [False] * 9
    assert many.ended_wait == one.ended_wait
    assert many.line_durations == one.line_durations


def test_a_line_alone_after_a_bulk_run_that_followed_an_evaluation_ended_no_wait() -> None:
    # As above, with twenty steps after the validation at step 40, and step 51's line applied alone, as a
    # 5-minute look or an hour's batch cuts the import's run there (41-50 in bulk, 51 alone, 52-60 in bulk). One by
    # one, step 41's line ended the evaluation's wait and step 51's none: its time is its own.
    def line(step: int, figure: str) -> str:
        return f"step:{step}/100 {figure} train_time:{step * 50}ms step_avg:50.00ms"

    lines = [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(1, 41)]
    lines += [line(40, "val_loss:3.7000")] + [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(41, 61)]
    single, bulk, bulked, _ = runs_whole_and_one_by_one(lines, cut_at=51)  # (the run cut after step 50: 51 alone)
    assert 51 not in bulked and {41, 52} <= bulked
    one, many = single.progress.stage, bulk.progress.stage
    assert one is not None and many is not None
    assert list(one.ended_wait)[-20:] == [True] + [False] * 19
    assert many.ended_wait == one.ended_wait
    assert (many.evaluated, many.pause) == (one.evaluated, one.pause) == (False, None)


@pytest.mark.parametrize("evaluated", [False, True])
def test_in_bulk_the_step_before_the_latest_and_the_counters_move_are_one_by_ones(evaluated: bool) -> None:
    # The step line before the latest (a bar redrawn after the run's end is matched against it) and when the counter
    # last moved (a slow counter's rate is timed from it): the import's bulk path leaves both as one event at a time
    # does, also where the stretch ends in an evaluation's line (modded-nanogpt's ``step:40/100 val_loss:…``, the
    # step printed again: the one before the latest is then that same step).
    def line(step: int, figure: str) -> str:
        return f"step:{step}/100 {figure} train_time:{step * 50}ms step_avg:50.00ms"

    lines = [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(1, 41)]
    if evaluated:
        lines.append(line(40, "val_loss:3.7000"))
    single, bulk = bulk_and_one_by_one(lines)
    one, other = single.progress._stage, bulk.progress._stage
    assert one is not None and other is not None
    assert (repr(one.latest), repr(one.before_latest), one.moved_at) == (
        repr(other.latest), repr(other.before_latest), other.moved_at)
    assert one.before_latest is not None and one.before_latest.step == (40 if evaluated else 39)


@pytest.mark.parametrize("total", [5000, 301])
def test_a_planned_total_printed_apart_reaches_the_steps_in_bulk_as_one_by_one(total: int) -> None:
    # nanoGPT's ``Overriding: max_iters = N`` before its iterations: each step's total, in the history import's
    # columns as one event at a time (a stretch that reaches its total goes one by one: the replay test's "planned")
    single, bulk = bulk_and_one_by_one([f"Overriding: max_iters = {total}", *iters(range(301))])
    one, other = single.progress._stage, bulk.progress._stage
    assert one is not None and other is not None
    assert one.latest.total_steps == total
    assert (repr(one.latest), repr(one.before_latest), one.done_at) == (
        repr(other.latest), repr(other.before_latest), other.done_at)
def test_in_bulk_the_lines_spacing_leaves_out_evaluation_lines_apart_in_time_as_one_at_a_time() -> None:
    # modded-nanogpt's lines, a step every 50 ms on its clock, with validations at steps 40 and 45 whose lines come 3 s
    # after their step's (a clock that ran on through the evaluation), and two after the last step: each prints its
    # step again, apart in time, but no training loss: the evaluation's time, not the training lines' spacing (when the
    # next is due: the stall limit). One by one each is left out as it comes; the import takes the steps in bulk, the
    # evaluations' lines inside the run: the same spacing.
    clock = {"ms": 0}

    def line(step: int, figure: str, ms: int = 50) -> str:
        clock["ms"] += ms
        return f"step:{step}/100 {figure} train_time:{clock['ms']}ms step_avg:50.00ms"

    lines = [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(1, 41)]
    lines += [line(40, "val_loss:3.7000", 3000)] + [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(41, 46)]
    lines += [line(45, "val_loss:3.6000", 3000)] + [line(s, f"train_loss:{4 - s / 100:.4f}") for s in range(46, 51)]
    lines += [line(50, "val_loss:3.5000", 3000), line(50, "val_loss:3.4000", 2000)]  # (two after the last step)
    single, bulk, _, _ = runs_whole_and_one_by_one(lines)
    one, many = single.progress.stage, bulk.progress.stage
    assert one is not None and many is not None
    # (by hand: each validation's line 3 s after its step's, the step after it 50 ms on; the moves' own times beside)
    # (by hand, the latest 21: steps 30-50's, each 50 ms on the trainer's clock after the line before it)
    assert list(one.line_gaps) == pytest.approx([0.05] * 21, abs=1e-6)
    assert not one.spaced
    assert many.line_gaps == one.line_gaps and many.spaced == one.spaced
    assert many.line_durations == one.line_durations
