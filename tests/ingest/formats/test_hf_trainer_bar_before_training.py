"""A training bar at 0, drawn again under an evaluation's dict before the first step: its total is the run's."""

from __future__ import annotations

import pytest

from app.ingest.formats.hf_trainer import HfTrainerParser
from app.stats.events import RunInfo, TrainStep
from tests.reallogs import body

EVAL = ("{{'eval_loss': 0.6949695348739624, 'eval_accuracy': 0.4954128440366973, 'eval_runtime': {runtime}, "
        "'eval_samples_per_second': 131.139, 'eval_steps_per_second': 16.392, 'epoch': 0}}")


def _read(lines: list[str]) -> list[object]:
    parser = HfTrainerParser()
    events = list(parser.feed(lines))
    assert parser.bad_lines == 0
    return events


def test_the_bar_under_evaluations_before_training_gives_the_run_s_total() -> None:
    """An evaluation at step 0 (1.2867 s), the bar redrawn at ``0/6000 [00:07<?`` under it: 6000 planned steps (the
    evaluation's own batches were 1.2867 x 84.713 = 109), and no step taken."""
    events = _read(body("hf-intel-extension-pr152-eval-before-training-bar-0-of-6000-redrawn-under-eval-dicts.log"))
    assert [e.total_steps for e in events if isinstance(e, RunInfo)] == [6000]
    assert not any(isinstance(e, TrainStep) for e in events)


@pytest.mark.parametrize(("runtime", "bar", "total"), [
    # the bar's clock (12 s) ran through the 12.3456 s evaluation: drawn before it, so the training's bar
    ("12.3456", "  0%|          | 0/750 [00:12<?, ?it/s]", 750),
    ("12.3456", "  0%|          | 0/750 [00:40<?, ?it/s]", 750),
    # a bar just begun (another evaluation set's batches start at 00:00): nothing said of the run
    ("12.3456", "  0%|          | 0/125 [00:00<?, ?it/s]", None),
    # a clock younger than the evaluation just ended: not a bar drawn before it
    ("12.3456", "  0%|          | 0/750 [00:05<?, ?it/s]", None),
    # an evaluation under a second: a bar at 00:00 tells nothing either way
    ("0.4", "  0%|          | 0/750 [00:00<?, ?it/s]", None),
])  # fmt: skip
def test_only_a_bar_older_than_the_evaluation_is_the_training_s(runtime: str, bar: str, total: int | None) -> None:
    events = _read([EVAL.format(runtime=runtime), bar])
    assert [e.total_steps for e in events if isinstance(e, RunInfo)] == ([total] if total is not None else [])
    assert not any(isinstance(e, TrainStep) for e in events)


def test_the_steps_that_follow_count_against_that_total() -> None:
    events = _read([EVAL.format(runtime="12.3456"), "  0%|          | 0/750 [00:12<?, ?it/s]",
                    "  1%|▏         | 10/750 [00:18<07:54,  1.56it/s]"])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps) for s in steps] == [(10, 750)]


def test_the_status_names_the_planned_steps_of_an_evaluation_before_training() -> None:
    """Two evaluations at step 0, the training bar redrawn under each (6 s then 7 s on its clock): validation at
    step 0 of the 6,000 planned."""
    from app.live.monitor import Monitor

    now = 1_800_000_000.0
    monitor = Monitor(None, clock=lambda: now)
    monitor.lines([EVAL.format(runtime="6.6494"), "  0%|          | 0/6000 [00:06<?, ?it/s]",
                   EVAL.format(runtime="1.2867"), "  0%|          | 0/6000 [00:07<?, ?it/s]"])
    snapshot = monitor.snapshot(now)
    assert snapshot.status_line == "validation only · step 0 of 6,000"
