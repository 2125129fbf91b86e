"""HF Trainer parser: dict styles across versions, tqdm bars redrawn with \\r and glued, eval bars."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats.hf_trainer import HfTrainerParser
from app.stats.events import EvalResult, RunInfo, StageEnd, StageStart, StepFigures, TrainingPause, TrainStep
from tests.reallogs import body

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
    """After the training bar, a dict carries the figures of the bar's step."""
    events, bad = read(["  Total optimization steps = 750", BAR_10, line])
    assert bad == 0
    figures = events[-1]
    assert isinstance(figures, StepFigures)
    for key, value in expected.items():
        assert getattr(figures, key) == value, key


def test_bare_nan_loss() -> None:
    events, _ = read(["{'loss': nan, 'grad_norm': nan, 'learning_rate': 4.2666666666666665e-05, 'epoch': 0.29}"])
    (step,) = events
    assert isinstance(step, TrainStep) and step.loss is not None and step.loss != step.loss


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


def test_an_evaluation_s_own_size_and_speed_are_not_figures_of_the_model() -> None:
    # TRL's SFTTrainer adds eval_num_tokens (how many tokens the evaluation read), newer
    # transformers eval_model_preparation_time: bookkeeping, like eval_runtime. The model's
    # figures (loss, entropy, token accuracy) are kept.
    parser = HfTrainerParser()
    read(["  Total optimization steps = 750", BAR_10], parser)
    events, _ = read(
        [("{'eval_loss': 1.25, 'eval_runtime': 3.5, 'eval_samples_per_second': 20.0, 'eval_steps_per_second': 2.5,"
          " 'eval_entropy': 0.875, 'eval_num_tokens': 819200.0, 'eval_mean_token_accuracy': 0.625,"
          " 'eval_model_preparation_time': 0.0031, 'epoch': 0.27}")],
        parser,
    )
    assert events == [EvalResult(None, "eval_loss", 1.25, 10), EvalResult(None, "eval_entropy", 0.875, 10),
                      EvalResult(None, "eval_mean_token_accuracy", 0.625, 10)]


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
    # (a loss dict's figures each, then the summary dict's ``'epoch': 2.0``: the run's epoch as it ended)
    assert sum(isinstance(e, StepFigures) for e in events) == 12
    assert [e.epoch for e in events if isinstance(e, StepFigures)][-1] == 2.0
    assert isinstance(events[-1], StageEnd)


# Real logs (tests/data/real/, each names its source); the figures were read off the lines by hand.
@pytest.mark.parametrize(
    ("name", "logged", "last"),
    [
        ("hf-trl-issue733-dicts-only.log", 11, {"loss": 0.5311, "lr": 1e-05, "epoch": 0.15}),
        ("hf-modal-pr82-dicts-only.log", 13, {"loss": 0.0756, "grad_norm": 3.056258619540342, "epoch": 0.58}),
        ("hf-llamafactory-issue3529-dicts-only.log", 6, {"loss": 1.7414, "lr": 1.8611664616633675e-05, "epoch": 1.74}),
    ],
)
def test_dicts_without_a_bar_are_logged_steps(name: str, logged: int, last: dict[str, float]) -> None:
    """``python train.py > train.log`` keeps the dicts, not the bar (stderr): each dict is a logged step."""
    events, bad = read(body(name))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0 and len(steps) == logged and all(s.logged for s in steps)
    assert [s.step for s in steps] == list(range(1, logged + 1))
    for key, value in last.items():
        assert getattr(steps[-1], key) == pytest.approx(value), key


def test_caret_m_pasted_takes_the_last_bar_of_the_line() -> None:
    """h2oai/h2ogpt#86: a pager shows tqdm's carriage returns as "^M"; each line ends at its last bar."""
    events, bad = read(body("hf-h2ogpt-pr86-caret-m.log"))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0
    assert [s.step for s in steps] == [1295, 1296, 1297, 1298, 1299]
    assert steps[-1].total_steps == 36234
    assert steps[-1].step_seconds == pytest.approx(1 / 1.89)  # the bar's own rate, not its 1 s clock
    assert steps[-1].trainer_eta_seconds == 5 * 3600 + 7 * 60 + 58
    assert [e.loss for e in events if isinstance(e, StepFigures)][-1] == 1.1192


