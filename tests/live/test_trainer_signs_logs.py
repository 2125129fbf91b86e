"""Composed logs, read cold end to end, of what a trainer says besides its step lines: its end
line, its start-up records, its saved state file, a crash glued to its bar. The figures are
worked out by hand from the lines (another trainer's or version's wording than the real logs
under tests/data/real/ with the same class)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from app.ingest.backwards import read_backwards
from app.live.monitor import Monitor
from app.snapshot import to_json
from tests.live.test_monitor_truth import wait_for

T0 = 1_800_000_000.0


def cold(tmp_path: Path, name: str, text: str, now: float = T0 + 60) -> dict[str, Any]:
    log = tmp_path / name
    log.write_text(text, encoding="utf-8")
    os.utime(log, (T0, T0))
    monitor = Monitor(log, clock=lambda: now)
    monitor.backlog(read_backwards(log))
    data: dict[str, Any] = json.loads(to_json(monitor.snapshot(now)))
    return data


def test_the_trainer_s_end_line_through_a_logger_ends_the_run(tmp_path: Path) -> None:
    """An older Trainer through python logging: bars, dicts, then ``Training completed.`` and
    a final evaluation, no ``train_runtime`` dict kept: done at step 30 of 30, not evaluating."""
    bar = "100%|██████████| 30/30 [01:00<00:00,  2.00s/it]"
    lines = [
        "[INFO|trainer.py:1700] 2023-03-01 10:00:00,000 >> ***** Running training *****",
        "[INFO|trainer.py:1706] 2023-03-01 10:00:00,000 >>   Total optimization steps = 30",
        " 33%|███▎      | 10/30 [00:20<00:40,  2.00s/it]{'loss': 2.5, 'learning_rate': 4e-05, 'epoch': 1.0}",
        " 67%|██████▋   | 20/30 [00:40<00:20,  2.00s/it]{'loss': 2.1, 'learning_rate': 2e-05, 'epoch': 2.0}",
        bar + "{'loss': 1.9, 'learning_rate': 0.0, 'epoch': 3.0}",
        "[INFO|trainer.py:1934] 2023-03-01 10:01:00,000 >> ",
        "",
        "Training completed. Do not forget to share your model on huggingface.co/models =)",
        "",
        "[INFO|trainer.py:3100] 2023-03-01 10:01:01,000 >> ***** Running Evaluation *****",
        "[INFO|trainer.py:3102] 2023-03-01 10:01:01,000 >>   Num examples = 100",
    ]
    data = cold(tmp_path, "train.log", "\n".join(lines) + "\n")
    assert (data["state"], data["training"]["step"], data["training"]["total_steps"]) == ("done", 30, 30)
    assert data["training"]["loss"] == 1.9 and data["training"]["paused"] is None


def trainer_state(global_step: int, max_steps: int, *, end: bool = False, callbacks: bool = True) -> str:
    """A ``trainer_state.json`` as the Trainer writes it (``indent=2``, sorted keys): a log every
    10 steps (loss 3.0 - step/100), an evaluation every 20, the summary at the end."""
    history: list[dict[str, Any]] = []
    for step in range(10, global_step + 1, 10):
        history.append({"epoch": step / 20, "grad_norm": 1.5, "learning_rate": 1e-4 * (1 - step / max_steps),
                        "loss": round(3.0 - step / 100, 4), "step": step})
        if step % 20 == 0:
            history.append({"epoch": step / 20, "eval_loss": round(3.1 - step / 100, 4), "eval_runtime": 12.5,
                            "eval_samples_per_second": 80.0, "eval_steps_per_second": 10.0, "step": step})
    if end:
        history.append({"epoch": global_step / 20, "step": global_step, "total_flos": 1.5e15,
                        "train_loss": 2.8, "train_runtime": 200.0, "train_samples_per_second": 3.2,
                        "train_steps_per_second": 0.2})
    state: dict[str, Any] = {
        "best_metric": None, "best_model_checkpoint": None, "epoch": global_step / 20, "eval_steps": 20,
        "global_step": global_step, "is_hyper_param_search": False, "is_local_process_zero": True,
        "is_world_process_zero": True, "log_history": history, "logging_steps": 10, "max_steps": max_steps,
        "num_input_tokens_seen": 0, "num_train_epochs": 2, "save_steps": 20, "total_flos": 1.5e15,
        "train_batch_size": 8, "trial_name": None, "trial_params": None,
    }
    if callbacks:
        state["stateful_callbacks"] = {"TrainerControl": {"args": {
            "should_epoch_stop": False, "should_evaluate": False, "should_log": False, "should_save": True,
            "should_training_stop": end}, "attributes": {}}}
    return json.dumps(state, indent=2, sort_keys=True) + "\n"


def test_an_older_trainer_state_at_its_end_is_done(tmp_path: Path) -> None:
    """No TrainerControl (before 4.40): done because global_step reached max_steps; 200 s over
    40 steps is 5 s a step; the last log is step 40's (loss 2.6), the last evaluation step 40's."""
    data = cold(tmp_path, "trainer_state.json", trainer_state(40, 40, end=True, callbacks=False))
    training = data["training"]
    assert (data["format"], data["state"], data["status_line"]) == ("hf-trainer", "done", "done · step 40/40")
    assert (training["loss"], training["lr"], training["step_seconds"]) == (2.6, 0.0, 5.0)
    assert training["eval"]["eval_loss"]["value"] == 2.7 and "eval_runtime" not in training["eval"]


def test_a_checkpoint_s_trainer_state_is_not_done(tmp_path: Path) -> None:
    """checkpoint-30 of 60: step 30/60, loss 2.7 (step 30), no rate (the state holds no time)."""
    data = cold(tmp_path, "trainer_state.json", trainer_state(30, 60))
    training = data["training"]
    assert data["state"] != "done" and data["status_line"].startswith("step 30/60")
    assert (training["loss"], training["step_seconds"], training["eta_seconds"]) == (2.7, None, None)


def test_a_trainer_state_rewritten_at_each_checkpoint_adds_only_its_new_steps(tmp_path: Path) -> None:
    """Followed live: checkpoint 20 of 60, rewritten in place at 40, then at the end (60). Each
    rewrite is a new whole reading; the steps it goes on with are counted once: 20 + 20 after
    the backlog's (the backlog is no new step)."""
    state = tmp_path / "trainer_state.json"
    state.write_text(trainer_state(20, 60), encoding="utf-8")
    monitor = Monitor(state)
    monitor.start()
    try:
        wait_for(monitor, lambda s: s.status_line.startswith("step 20/60"), "checkpoint 20")
        with state.open("w", encoding="utf-8") as f:  # as the Trainer writes it: truncated, then written
            f.write(trainer_state(40, 60))
        wait_for(monitor, lambda s: s.status_line.startswith("step 40/60"), "checkpoint 40")
        with state.open("w", encoding="utf-8") as f:
            f.write(trainer_state(60, 60, end=True))
        snap = wait_for(monitor, lambda s: s.state == "done", "the end")
        assert snap.status_line == "done · step 60/60" and not snap.events
        assert snap.counts.passes == 40
    finally:
        monitor.stop()


