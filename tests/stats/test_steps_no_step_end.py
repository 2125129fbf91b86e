"""An end read before any step line: the run is over, with no step, no rate and no count of steps."""

from __future__ import annotations

from app.snapshot import SourceView
from app.stats.events import StageEnd, StageStart
from app.stats.steps.tracker import StepTracker

SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=3, bad_lines=0, last_event_at=None)
T0 = 1_800_000_000.0


def test_a_stop_in_the_run_s_own_words_with_no_step_before_it_is_done_stopped_early() -> None:
    """AllenNLP's ``Ran out of patience.  Stopping training.`` read as a stop said short of the plan."""
    tracker = StepTracker("generic")
    tracker.apply(StageEnd(at=T0, summary="Ran out of patience.  Stopping training.", said=True, early=True))
    snapshot = tracker.snapshot(T0 + 60, SOURCE)
    assert (snapshot.status_line, snapshot.state) == ("done · stopped early · no step line", "done")
    assert snapshot.step is None and snapshot.training is not None and snapshot.training.finished
    assert snapshot.details[:2] == ("Stopped early: Ran out of patience.  Stopping training.",
                                    "no rate: the log holds the run's end, no step line")


def test_a_save_said_alone_is_no_end() -> None:
    """``model saved`` with no step: mid-run saves say the same, so it ends nothing."""
    tracker = StepTracker("generic")
    tracker.apply(StageEnd(at=T0, summary="model saved", said=True, saved=True))
    assert tracker.snapshot(T0 + 60, SOURCE).state == "working"


def test_the_wait_for_a_first_step_is_timed_from_the_announced_start() -> None:
    """Training announced at T0, no step line by T0 + 59 min: waiting; by T0 + 60 min 1 s: stalled."""
    tracker = StepTracker("hf-trainer")
    tracker.apply(StageStart(at=T0))
    waiting = tracker.snapshot(T0 + 3540, SOURCE)
    assert (waiting.status_line, waiting.state) == ("waiting for first step", "working")
    stalled = tracker.snapshot(T0 + 3601, SOURCE)
    assert (stalled.status_line, stalled.state) == ("no step yet · stalled 1h00m", "stalled")