CUT_BARS: list[tuple[str, dict[str, Any]]] = [
    ("  2%|▍         | 4/203 [00:37<30:55,  9.33s/i", {"step": 4, "total_steps": 203, "elapsed_seconds": 37.0,
                                                       "trainer_eta_seconds": 1855.0, "step_seconds": 9.33}),
    ("  2%|▌         | 5/203 [00:47<30:51,  9.35s/", {"step": 5, "step_seconds": 9.35}),
    ("  1%|▏         | 2/203 [00:01<02:00,  1.90it/", {"step": 2, "step_seconds": 1 / 1.90}),
    ("  1%|▏         | 2/203 [00:01<02:00,  1.90i", {"step": 2, "step_seconds": 1 / 1.90}),
    ("  3%|▋         | 6/203 [00:56<30:40,  9.3", {"step": 6, "elapsed_seconds": 56.0, "step_seconds": None}),
    ("  3%|▊         | 7/203 [01:0", {"step": 7, "elapsed_seconds": None, "trainer_eta_seconds": None}),
]


@pytest.mark.parametrize(("bar", "expected"), CUT_BARS, ids=[b[-12:] for b, _ in CUT_BARS])
def test_a_bar_cut_at_the_terminal_width_is_read_for_what_it_holds(bar: str, expected: dict[str, Any]) -> None:
    events, bad = read(["  Total optimization steps = 203", bar])
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0
    for key, value in expected.items():
        got = getattr(step, key)
        assert got == (pytest.approx(value) if isinstance(value, float) else value), key


def test_a_total_cut_short_is_not_read() -> None:
    """``1/20`` may be ``1/203`` cut: a total is whole only before its clock's bracket."""
    events, _ = read(["  Total optimization steps = 203", "  0%|          | 1/20"])
    assert not [e for e in events if isinstance(e, TrainStep)]


def test_composed_cut_bars_keep_the_last_whole_rate() -> None:
    events, bad = read(body("hf-composed-cut-bars.log"))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0 and steps[-1].step == 7 and steps[-1].total_steps == 203
    assert steps[-1].step_seconds == pytest.approx(9.35)


def test_the_tf_trainer_step_key_takes_the_header_total() -> None:
    events, bad = read(body("hf-transformers-pr6998-tf-step-key.log"))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0 and (steps[-1].step, steps[-1].total_steps, steps[-1].loss) == (110, 564, 5.859087)


def test_bars_glued_to_warnings_between_padded_dicts() -> None:
    """A real 8-GPU run's stdout: bars only where a warning broke the line, dicts padded by tqdm.write."""
    events, bad = read(body("hf-zeehu-t5-bars-at-saves.log"))
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert bad == 0
    assert [s.step for s in steps] == [4500, 5000, 5500, 5832]
    assert steps[-1].elapsed_seconds == 19 * 3600 + 50 * 60 + 58 and steps[-1].step_seconds == pytest.approx(12.10)
    assert [e for e in events if isinstance(e, StageEnd)]


# --- as it is really captured ---------------------------------------------------------------


def steps_of(events: list[object]) -> list[tuple[int, int | None, float | None]]:
    return [(e.step, e.total_steps, e.loss) for e in events if isinstance(e, TrainStep)]


def test_bars_alone_are_the_training_bar() -> None:
    """Chinese-LLaMA-Alpaca #534: stderr captured, no header, no dict in this stretch."""
    events, bad = read(body("hf-chinese-llama-alpaca-issue534-bars-only-deepspeed.log")[:11])
    assert [s[:2] for s in steps_of(events)][-3:] == [(68, 2724), (69, 2724), (70, 2724)] and bad == 0


def test_the_header_total_with_its_comma_names_the_training_bar() -> None:
    events, _ = read(["  Total optimization steps = 1,548", "  0%|          | 1/1548 [00:05<2:09:00,  5.00s/it]"])
    assert RunInfo(None, total_steps=1548) in events and steps_of(events) == [(1, 1548, None)]


def test_unsloth_train_prints_the_loss_after_its_bar() -> None:
    """unsloth #1145: ``<0-based step>, <loss>`` glued to the bar; its banner says ``Total steps = 312``."""
    events, _ = read(body("hf-unsloth-issue1145-unsloth-train-bar-suffix.log"))
    assert steps_of(events)[-1] == (81, 312, 2.0887)


def test_a_dict_before_the_first_bar_does_not_freeze_the_position() -> None:
    """A tail that starts with a dict: the bars after it still move the step."""
    lines = ["{'loss': 1.5, 'grad_norm': 0.8, 'learning_rate': 1e-05, 'epoch': 0.1}"]
    lines += [f" 10%|█         | {n}/200 [01:{n:02d}<10:00,  2.00s/it]" for n in range(11, 16)]
    events, _ = read(lines)
    assert [s[0] for s in steps_of(events)][-3:] == [13, 14, 15]


