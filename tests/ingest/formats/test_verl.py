"""verl: ``step:N - key:value - …`` lines behind Ray's prefix, its progress bar, its plan and its end.

Real logs (tests/data/real/verl-*.log, each citing its source) read end to end, and composed lines
whose figures are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import EvalResult, RunInfo, StageEnd, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

RAY = "\x1b[36m(TaskRunner pid=14640)\x1b[0m "


def cold(tmp_path: Path, lines: list[str], name: str = "verl.log") -> dict[str, Any]:
    return read_cold(tmp_path, lines, name=name, at=T0)


def metrics(step: int, **figures: float) -> str:
    pairs = " - ".join(f"{key.replace('__', '/')}:{value}" for key, value in figures.items())
    return f"step:{step} - {pairs}"


def events(lines: list[str]) -> list[object]:
    return [e for e in create_parser("verl").feed(lines) if type(e).__name__ != "Tick"]


def test_a_metrics_line_behind_ray_s_prefix_gives_the_step_its_figures_and_validation() -> None:
    line = RAY + (
        "step:120 - global_seqlen/min:3554.000 - actor/pg_loss:0.0123 - actor/grad_norm:1.5 - "
        "critic/score/mean:0.41 - response_length/mean:180.938 - val-core/openai/gsm8k/reward/mean@1:0.882 - "
        "val/test_score/gsm8k:0.5 - timing_s/step:41.7 - perf/total_num_tokens:60000 - perf/throughput:90.5"
    )
    got = events([line])
    step = got[0]
    assert isinstance(step, TrainStep)
    assert (step.step, step.loss, step.loss_note, step.grad_norm) == (120, 0.0123, "actor/pg_loss", 1.5)
    assert (step.step_seconds, step.tokens, step.tokens_per_second, step.per_device) == (41.7, 60000.0, 90.5, True)
    assert dict(step.figures) == {"reward": 0.41, "response_length": 180.938}
    assert [(e.name, e.value, e.step) for e in got[1:] if isinstance(e, EvalResult)] == [
        ("val-core/openai/gsm8k/reward/mean@1", 0.882, 120), ("val/test_score/gsm8k", 0.5, 120)]


def test_the_bar_beside_metrics_lines_gives_the_total_and_never_moves_the_step_back() -> None:
    # ray_trainer.fit closes its bar at the last step but one (434/435), after the last step's line.
    got = events([
        "Total training steps: 435",
        RAY + metrics(435, actor__pg_loss=0.064, timing_s__step=39.674),
        RAY + "Training Progress: 100%|█████████▉| 434/435 [1:14:31<00:13, 13.39s/it]",
        RAY + "(\"Final validation metrics: {'val-core/openai/gsm8k/reward/mean@1': \"",
    ])
    assert [e.step for e in got if isinstance(e, TrainStep)] == [435]
    assert [e.total_steps for e in got if isinstance(e, RunInfo)] == [435, 435]
    assert next(e for e in got if isinstance(e, TrainStep)).total_steps == 435
    assert any(isinstance(e, StageEnd) for e in got)


def test_a_log_of_bars_alone_is_read_from_the_bar() -> None:
    got = [e for e in events([RAY + "Training Progress:   0%|          | 31/15625 [34:38<288:57:10, 66.71s/it]",
                              RAY + "Training Progress:   0%|          | 32/15625 [35:44<288:48:32, 66.68s/it]"])
           if isinstance(e, TrainStep)]
    assert [(e.step, e.total_steps, e.step_seconds, e.elapsed_seconds) for e in got] == [
        (31, 15625, 66.71, 34 * 60 + 38.0), (32, 15625, 66.68, 35 * 60 + 44.0)]


def test_composed_run_tokens_per_hour_come_from_the_step_s_own_tokens(tmp_path: Path) -> None:
    # Five steps of 100 s (past the 3 min warm-up), 60,000 tokens each, undated: the trainer's time per
    # step gives the rate. tok/h = 60,000 / 100 s × 3600 = 2.16M; steps/h = 36; throughput (per GPU) as printed.
    lines = [RAY + "Total training steps: 100"] + [
        RAY + metrics(n, actor__pg_loss=0.01, critic__score__mean=0.5, timing_s__step=100.0,
                      perf__total_num_tokens=60000, perf__throughput=75.0)
        for n in (1, 2, 3, 4, 5)
    ]
    data = cold(tmp_path, lines)
    training = data["training"]
    assert data["format"] == "verl"
    assert (training["step"], training["total_steps"], training["step_seconds"]) == (5, 100, 100.0)
    assert training["tokens_per_hour"] == pytest.approx(2.16e6)
    assert training["steps_per_hour"] == pytest.approx(36.0)
    assert (training["tokens_per_second"], training["tokens_per_second_scope"]) == (75.0, "device")
    assert training["figures"] == {"reward": 0.5}
    assert not any("per GPU" in line for line in data["details"][:1])  # the tok/h is the run's, not a GPU's


def test_real_ppo_run_that_finished_with_its_final_validation(tmp_path: Path) -> None:
    # Bihan/dstack-configs verl_demo.log (header of the file): step 435 of 435, then the final validation
    # and "Job 'raysubmit_…' succeeded".
    name = "verl-dstack-configs-ppo-gsm8k-done-435-final-validation.log"
    data = cold(tmp_path, body(name), name)
    training = data["training"]
    assert (data["format"], data["state"], data["status_line"]) == ("verl", "done", "done · step 435/435")
    assert (training["step"], training["total_steps"], training["loss"]) == (435, 435, 0.064)
    assert (training["step_seconds"], training["tokens_per_second"]) == (39.674, 93.888)
    # (``perf/max_memory_allocated_gb:38.162``: the GPU memory's peak, as printed)
    assert training["figures"] == {"reward": 0.918, "response_length": 128.129, "memory/max_memory_allocated GB": 38.162}
    assert training["eval"] == {"val-core/openai/gsm8k/reward/mean@1": {"value": 0.867, "step": 435}}
    assert training["crash"] is None


def test_real_grpo_run_mid_way_whose_workers_log_caught_tracebacks(tmp_path: Path) -> None:
    # yuzhaouoe/GUI-Cursor-Moving verl_demo.log: step 10 of 133000; the rollout workers' tracebacks are
    # logged (``ERROR:<time>:Traceback …``) and training goes on: not a crash.
    name = "verl-gui-cursor-moving-grpo-step10-of-133000-midrun.log"
    data = cold(tmp_path, body(name), name)
    training = data["training"]
    assert (data["format"], data["state"]) == ("verl", "training")
    assert (training["step"], training["total_steps"]) == (10, 133000)
    assert training["step_seconds"] == pytest.approx(591.5320173036307)
    assert training["figures"]["reward"] == pytest.approx(0.8335199356079102)
    assert training["figures"]["response_length"] == pytest.approx(2856.59765625)
    assert training["tokens_per_second"] == pytest.approx(304.4182220614599)
    assert training["crash"] is None


def test_real_grpo_run_logged_with_its_bar_alone(tmp_path: Path) -> None:
    # LeiLiLab/WALAR grpo.log: no metrics lines, the bar at 33/15625, 66.82 s/it.
    name = "verl-walar-grpo-bars-only-step33-of-15625.log"
    data = cold(tmp_path, body(name), name)
    training = data["training"]
    assert (data["format"], data["state"]) == ("verl", "training")
    assert (training["step"], training["total_steps"], training["step_seconds"]) == (33, 15625, 66.82)
    assert training["loss"] is None and training["figures"] is None


def test_real_run_that_crashed_before_its_first_step(tmp_path: Path) -> None:
    # KotoHanon/VERL-Maze verl_demo.log: "Total training steps: 30", then NotImplementedError.
    name = "verl-VERL-Maze-crash-before-step1-notimplemented.log"
    assert detect(body(name)) == "verl"
    data = cold(tmp_path, body(name), name)
    assert (data["format"], data["state"]) == ("verl", "crashed")
    assert data["training"]["crash"]["error"] == "NotImplementedError"


def test_a_validation_line_alone_is_no_training_step() -> None:
    # ray_trainer's ``val_before_train`` (verl issue 2060): step 0 with validation keys only
    line = metrics(0, **{"val-aux__gsm8k__reward__mean@1": 0.565, "val-core__gsm8k__acc__mean@1": 0.508})
    assert events([line]) == [EvalResult(at=None, name="val-core/gsm8k/acc/mean@1", value=0.508, step=0)]
    # beside training figures the same keys are the step's validation
    mixed = events([metrics(1, actor__pg_loss=0.1, **{"val-core__gsm8k__acc__mean@1": 0.6})])
    assert [type(e).__name__ for e in mixed] == ["TrainStep", "EvalResult"]


def test_a_metrics_line_without_its_timing_takes_the_bar_s_rate_at_its_step() -> None:
    # verl (https://github.com/verl-project/verl/issues/1224): the bar at 1049, then step 1049's metrics, which print no
    # ``timing_s/step`` in the excerpt: the bar's 118.54 s/it is that step's time; another step's line takes none
    bar = "Training Progress:  21%|██        | 1049/4984 [42:39<129:34:07, 118.54s/it]"
    line = "(TaskRunner pid=3591053) step:1049 - actor/pg_loss:0.090 - critic/score/mean:0.104"
    steps = [e for e in create_parser("verl").feed([bar, line]) if isinstance(e, TrainStep)]
    assert [(s.step, s.total_steps, s.step_seconds) for s in steps] == [(1049, 4984, 118.54), (1049, 4984, 118.54)]
    later = [e for e in create_parser("verl").feed([bar, line.replace("step:1049", "step:1050")])
             if isinstance(e, TrainStep)]
    assert later[-1].step_seconds is None