def test_a_rewrite_that_starts_lower_is_another_run() -> None:
    from app.ingest.formats import create_parser, renewed
    from app.stats.events import TrainStep

    parser = create_parser("hf-trainer")
    first = [e for e in parser.feed(trainer_state(40, 60).splitlines()) if isinstance(e, TrainStep)]
    again = renewed(parser)
    later = [e.step for e in again.feed(trainer_state(60, 60).splitlines()) if isinstance(e, TrainStep)]
    other = [e.step for e in renewed(again).feed(trainer_state(20, 60).splitlines()) if isinstance(e, TrainStep)]
    assert ([e.step for e in first], later, other) == ([10, 20, 30, 40], [50, 60], [10, 20])


NANOCHAT_SETUP = [
    "2025-10-14 09:00:01,100 - nanochat.common - INFO - Distributed world size: 8",
    "Vocab size: 65,536",
    "num_layers: 20",
    "Number of parameters: 560,988,160",
    "Estimated FLOPs per token: 3.491758e+09",
    "Calculated number of iterations from target data:param ratio: 21,400",
    "Total number of training tokens: 11,219,763,200",
]


def test_nanochat_s_start_up_alone_waits_for_its_first_step(tmp_path: Path) -> None:
    """An older base_train's plan (iterations from the data:param ratio): 21,400 steps planned, none taken."""
    data = cold(tmp_path, "base_train.log", "\n".join(NANOCHAT_SETUP) + "\n")
    assert (data["format"], data["status_line"]) == ("nanochat", "waiting for first step")
    assert (data["training"]["total_steps"], data["training"]["step"], data["training"]["loss"]) == (21400, None, None)