def test_a_step_dict_with_train_runtime_is_a_step() -> None:
    """unsloth Studio logs ``train_runtime`` and ``train_tokens_per_second`` in every step's dict, quoted."""
    line = ("{'loss': '0.9123', 'grad_norm': '1.204', 'learning_rate': '4e-05', 'epoch': '0.3', 'train_runtime': '120.5',"
            " 'train_tokens_per_second': '5021.3'}")
    events, _ = read([line])
    assert not any(isinstance(e, StageEnd) for e in events)
    assert steps_of(events) == [(1, None, 0.9123)]
    summary, _ = read([("{'train_runtime': 300.0, 'train_samples_per_second': 1.0, 'train_steps_per_second': 0.1,"
                       " 'train_loss': 1.0, 'epoch': 1.0}")])
    assert isinstance(summary[0], StageEnd)


def test_a_record_echoed_by_a_logger_is_counted_once() -> None:
    """LLaMA-Factory's callback logs the Trainer's dict again (``{:.4f}``, ``{:2.4e}``, ``{:.2f}``)."""
    events, _ = read([
        "{'loss': 1.2345, 'learning_rate': 4.9e-05, 'epoch': 0.1}",
        ("10/05/2023 12:00:00 - INFO - llmtuner.extras.callbacks - {'loss': 1.2345, 'learning_rate': 4.9000e-05,"
        " 'epoch': 0.10}"),
        "{'loss': 1.1, 'learning_rate': 4.8e-05, 'epoch': 0.2}",
    ])
    assert steps_of(events) == [(1, None, 1.2345), (2, None, 1.1)]


def test_two_bare_dicts_alike_are_two_logs() -> None:
    """A broken fp16 run repeats itself exactly: each dict is a log (the broken-run rule counts them)."""
    line = "{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 0.04999871292419044, 'epoch': 0.01}"
    events, _ = read([line, line, line])
    assert len(steps_of(events)) == 3


def test_llama_factory_s_callback_record_gives_the_step_and_the_elapsed_time() -> None:
    line = ("{'current_steps': 20, 'total_steps': 6750, 'loss': 2.1827, 'lr': 2.814814814814815e-06, 'epoch': 0.0089,"
            " 'percentage': 0.3, 'elapsed_time': '0:01:03', 'remaining_time': '5:53:59'}")
    (step, *_), _ = read([line])
    assert isinstance(step, TrainStep)
    assert (step.step, step.total_steps, step.loss, step.elapsed_seconds, step.trainer_eta_seconds) == (
        20, 6750, 2.1827, 63.0, 5 * 3600 + 53 * 60 + 59)


def test_an_echo_printed_first_and_rounded_is_the_same_log() -> None:
    """LLaMA-Factory #2810's order: the callback's rounded record first, then the Trainer's dict,
    whose grad norm (which the echo lacks) belongs to the same log."""
    events, bad = read(body("broken-llamafactory-issue2810-nan-grad-callbacks-echo.log"))
    steps = [e for e in events if isinstance(e, TrainStep)]
    grads = [e.grad_norm for e in events if isinstance(e, StepFigures)]
    assert bad == 0 and [s.step for s in steps] == [1, 2, 3, 4] and [s.logged for s in steps] == [True] * 4
    assert len(grads) == 3 and all(g is not None and math.isnan(g) for g in grads)  # nan, once per log


