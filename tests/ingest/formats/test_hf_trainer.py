"""HF Trainer parser: dict styles across versions, tqdm bars redrawn with \\r and glued, eval bars."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.hf_trainer import HfTrainerParser
from app.stats.events import EvalResult, RunInfo, StageEnd, StageStart, StepFigures, TrainingPause, TrainStep

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample-hf-trainer.log"
BAR_10 = "  1%|▏         | 10/750 [00:06<07:54,  1.56it/s]"


def read(lines: list[str], parser: HfTrainerParser | None = None) -> tuple[list[object], int]:
    parser = parser or HfTrainerParser()
    return list(parser.feed(lines)), parser.bad_lines


DICTS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "4.x floats",
        "{'loss': 3.4843, 'grad_norm': 6.028540436652957, 'learning_rate': 4.933333333333334e-05, 'epoch': 0.03}",
        {"loss": 3.4843, "grad_norm": 6.028540436652957, "lr": 4.933333333333334e-05, "epoch": 0.03},
    ),
    (
        "2025/26 quoted .4g strings",
        "{'loss': '2.119', 'grad_norm': '37.66', 'learning_rate': '4.583e-05', 'epoch': '0.25'}",
        {"loss": 2.119, "grad_norm": 37.66, "lr": 4.583e-05, "epoch": 0.25},
    ),
    (
        "tokens seen (int stays unquoted)",
        "{'loss': '1.805', 'grad_norm': '3.2', 'learning_rate': '1e-05', 'epoch': '1.5', 'num_input_tokens_seen': 12845056}",
        {"loss": 1.805, "tokens_seen": 12845056},
    ),
    ("2020-21 unrounded epoch", "{'loss': 2.5, 'learning_rate': 5e-05, 'epoch': 0.3333333333333333}", {"epoch": 0.3333333333333333}),
    (
        "TRL extra keys",
        "{'loss': 0.01, 'learning_rate': 1e-06, 'rewards/accuracy_reward': 0.5, 'kl': 0.002, 'epoch': 0.1}",
        {"figures": (("rewards/accuracy_reward", 0.5), ("kl", 0.002))},
    ),
]


@pytest.mark.parametrize(("version", "line", "expected"), DICTS, ids=[d[0] for d in DICTS])
def test_log_dicts(version: str, line: str, expected: dict[str, Any]) -> None:
    events, bad = read([line])
    assert bad == 0
    (figures,) = events
    assert isinstance(figures, StepFigures)
    for key, value in expected.items():
        assert getattr(figures, key) == value, key


def test_bare_nan_loss() -> None:
    events, _ = read(["{'loss': nan, 'grad_norm': nan, 'learning_rate': 4.2666666666666665e-05, 'epoch': 0.29}"])
    (figures,) = events
    assert isinstance(figures, StepFigures) and figures.loss is not None and figures.loss != figures.loss


def test_old_json_with_a_step_key_is_a_step() -> None:
    events, _ = read(['{"loss": 2.5, "learning_rate": 5e-05, "epoch": 0.3, "step": 500}'])
    (step,) = events
    assert isinstance(step, TrainStep) and step.step == 500 and step.loss == 2.5


def test_the_step_comes_from_the_training_bar() -> None:
    events, _ = read(["  Total optimization steps = 750", BAR_10])
    assert events[0] == RunInfo(None, total_steps=750)
    step = events[1]
    assert isinstance(step, TrainStep)
    assert (step.step, step.total_steps, step.elapsed_seconds, step.trainer_eta_seconds) == (10, 750, 6.0, 474.0)
    assert step.step_seconds == pytest.approx(1 / 1.56)


def test_slow_bars_in_seconds_per_iteration() -> None:
    events, _ = read(["  1%|▏         | 10/750 [01:02:03<07:54,  4.20s/it]", "{'loss': 3.0, 'epoch': 0.1}"])
    step = events[0]
    assert isinstance(step, TrainStep) and step.step_seconds == 4.2 and step.elapsed_seconds == 3723.0


def test_bars_redrawn_with_carriage_returns_and_a_glued_dict() -> None:
    line = "\r" + BAR_10 + "\r  1%|▏         | 11/750 [00:07<07:54,  1.56it/s]{'loss': 3.48, 'learning_rate': 4.9e-05, 'epoch': 0.03}"
    events, bad = read([line])
    # one physical line is one step line: the last position drawn in it
    assert [type(e).__name__ for e in events] == ["TrainStep", "StepFigures"]
    assert [e.step for e in events if isinstance(e, TrainStep)] == [11]
    assert bad == 0


def test_a_redraw_of_the_same_position_is_not_a_new_step() -> None:
    events, _ = read(["  Total optimization steps = 750", BAR_10 + "\r" + BAR_10])
    assert len(events) == 2


def test_eval_bars_and_dicts() -> None:
    parser = HfTrainerParser()
    read(["  Total optimization steps = 750", BAR_10], parser)
    events, _ = read(
        [
            "100%|██████████| 125/125 [00:12<00:00, 10.13it/s]",
            ("{'eval_loss': 2.912345886230469, 'eval_runtime': 12.3456, 'eval_samples_per_second': 81.001,"
            " 'eval_steps_per_second': 10.125, 'epoch': 0.27}"),
        ],
        parser,
    )
    assert events == [TrainingPause(None, "evaluation"), EvalResult(None, "eval_loss", 2.912345886230469, 10)]


def test_an_eval_bar_is_told_apart_without_the_header() -> None:
    """No ``Total optimization steps`` line: the bar a loss dict follows is the training bar."""
    parser = HfTrainerParser()
    read([BAR_10, "{'loss': 3.4, 'learning_rate': 1e-05, 'epoch': 0.1}"], parser)
    events, _ = read(["  8%|▊         | 10/125 [00:01<00:11, 10.13it/s]"], parser)
    assert events == [TrainingPause(None, "evaluation")]


def test_a_cold_start_inside_an_evaluation_guesses_no_step() -> None:
    """Without the header, bars are held until a loss dict names the training bar."""
    parser = HfTrainerParser()
    events, _ = read(["  8%|▊         | 10/125 [00:01<00:11, 10.13it/s]", "{'eval_loss': 2.9, 'epoch': 0.27}"], parser)
    assert not any(isinstance(e, TrainStep) for e in events)
    events, _ = read(["  6%|▋         | 50/750 [00:32<07:28,  1.56it/s]{'loss': 3.1, 'learning_rate': 4e-05}"], parser)
    assert [type(e).__name__ for e in events] == ["TrainStep", "StepFigures"]
    events, _ = read(["  2%|▏         | 3/125 [00:01<00:11, 10.13it/s]"], parser)
    assert events == [TrainingPause(None, "evaluation")]


def test_the_first_loss_dict_overrules_a_header_that_disagrees() -> None:
    parser = HfTrainerParser()
    read(["  Total optimization steps = 700"], parser)
    events, _ = read(["  6%|▋         | 50/750 [00:32<07:28,  1.56it/s]{'loss': 3.1, 'learning_rate': 4e-05}"], parser)
    assert [type(e).__name__ for e in events] == ["TrainingPause", "TrainStep", "StepFigures"]
    events, _ = read([BAR_10.replace("10/750", "60/750")], parser)
    assert [e.step for e in events if isinstance(e, TrainStep)] == [60]


def test_header_and_summary() -> None:
    events, _ = read(
        [
            "***** Running training *****",
            "  0%|          | 0/750 [00:00<?, ?it/s]",
            ("{'train_runtime': '482.1', 'train_samples_per_second': '49.78', 'train_steps_per_second': '1.556',"
            " 'train_loss': '2.735', 'epoch': '2'}"),
        ]
    )
    # the 0/750 bar is no step, and which bar trains is not known yet: only the header starts
    assert events[0] == StageStart(None) and len(events) == 2
    assert isinstance(events[1], StageEnd) and "train_runtime 482.1" in (events[1].summary or "")


def test_a_wrapped_dict_is_joined() -> None:
    line = "{'loss': 3.1186, 'grad_norm': 11.983922801741164, 'learning_rate': 4.666666666666667e-05, 'epoch': 0.13}"
    whole, _ = read([line])
    for cut in range(1, len(line)):
        events, bad = read([line[:cut], line[cut:]])
        assert events == whole and bad == 0, cut


def test_a_dict_whose_tail_is_lost_is_counted_not_read() -> None:
    events, bad = read(["{'loss': 3.1186, 'grad_norm': 11.98", BAR_10])
    assert bad == 1 and all(not isinstance(e, StepFigures) for e in events)


def test_the_sample_reads_whole() -> None:
    events, bad = read(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert bad == 0
    steps = [e.step for e in events if isinstance(e, TrainStep)]
    assert steps == [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 750]
    assert sum(isinstance(e, StepFigures) for e in events) == 11
    assert isinstance(events[-1], StageEnd)