def test_nanochat_dead_before_its_first_step_is_crashed(tmp_path: Path) -> None:
    lines = [*NANOCHAT_SETUP,
             "2025-10-14 09:00:05,000 - nanochat.common - WARNING - Peak flops undefined for: NVIDIA A10G, MFU will show as 0%",
             "Traceback (most recent call last):",
             '  File "/root/nanochat/scripts/base_train.py", line 180, in <module>',
             "    model = torch.compile(model, dynamic=False)",
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
    data = cold(tmp_path, "base_train.log", "\n".join(lines) + "\n")
    assert (data["format"], data["state"], data["status_line"]) == ("nanochat", "crashed",
                                                                    "no step yet (21,400 planned) · crashed")
    assert data["training"]["crash"]["error"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def test_a_trainer_s_one_bar_with_a_traceback_glued_is_a_crash_at_that_bar(tmp_path: Path) -> None:
    """TRL's SFT, bars only, one bar then Python's report glued to it: crashed at step 3 of 500,
    3.08 s a step (the bar's own rate), the error line the crash; no ETA after it."""
    lines = [
        "  1%|          | 3/500 [00:09<25:30,  3.08s/it]Traceback (most recent call last):",
        '  File "/app/sft.py", line 40, in <module>',
        "    trainer.train()",
        '  File "/usr/lib/python3/site-packages/transformers/trainer.py", line 1938, in train',
        "    return inner_training_loop(",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB",
    ]
    data = cold(tmp_path, "sft.log", "\n".join(lines) + "\n")
    training = data["training"]
    assert (data["format"], data["status_line"]) == ("hf-trainer", "step 3/500 · crashed")
    assert (training["step_seconds"], training["eta_seconds"], training["trainer_eta_seconds"]) == (3.08, None, None)
    assert training["crash"]["error"] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB"


def test_a_total_from_a_trainer_s_args_dump_before_its_first_step(tmp_path: Path) -> None:
    """A custom loop prints its arguments, then is ended before step 1 (Slurm's time limit): no step
    yet, stopped from outside, and the total is the dump's ``max_iters: 5000`` (``warmup_iters`` is no total)."""
    lines = [
        "2025-03-02 08:00:00,000 - train - INFO - args: batch_size: 32 | warmup_iters: 200 | max_iters: 5000",
        "2025-03-02 08:00:01,000 - train - INFO - building the model",
        "slurmstepd: error: *** JOB 771 ON gpu12 CANCELLED AT 2025-03-02T10:00:00 DUE TO TIME LIMIT ***",
    ]
    data = cold(tmp_path, "train.log", "\n".join(lines) + "\n")
    assert (data["format"], data["status_line"]) == ("generic", "no step yet (5,000 planned) · stopped")
    assert (data["training"]["total_steps"], data["training"]["step"]) == (5000, None)