@pytest.mark.parametrize(("lines", "logs"), [
    # transformers' explicit log format echoing after the dict, to 4 decimals and 2 for the epoch
    (["{'loss': 2.345678, 'grad_norm': 1.5, 'learning_rate': 9.99998e-05, 'epoch': 0.5}",
      "[INFO|callbacks.py:150] 2024-06-01 10:00:00,000 >> {'loss': 2.3457, 'learning_rate': 1.0000e-04, 'epoch': 0.50}"],
     [(1, 2.345678)]),
    # a fork prints the echo bare, before an older Trainer's dict (no grad norm: the same keys)
    (["{'loss': 0.0000, 'learning_rate': 4.9999e-02, 'epoch': 0.01}",
      "{'loss': 0.0, 'learning_rate': 0.04999871292419044, 'epoch': 0.01}"],
     [(1, 0.0)]),
    # two logs of the Trainer's quoted .4g strings, alike to their rounding: two logs
    (["{'loss': '2.12', 'learning_rate': '5e-05', 'epoch': '0.25'}",
      "{'loss': '2.119', 'learning_rate': '5e-05', 'epoch': '0.25'}"],
     [(1, 2.12), (2, 2.119)]),
    # a warm-up printed by Python alone, two logs whose lr rounds alike (the second has fewer
    # digits because it is a rounder number, not because another hand rounded it): two logs
    (["{'loss': 1.25, 'grad_norm': 0.5, 'learning_rate': 9.96e-06, 'epoch': 0.1}",
      "{'loss': 1.25, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': 0.1}"],
     [(1, 1.25), (2, 1.25)]),
    # the same echo whose loss differs past its rounding: another record, another log
    (["{'loss': 2.345678, 'grad_norm': 1.5, 'learning_rate': 9.99998e-05, 'epoch': 0.5}",
      "[INFO|callbacks.py:150] 2024-06-01 10:00:00,000 >> {'loss': 2.3447, 'learning_rate': 1.0000e-04, 'epoch': 0.50}"],
     [(1, 2.345678), (2, 2.3447)]),
])  # fmt: skip
def test_an_echo_is_the_same_figures_to_the_echo_s_own_rounding(lines: list[str], logs: list[tuple[int, float]]) -> None:
    events, _ = read(lines)
    assert [(s[0], s[2]) for s in steps_of(events)] == logs


def test_one_bar_after_a_dict_is_the_position_once_the_next_dict_says_it_trains() -> None:
    """A tail that opens on a dict, then one bar (a warning glued after it), then the next dict."""
    events, bad = read([
        "{'loss': '2.01', 'learning_rate': '2e-05', 'epoch': '0.4'}",
        " 45%|████▌     | 9/20 [00:18<00:22,  2.00s/it]UserWarning: something deprecated",
        "{'loss': '1.93', 'learning_rate': '1.8e-05', 'epoch': '0.5'}",
    ])
    assert bad == 0 and steps_of(events)[-1] == (9, 20, None)
    assert [e.epoch for e in events if isinstance(e, StepFigures)][-1] == 0.5  # the latest record wins


@pytest.mark.parametrize("line", [
    "WARNING: something deprecated 50%|█████     | 10/20 [00:20<00:20,  2.00s/it]",
    "{'loss': 1.2, 'learning_rate': 1e-05, 'epoch': 0.5} 50%|█████     | 10/20 [00:20<00:20,  2.00s/it]",
])  # fmt: skip
def test_text_glued_before_a_bar_never_hides_it(line: str) -> None:
    events, bad = read(["  Total optimization steps = 20", line])
    assert bad == 0 and steps_of(events)[-1] == (10, 20, None)
    assert (1.2 in [e.loss for e in events if isinstance(e, (StepFigures, TrainStep))]) == line.startswith("{")


def test_a_callback_record_at_its_total_with_a_null_loss_is_the_last_step() -> None:
    """LLaMA-Factory's last record: the total reached, ``loss`` None (the Trainer logged none there)."""
    events, _ = read([
        ("{'current_steps': 95, 'total_steps': 96, 'loss': 0.51, 'lr': 1e-08, 'epoch': 2.97, 'percentage': 98.96,"
         " 'elapsed_time': '1 day, 0:00:00', 'remaining_time': '0:15:09'}"),
        ("{'current_steps': 96, 'total_steps': 96, 'loss': None, 'lr': None, 'epoch': 3.0, 'percentage': 100.0,"
         " 'elapsed_time': '1 day, 0:15:09', 'remaining_time': '0:00:00'}"),
    ])
    assert steps_of(events) == [(95, 96, 0.51), (96, 96, None)]
    assert [e.elapsed_seconds for e in events if isinstance(e, TrainStep)] == [86400.0, 86400.0 + 909]


def test_llama_factory_s_record_after_the_trainer_s_dict_still_gives_the_step() -> None:
    events, _ = read([
        "{'loss': 2.1827, 'grad_norm': 0.9, 'learning_rate': 2.814814814814815e-06, 'epoch': 0.0089}",
        ("{'current_steps': 20, 'total_steps': 6750, 'loss': 2.1827, 'lr': 2.814814814814815e-06, 'epoch': 0.0089,"
         " 'percentage': 0.3, 'elapsed_time': '0:01:03', 'remaining_time': '5:53:59'}"),
    ])
    assert steps_of(events)[-1] == (20, 6750, 2.1827)


@pytest.mark.parametrize("line", [
    "Training completed. Do not forget to share your model on huggingface.co/models =)",
    "[INFO|trainer.py:1934] 2023-03-01 10:01:00,000 >> Training completed.",
])
def test_the_trainer_s_end_line_ends_the_run(line: str) -> None:
    events, bad = read(["{'loss': 1.9, 'learning_rate': 0.0, 'epoch': 3.0}", line])
    assert bad == 0 and isinstance(events[1], StageEnd) and events[1].summary is not None
    assert events[1].summary.startswith("Training completed.")


def test_a_sentence_about_training_completed_is_no_end() -> None:
    events, _ = read(["{'loss': 1.9, 'learning_rate': 0.0, 'epoch': 3.0}",
                      "Training completed steps are saved every 500 steps"])
    assert not any(isinstance(e, StageEnd) for e in events)


def test_a_tail_that_begins_inside_a_printed_config_is_no_trainer_state() -> None:
    """The Trainer prints the model's config as indented JSON: a tail cut inside it reads on."""
    events, bad = read([
        '  "architectures": [', '    "LlamaForCausalLM"', "  ],", '  "vocab_size": 32000', "}",
        "[INFO|trainer.py:2048] 2024-05-01 12:00:00,123 >> ***** Running training *****",
        "  1%|▏         | 10/750 [00:06<07:54,  1.56it/s]",
        "{'loss': 2.5, 'learning_rate': 5e-05, 'epoch': 0.1}",
    ])
    assert bad == 0 and [(s[0], s[1]) for s in steps_of(events)] == [(10, 750)]


@pytest.mark.parametrize(("line", "expected"), [
    ("[ 22/290 02:50 < 38:04, 0.12 it/s, Epoch 0.36/5]",
     (22, 290, 170.0, 1 / 0.12, 38 * 60 + 4.0, 0.36)),
    (" [1500/3000 1:02:03 < 1:02:03, 0.40 it/s, Epoch 1/2]", (1500, 3000, 3723.0, 2.5, 3723.0, 1.0)),
    ("[  1/290 : < :, Epoch 0.02/5]", (1, 290, None, None, None, 0.02)),  # before its first timing
    ("[  5/290 00:01 < 00:09, +inf it/s, Epoch 0.09/5]", (5, 290, 1.0, None, 9.0, 0.09)),
])  # fmt: skip
def test_the_notebook_progress_line_as_text_is_a_training_step(
    line: str, expected: tuple[int, int, float | None, float | None, float | None, float]
) -> None:
    """NotebookProgressCallback's label copied as text: step/total, elapsed < remaining, it/s, epoch."""
    events, bad = read([line])
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    got = (step.step, step.total_steps, step.elapsed_seconds, step.step_seconds, step.trainer_eta_seconds, step.epoch)
    assert got == pytest.approx(expected) and bad == 0


def test_a_notebook_evaluation_line_has_no_epoch_and_is_no_step() -> None:
    events, _ = read(["[1500/3000 1:02:03 < 1:02:03, 0.40 it/s, Epoch 1/2]", "[63/63 00:09]", "[ 5/10 00:02 < 00:03]"])
    assert [(e.step, e.total_steps) for e in events if isinstance(e, TrainStep)] == [(1500, 3000)]


@pytest.mark.parametrize(("table", "losses"), [
    (["Step\tTraining Loss", "10\t2.345600", "20\t2.123400"], [2.3456, 2.1234]),
    (["Epoch\tTraining Loss\tValidation Loss\tAccuracy", "1\tNo log\t0.498700\t0.812000",
      "2\t0.431200\t0.455100\t0.833000"], [0.4312]),  # no training log before epoch 1's end
    (["Step Training Loss", "10 2.345600", "[ 20/290 00:40 < 09:00, 0.50 it/s, Epoch 0.34/5]", "10 9.9"], [2.3456]),
])  # fmt: skip
def test_the_notebook_s_loss_table_gives_the_training_loss(table: list[str], losses: list[float]) -> None:
    """The rows under the notebook's progress line: each training loss, and nothing once the table ends."""
    events, bad = read(["[ 10/290 00:20 < 09:20, 0.50 it/s, Epoch 0.17/5]", *table])
    assert [e.loss for e in events if isinstance(e, StepFigures)] == losses and bad == 0


@pytest.mark.parametrize(("table", "expected"), [
    # the page's Markdown copy of the table alone (unslothai/unsloth issue 2291, m3hrdadfi/soxan issue 9 in
    # tests/data/real): each row the step its first cell names, with the training loss of its second
    (["Step | Training Loss | reward | kl", "-- | -- | -- | --", "1 | 0.000000 | -17.250000 | 0.000000",
      "11 | 0.000100 | -17.250000 | 0.002576"], [(1, 0.0), (11, 0.0001)]),
    (["Step | Training Loss | Validation Loss | Accuracy", "-- | -- | -- | --", "10 | 0.698400 | 0.497485 | 0.813416",
      "20 | No log | 0.291701 | 0.913778"], [(10, 0.6984), (20, None)]),
    # the tab-separated copy alone (composed)
    (["Step\tTraining Loss", "10\t2.345600", "20\t2.123400"], [(10, 2.3456), (20, 2.1234)]),
    # an epoch's table gives no step: its first cell counts epochs (composed)
    (["Epoch | Training Loss", "-- | --", "1 | 0.431200"], []),
])  # fmt: skip
def test_the_notebook_s_table_alone_gives_the_steps(table: list[str], expected: list[tuple[int, float | None]]) -> None:
    """Without the progress line above it, the Step table's rows are the steps the Trainer logged."""
    events, bad = read(table)
    assert [(e.step, e.loss) for e in events if isinstance(e, TrainStep)] == expected and bad == 0


def test_the_markdown_table_under_the_progress_line_gives_its_losses() -> None:
    """Under a progress line, the ``|``-separated rows are its losses, as the tab-separated ones (composed)."""
    events, bad = read(["[ 10/290 00:20 < 09:20, 0.50 it/s, Epoch 0.17/5]", "Step | Training Loss", "-- | --",
                        "10 | 2.345600"])
    assert [e.loss for e in events if isinstance(e, StepFigures)] == [2.3456] and bad == 0
    assert [e.step for e in events if isinstance(e, TrainStep)] == [10]


def test_the_checkpoint_shards_bar_is_never_the_training_position() -> None:
    # JuncyLu/trl_DAPO, training_logs/20251022_120051/run_terminal.md (https://github.com/JuncyLu/trl_DAPO/blob/
    # f0cbd71cb551603d3698f080b4a96794ca2f2281/training_logs/20251022_120051/run_terminal.md): the model's
    # shards load with a bar of their own, advancing to 2/2, before the training bar's first redraws.
    from app.ingest.formats import create_parser
    from app.stats.events import TrainStep

    lines = ["Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]",
             "Loading checkpoint shards:  50%|#####     | 1/2 [00:00<00:00,  5.65it/s]",
             "Loading checkpoint shards: 100%|##########| 2/2 [00:00<00:00,  8.39it/s]",
             "  0%|          | 0/29790 [00:00<?, ?it/s]",
             "  0%|          | 1/29790 [00:19<158:51:28, 19.20s/it]",
             "  0%|          | 2/29790 [00:25<95:48:39, 11.58s/it] ",
             "  0%|          | 3/29790 [00:35<88:20:56, 10.68s/it]"]  # fmt: skip
    got = [(e.step, e.total_steps) for e in create_parser("hf-trainer").feed(lines) if isinstance(e, TrainStep)]
    assert got and got[-1] == (3, 29790)
    assert all(total == 29790 for _, total in got)


def test_paddlenlp_s_global_step_is_the_step_and_its_bar_gives_the_total() -> None:
    # PaddleNLP's Trainer (pull request 1761): its dicts name ``global_step``; the bar then drawn at that step says
    # the run's total and its rate (3.37 it/s: 0.297 s a step), glued to the evaluation's start
    lines = ["{'loss': 0.1355, 'learning_rate': 4.1e-05, 'global_step': 190, 'epoch': 2.53}",
             "{'loss': 0.1252, 'learning_rate': 4e-05, 'global_step': 200, 'epoch': 2.67}",
             (" 33%|███▎      | 200/600 [01:11<01:58,  3.37it/s][2022-03-25 16:41:50,060] [    INFO] - "
             "***** Running Evaluation *****")]
    events, bad = read(lines)
    got = [(e.step, e.total_steps, e.loss) for e in events if isinstance(e, TrainStep)]
    assert got[:2] == [(190, None, 0.1355), (200, None, 0.1252)]
    # the step is no figure of the model's (ms-swift's dicts carry it too)
    assert all(dict(e.figures).get("global_step") is None for e in events if isinstance(e, TrainStep))
    last = [e for e in events if isinstance(e, TrainStep)][-1]
    assert (last.step, last.total_steps, last.step_seconds) == (200, 600, pytest.approx(1 / 3.37))
    assert bad == 0


def test_trl_on_policy_dicts_name_their_rate_lr_and_their_loss_by_the_policy() -> None:
    # composed in TRL PPOTrainer's shape: ``lr``, ``loss/policy_avg`` (PPO's loss), ``episode`` (no step) and ``epoch``
    line = ("{'eps': 1, 'objective/kl': 10.5, 'loss/policy_avg': -0.25, 'loss/value_avg': 0.08, 'lr': 3e-06, "
            "'episode': 672, 'epoch': 0.75}")
    events, _ = read([line])
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert (step.loss, step.lr, step.epoch, step.logged) == (-0.25, 3e-06, 0.75, True)
    assert ("episode", 672.0) in step.figures and ("loss/value_avg", 0.08) in step.figures


def test_a_markdown_fence_glued_to_a_pasted_dict_is_no_part_of_it() -> None:
    # TRL's GRPO dict pasted inside inline triple backticks (https://github.com/huggingface/trl/issues/3078), shortened
    pasted = "```{'loss': 0.0133, 'grad_norm': 2.667192220687866, 'learning_rate': 2.6140692393428204e-10, 'reward': 1.25, 'epoch': 0.92}```"
    from app.ingest.formats import detect

    assert detect([pasted]) == "hf-trainer"
    (step,) = [e for e in HfTrainerParser().feed([pasted]) if isinstance(e, TrainStep)]
    assert (step.loss, step.epoch, step.lr) == (0.0133, 0.92, 2.6140692393428204e-10)
    # a fence alone on its line, or backticks inside a message, are left as they are
    assert detect(["```", pasted[3:-3], "```"]) == "hf-trainer"


def test_a_script_s_bar_under_the_trainer_s_header_gives_its_postfix_loss_and_lr() -> None:
    # sd_dreambooth_extension (https://github.com/d8ahazard/sd_dreambooth_extension/issues/219): the Trainer's header, then
    # the script's own bar with its postfix, an error glued after it
    lines = ["***** Running training *****", "  Num Epochs = 1",
             ("Steps:  50%|█████▌     | 1/2 [01:17<01:17, 77.90s/it, loss=0.0858, lr=5e-6] Exception while training: "
             "CUDA out of memory. Tried to allocate 58.00 MiB (GPU 0; 4.00 GiB total capacity)")]
    from app.ingest.formats import create_parser

    events = create_parser("hf-trainer").feed(lines)
    (step,) = [e for e in events if isinstance(e, TrainStep)]
    assert (step.step, step.total_steps, step.loss, step.lr, step.step_seconds) == (1, 2, 0.0858, 5e-06, 77.9)
    # the crash is the error's own words, not the bar it was glued to
    from app.stats.events import RunCrashed

    (crash,) = [e for e in events if isinstance(e, RunCrashed)]
    assert crash.error.startswith("Exception while training: CUDA out of memory.")
    # composed in diffusers' training scripts' shape (``set_postfix(loss=…, lr=…)`` beside ``it/s``)
    (composed,) = [e for e in create_parser("hf-trainer").feed(
        ["***** Running training *****", "  Total optimization steps = 500",
         "Steps:  10%|█         | 50/500 [00:30<04:30,  1.66it/s, loss=0.123, lr=1e-06]"])
        if isinstance(e, TrainStep)]
    assert (composed.step, composed.loss, composed.lr) == (50, 0.123, 1e-06)


# unslothai/unsloth issue #224: unsloth's banner, its Trainer's first step not yet printed.
UNSLOTH_BANNER = [
    "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 8",
    "   \\\\   /|    Num examples = 12,734,115 | Num Epochs = 2",
    "O^O/ \\_/ \\    Batch size per device = 4 | Gradient Accumulation steps = 2",
    "\\        /    Total batch size = 64 | Total steps = 99,486",
    ' "-____-"     Number of trainable parameters = 866,157,056',
]


def test_unsloth_s_banner_is_a_trainer_log_with_its_planned_steps() -> None:
    from app.ingest.formats import detect

    assert detect(UNSLOTH_BANNER) == "hf-trainer"
    events, _ = read(UNSLOTH_BANNER)
    assert [e.total_steps for e in events if isinstance(e, RunInfo)] == [99486]  # (its commas: thousands)
    assert not [e for e in events if isinstance(e, TrainStep)]


# Time-MoE issue #71 (Time-MoE/Time-MoE): a data set's bar, full within its first second, then the Trainer's dicts
# (no training bar: the dicts are the logged steps, their epoch the position).
TIME_MOE = [
    "100%|██████████| 7/7 [00:00<00:00, 1809.34it/s]",
    "{'loss': 0.1474, 'grad_norm': nan, 'learning_rate': 0.0001, 'epoch': 0.04}",
    "{'loss': 0.1549, 'grad_norm': 0.1899697184562683, 'learning_rate': 0.0001, 'epoch': 0.08}",
]


def test_a_bar_full_within_its_first_second_before_the_first_dict_is_no_training_bar() -> None:
    events, _ = read(TIME_MOE)
    got = [(e.step, e.total_steps, e.epoch, e.logged) for e in events if isinstance(e, TrainStep)]
    assert got == [(1, None, 0.04, True), (2, None, 0.08, True)]


def test_a_training_bar_full_before_the_first_dict_read_still_trains() -> None:
    # Composed: the same bar at 2.18 s a step (7 min 16 s in all) is the training bar, its dict the last log.
    events, _ = read(["100%|██████████| 200/200 [07:16<00:00,  2.18s/it]",
                      "{'loss': 0.8608, 'learning_rate': 0.0, 'epoch': 0.15}"])
    assert [(e.step, e.total_steps) for e in events if isinstance(e, TrainStep)] == [(200, 200)]


# ms-swift's log dict (composed with ms-swift's keys): 50 of 400 steps in 4 min 10 s, at 0.2 iterations a second as the
# run's mean so far (250 s / 50 = 5.0 s a step), 29 min 10 s (1750 s) left by its own reckoning.
SWIFT = ("{'loss': 1.2, 'grad_norm': 0.5, 'learning_rate': 1e-05, 'epoch': 0.25, 'global_step/max_steps': '50/400', "
         "'percentage': '12.50%', 'elapsed_time': '4m 10s', 'remaining_time': '29m 10s', 'memory(GiB)': 14.3, "
         "'train_speed(iter/s)': 0.2}")


def test_an_ms_swift_dict_names_its_step_total_speed_and_time_left() -> None:
    (step,), bad = read([SWIFT])
    assert bad == 0 and isinstance(step, TrainStep)
    assert (step.step, step.total_steps, step.loss, step.epoch) == (50, 400, 1.2, 0.25)
    assert (step.step_seconds, step.elapsed_seconds, step.trainer_eta_seconds) == (5.0, 250.0, 1750.0)
    assert step.step_seconds_note is not None and "mean" in step.step_seconds_note
    # (its position, clock and speed are read as such, not kept as figures; its memory is)
    assert dict(step.figures) == {"memory(GiB)": 14.3}


def test_an_ms_swift_speed_in_seconds_an_iteration_is_that_step_time() -> None:
    line = SWIFT.replace("'train_speed(iter/s)': 0.2", "'train_speed(s/it)': '45.3'")
    (step,), _ = read([line])
    assert isinstance(step, TrainStep) and step.step_seconds == 45.3


def test_a_dict_pasted_without_its_opening_brace_reads_as_the_whole_dict() -> None:
    whole, _ = read([SWIFT])
    events, bad = read([SWIFT[1:]])
    assert events == whole and bad == 0
    # wrapped after a comma too, each half on its own line, the second indented as Python's pprint does
    cut = SWIFT.index(" 'global_step")
    events, bad = read([SWIFT[1:cut], SWIFT[cut:]])
    assert events == whole and bad == 0


def test_the_tail_of_a_wrapped_dict_is_no_dict_of_its_own() -> None:
    """A dict's second line (``'epoch': 0.25, …}``) after its first is joined to it, not read as a dict without its
    brace."""
    whole, _ = read([SWIFT])
    cut = SWIFT.index("'epoch'")
    events, bad = read([SWIFT[:cut], SWIFT[cut:]])
    assert events == whole and bad == 0


def test_unsloth_s_start_up_banner_before_any_step_is_known_as_its_trainer_s_log() -> None:
    from app.ingest.formats import detect

    # unsloth's start-up as it loads the model (huggingface/transformers issue 30607, tests/data/real), its banner's first
    # rows; the model's download bar after it is no step
    lines = ["==((====))==  Unsloth 2025.7.3: Fast Llava patching. Transformers: 4.52.4.",
             "   \\\\   /|    NVIDIA GeForce RTX 5090 Laptop GPU. Num GPUs = 1. Max memory: 23.889 GB. Platform: Windows.",
             "model.safetensors:   8%|████▍     | 304M/4.04G [00:32<06:42, 9.27MB/s]"]
    assert detect(lines) == "hf-trainer"
    events, _ = read(lines)
    assert [(type(e), e.total_steps) for e in events if isinstance(e, RunInfo)] == [(RunInfo, None)]
    assert not [e for e in events if isinstance(e, TrainStep)]
    # the banner its Trainer prints as the run starts (composed, cut after its first row): its row known
    assert detect(["==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 1"]) == "hf-trainer"
