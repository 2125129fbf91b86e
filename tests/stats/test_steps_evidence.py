"""What a step run shows is what its log says: a bar of other work is no position, a time worked out is not
"as printed", a printed total is shown.

Real excerpts (tests/data/real, each file's source in its header) and composed logs whose answers are
worked out here by hand.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.coldread import T0, read_cold
from tests.reallogs import body


def read_at(tmp_path: Path, lines: list[str], later: float = 0.0) -> dict[str, Any]:
    """The snapshot ``later`` seconds after the log's last write (undated lines: written then)."""
    return read_cold(tmp_path, lines, name="run.log", at=T0 + later)


# --- a bar of other work before the Trainer's dicts ----------------------------------------------------


def test_a_data_bar_followed_by_loss_dicts_is_not_the_run_s_position(tmp_path: Path) -> None:
    """Time-MoE #71: a 7/7 bar (1809 it/s, the dataset's preparation) then nine loss dicts, epoch 0.04 → 0.35, no
    bar between them: training goes on past that bar's end, so it is no total and no end; the dicts are the run's
    record (nine logged, no step number), at epoch 0.35 with loss 0.173, still training."""
    data = read_at(tmp_path, body("hf-time-moe-issue71-data-bar-then-dicts.log"))
    training = data["training"]
    assert data["state"] != "done" and not training["finished"]
    assert training["step"] is None and training["total_steps"] is None
    assert training["logged_records"] == 9 and training["logged_steps"] is True
    assert training["loss"] == 0.173 and training["data"]["epoch"] == 0.35
    assert training["step_seconds"] is None
    assert data["status_line"] == "epoch 0.35 · loss 0.173"


def dicts(epochs: list[float]) -> list[str]:
    return [f"{{'loss': {1 + e:.4f}, 'learning_rate': 5e-05, 'epoch': {e}}}" for e in epochs]


def test_the_closing_bar_and_its_last_dict_still_end_the_run(tmp_path: Path) -> None:
    """A training bar at its total with one dict after it (the Trainer logs its last step, then sums up): done at
    step 20 of 20, the data bar's rule does not take it."""
    bars = [f"{int(100 * n / 20)}%|##| {n}/20 [00:{n:02d}<00:00,  1.00it/s]" for n in (5, 10, 15, 20)]
    lines = [bars[0], *dicts([0.25]), bars[1], *dicts([0.5]), bars[2], *dicts([0.75]), bars[3], *dicts([1.0]),
             ("{'train_runtime': 20.0, 'train_samples_per_second': 8.0, 'train_steps_per_second': 1.0, "
              "'train_loss': 1.5, 'epoch': 1.0}")]
    data = read_at(tmp_path, lines)
    assert data["state"] == "done"
    assert (data["training"]["step"], data["training"]["total_steps"]) == (20, 20)


def test_a_full_bar_then_one_dict_keeps_the_bar_until_a_second_dict_says_otherwise(tmp_path: Path) -> None:
    """A 4/4 bar then one dict: the bar is the position (nothing says otherwise yet); a second dict with no bar
    between (epoch 0.1 → 0.2): two logged records, the bar forgotten. (The bar took 8 s: one full within its
    first second before any dict is a data set's, whatever follows.)"""
    bar = "100%|##########| 4/4 [00:08<00:00,  2.00s/it]"
    one = read_at(tmp_path, [bar, *dicts([0.1])])
    assert one["training"]["total_steps"] == 4
    two = read_at(tmp_path, [bar, *dicts([0.1, 0.2])])
    assert two["training"]["total_steps"] is None and two["training"]["logged_records"] == 2
    assert two["training"]["loss"] == 1.2 and two["training"]["data"]["epoch"] == 0.2


# --- a step's time worked out from a longer time is said so, never "as printed" -------------------------------


def test_keras_1_epoch_time_over_an_unsaid_count_is_the_epoch_s_never_a_step_s(tmp_path: Path) -> None:
    """keras #8680: ``1562/1562 [====] - 481s - loss: 0.7610 …`` prints the epoch's time only and no unit of its count
    (steps or samples): 481 s is shown as the epoch's, as printed, and no step's time is made of it; the bar's count is
    shown as printed beside the epoch 49/200 now begun, never called steps."""
    data = read_at(tmp_path, body("generic-keras-issue8680-keras1-epoch-times.log"))
    details = data["details"]
    assert "epoch 8 min 1 s (as printed)" in details
    assert not any(line.startswith("step ") for line in details)
    assert "Stage train · epoch 49/200 · 1562/1562 in the epoch before" in details
    assert data["training"]["step_seconds"] is None


def test_keras_2_per_step_time_stays_as_printed(tmp_path: Path) -> None:
    """Keras 2 prints each step's own time (``- 16ms/step``): as printed; 100 steps an epoch once epoch 3 began."""
    lines = ["Epoch 1/5", "100/100 [==============================] - 2s 16ms/step - loss: 0.5000",
             "Epoch 2/5", "100/100 [==============================] - 2s 16ms/step - loss: 0.4000", "Epoch 3/5"]
    details = read_at(tmp_path, lines)["details"]
    assert "step 16 ms (as printed)" in details
    assert "Stage train · epoch 3/5 · 100 steps an epoch" in details


def test_a_stable_baselines_table_shows_its_timesteps_and_fps_and_says_how_its_step_time_was_worked_out(
        tmp_path: Path) -> None:
    """stable-baselines #339: ``total_timesteps 1166190`` the position, ``fps 49`` their rate as printed: 1 / 49 s is
    20.4 ms a timestep, worked out (the table prints no timestep's own time); ``nupdates 77746`` no step."""
    data = read_at(tmp_path, body("stable-baselines-sb2-stable-baselines-issue339-ppo2-table-nupdates-77746.log"))
    details = data["details"]
    assert data["training"]["step"] == 1166190
    assert "step 20 ms (1 / the fps it prints)" in details
    assert "Rates fps 49" in details and not any(line.startswith("Totals") for line in details)


# --- where the run is, from what else it prints ------------------------------------------------------------


def test_validations_that_name_the_epoch_and_updates_are_where_the_run_is(tmp_path: Path) -> None:
    """modernmt #509: only fairseq's legacy ``| epoch 016 | valid on 'valid' subset | loss 3.290 | … | num_updates
    130000`` lines after an elision: training got to update 130000 in epoch 16 (not "validation only", not waiting);
    the valid loss 3.290 at that update; no rate (no time printed)."""
    data = read_at(tmp_path, body("generic-fairseq-modernmt-issue509-valid-lines-only.log"))
    training = data["training"]
    assert data["state"] in ("measuring", "training") and "validation only" not in data["status_line"]
    assert training["step"] == 130000 and training["data"]["epoch"] == 16
    assert training["eval"]["val_loss"] == {"value": 3.29, "step": 130000} and training["steps_per_hour"] is None
    assert not training["finished"]


def test_a_validation_naming_its_epoch_after_training_lines_is_no_new_position(tmp_path: Path) -> None:
    """Training lines, then a validation naming the epoch and the update: the step stays the training line's."""
    lines = ["| epoch 001:   100 / 500 loss=5.100, num_updates=100", "| epoch 001:   200 / 500 loss=4.900, num_updates=200",
             "| epoch 001 | valid on 'valid' subset | loss 4.800 | num_updates 200"]
    training = read_at(tmp_path, lines)["training"]
    assert training["step"] == 200 and training["loss"] == 4.9


def test_a_bar_drawn_after_logged_dicts_keeps_their_evaluation_and_epoch(tmp_path: Path) -> None:
    """alpaca-lora #268: loss and eval dicts (steps 2 and 4, none printed), then the bar cut after its total,
    ``  1%|▎ … | 4/388``: step 4 of 388 (1 %), the last loss 2.2272 and eval_loss 2.0988, epoch 0.01; no rate."""
    data = read_at(tmp_path, body("hf-alpaca-lora-issue268-dicts-then-cut-bar-4-of-388.log"))
    training = data["training"]
    assert (training["step"], training["total_steps"]) == (4, 388)
    assert training["loss"] == 2.2272 and training["data"]["epoch"] == 0.01
    assert training["eval"]["eval_loss"] == {"value": 2.098778247833252, "step": None}
    assert training["steps_per_hour"] is None and data["state"] != "done"


def test_a_bar_cut_inside_its_total_is_not_read(tmp_path: Path) -> None:
    """``  1%|▎ … | 4/38`` whose percentage says 4 is 10 % of 38: the total was cut short; the dicts stand alone."""
    lines = ["{'loss': 2.3911, 'learning_rate': 0.0003, 'epoch': 0.01}",
             "{'eval_loss': 2.2206, 'eval_runtime': 274.3799, 'epoch': 0.01}", "  1%|▎                | 4/38"]
    training = read_at(tmp_path, lines)["training"]
    assert training["total_steps"] is None and training["logged_records"] == 1


# --- a stop in the trainer's own words --------------------------------------------------------------------


def test_a_keyboard_interrupt_told_in_words_is_a_stop_by_hand(tmp_path: Path) -> None:
    """safelife #23: ``CRITICAL Keyboard Interrupt. Ending early.`` (the Ctrl-C the trainer caught), then a
    traceback from its shutdown: stopped by hand, never a crash."""
    data = read_at(tmp_path, body("stopped-safelife-issue23-keyboard-interrupt-in-words.log"))
    assert data["state"] == "stopped" and "stopped by hand" in data["status_line"]
    assert data["training"]["crash"]["error"] == "CRITICAL Keyboard Interrupt. Ending early."


def test_an_epoch_s_own_time_printed_beside_its_last_step_is_shown_as_printed() -> None:
    """DGL's ``Epoch Time(s): 7.2513`` after an epoch's last step (a reader keeps it as that step's
    ``epoch_seconds``): ``epoch 7.25 s (as printed)``; a step without it shows none."""
    from app.stats.events import TrainStep
    from app.stats.steps.stage import RunFacts, Stage
    from app.stats.steps.text import speed_parts

    timed = TrainStep(at=None, stage="train", step=20, epoch=29, figures=(("epoch_seconds", 7.2513),))
    assert speed_parts(Stage(name="train", latest=timed, step_time=None), RunFacts()) == ["epoch 7.25 s (as printed)"]
    plain = TrainStep(at=None, stage="train", step=20, epoch=29)
    assert speed_parts(Stage(name="train", latest=plain, step_time=None), RunFacts()) == []


# --- a swarm's round that says it trains ------------------------------------------------------------------------


def test_a_swarm_round_it_says_it_trains_in_is_training_not_waiting(tmp_path: Path) -> None:
    """rl-swarm #335: ``🐝 Joining round: 646 starting at stage: 2`` then ``📈 Training round: 646 stage: 2`` and no
    step line of its own: training in round 646, stage 2 (never "waiting for first step")."""
    data = read_at(tmp_path, body("hivemind-rlswarm-issue335-debug-logfile-joining-round-646-stage-2.log"))
    assert (data["state"], data["status_line"]) == ("training", "training round 646 · stage 2")
    assert "waiting for the first training step" not in data["details"]


def test_joining_a_round_alone_is_still_waiting(tmp_path: Path) -> None:
    """Composed: only ``🐝 Joining round: 331 starting at stage: 1``: it has not said it trains yet."""
    prefix = "INFO:hivemind_exp.trainer.hivemind_grpo_trainer:long scampering elephant:"
    data = read_at(tmp_path, [prefix + "🐝 Joining round: 331 starting at stage: 1"])
    assert data["state"] == "working" and data["status_line"] == "waiting for first step"
    trained = read_at(tmp_path, [prefix + "🐝 Joining round: 331 starting at stage: 1",
                                 prefix + "📈 Training round: 331 stage: 1"])
    assert (trained["state"], trained["status_line"]) == ("training", "training round 331 · stage 1")


def test_trl_s_tokens_seen_are_shown_as_printed(tmp_path: Path) -> None:
    """trl #3857: one GRPO dict with ``'num_tokens': 1751675.0`` (the tokens its trainer has seen so far): shown as
    printed beside its reward 3.0, and no rate (one dict)."""
    data = read_at(tmp_path, body("hf-trl-issue3857-grpo-dict-num-tokens.log"))
    assert "Reward 3 · 1,751,675 tokens seen (as printed)" in data["details"]
    assert data["training"]["tokens_per_hour"] is None


def test_a_stable_baselines_3_table_shows_its_reward_timesteps_and_fps(tmp_path: Path) -> None:
    """A minigrid PPO run's SB3 tables: the last one at iteration 19532 prints ``ep_rew_mean 0.016``,
    ``fps 3369``, ``total_timesteps 20000768``: the timesteps the position, learn()'s count, the fps their rate."""
    data = read_at(tmp_path, body("stable-baselines-sb3-ppo-minigrid-tables-iterations-19529-to-19532.log"))
    details = data["details"]
    assert data["training"]["step"] == 20000768
    assert "Rates fps 3369" in details and "Reward 0.016" in details


def test_an_episode_reward_that_is_not_a_number_yet_is_not_shown(tmp_path: Path) -> None:
    """Composed SB2 table: ``ep_rewmean nan`` before any episode ended: no reward line; its fps 142 stays."""
    rows = [("ep_rewmean", "nan"), ("fps", "142"), ("nupdates", "782"), ("policy_loss", "-0.011813248"),
            ("time_elapsed", "656"), ("total_timesteps", "100096")]
    rule = "---------------------------------------"
    lines = [rule, *[f"| {name:<18} | {value:<13} |" for name, value in rows], rule]
    details = read_at(tmp_path, lines)["details"]
    assert "Rates fps 142" in details and not any(line.startswith("Reward") for line in details)


def test_a_full_bar_after_an_evaluation_s_dict_is_not_taken_for_training(tmp_path: Path) -> None:
    """Composed: a loss dict, an eval dict, then ``100%|##| 35/35 [00:05<00:00, 7.00it/s]`` (the next evaluation
    set's bar, drawn to its end): no total of 35 and no end; the dict stays the run's one logged record."""
    lines = ["{'loss': 2.3911, 'learning_rate': 0.0003, 'epoch': 0.01}",
             "{'eval_loss': 2.2206, 'eval_runtime': 274.3799, 'epoch': 0.01}",
             "100%|##########| 35/35 [00:05<00:00,  7.00it/s]"]
    data = read_at(tmp_path, lines)
    assert data["state"] != "done" and data["training"]["total_steps"] is None


def test_a_step_line_after_an_evaluation_leaves_its_wait_out_of_the_step_time(tmp_path: Path) -> None:
    """espnet #2674 without its printed ``train_time`` (a logger that prints none): 375 batches at 16:30:04.578,
    09.675 and 14.840, epoch 1's results with its validation, then epoch 2's first 375 at 16:30:24.312. Before a rate
    is measured the step time is the lines' time over their batches, leaving out the line after the evaluation:
    (5.097 s + 5.165 s) / 750 = 13.68 ms, not the 17.5 ms that the 9.472 s holding the validation would make it."""
    lines = [re.sub(r", train_time=[\d.e-]+", "", line)
             for line in body("espnet-issue2674-lm-1epoch-train-6376-to-7500-results-valid-loss-then-2-of-20-started.log")]
    data = read_at(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx((5.097 + 5.165) / 750, rel=1e-3)
    assert "step 14 ms (measured from the lines' times)" in data["details"]


# --- an evaluation's last line ends its pause -------------------------------------------------------------


def test_yolo_s_all_row_closes_the_evaluation(tmp_path: Path) -> None:
    """ultralytics #22209: each epoch's bar, its validation's ``Class … mAP50-95)`` bar, then the ``all`` row of every
    class at once: the validation is over (the next epoch's bar follows it), so the log's end at that row is no pause
    for an evaluation; the row's figures are the evaluation's (mAP50-95 0 at epoch 14 of 300)."""
    data = read_at(tmp_path, body("generic-yolo11-ultralytics-issue22209-new-bars-epochs-12-14-of-300-it-s.log"))
    assert data["training"]["paused"] is None
    assert data["training"]["eval"]["mAP50-95"]["value"] == 0.0
    assert not any(line.startswith("Paused") for line in data["details"])


def test_an_evaluation_line_without_its_end_still_pauses(tmp_path: Path) -> None:
    """nanoGPT's ``step 250: train loss …, val loss …`` (train.py's estimate_loss print): a checkpoint may follow it
    before the next iteration, so training is paused for the evaluation until the next step line."""
    lines = [f"iter {n}: loss 2.5000, time 100.00ms, mfu 10.00%" for n in range(240, 250)]
    lines.append("step 250: train loss 2.4000, val loss 2.5000")
    data = read_at(tmp_path, lines)
    assert data["training"]["paused"] == "evaluation"


def test_a_duration_printed_per_logging_interval_is_no_step_s_time(tmp_path: Path) -> None:
    """A loop that prints ``seconds: 120.000`` every 100 iterations (the interval's time, as MedicalDataAugmentationTool's
    ``train iter: N … seconds: …`` does), dated: 120 s by the dates for 100 iterations is 1.20 s an iteration, and 200
    iterations in 4 min are 3,000 an hour; never 120 s a step (30 steps/h)."""
    lines = ["2024-01-01 10:00:00 train iter: 0 loss_net: 1.0000 seconds: 400.000",
             "2024-01-01 10:02:00 train iter: 100 loss_net: 0.9000 seconds: 120.000",
             "2024-01-01 10:04:00 train iter: 200 loss_net: 0.8000 seconds: 120.000"]
    data = read_cold(tmp_path, lines, dated=True)  # (at the last line's time)
    assert data["training"]["step_seconds"] == pytest.approx(1.2)
    assert "step 1.20 s (from the log's dates)" in data["details"]
    assert data["rate"]["passes_per_hour"] == pytest.approx(3000.0)


# --- Lightning 1.x: the training bar counts the validation's batches on ------------------------------------

LIGHTNING_1X = [
    "Epoch 0:   0%|          | 0/25 [00:00<?, ?it/s] ",
    "Epoch 0:  40%|████      | 10/25 [00:20<00:30,  2.00s/it, loss=1.23, v_num=1]",
    "Epoch 0:  60%|██████    | 15/25 [00:30<00:20,  2.00s/it, loss=1.10, v_num=1]",
    "Validating: 0it [00:00, ?it/s]",
    "Validating:   0%|          | 0/10 [00:00<?, ?it/s]",
]


def test_a_lightning_1_bar_past_its_training_batches_counts_the_validation(tmp_path: Path) -> None:
    """Lightning 1.x's ``Epoch 0`` bar totals the training's batches and the validation's (25 = 15 + 10, the
    ``Validating`` bar's 0/10): after that bar, its 20/25 and 23/25 are validation batches at the validation's pace
    (1.43 s/it), so the run is at training batch 15 of its 15, its step 2.00 s as printed there (a training batch's,
    said so), paused for the evaluation."""
    lines = LIGHTNING_1X + ["Epoch 0:  80%|████████  | 20/25 [00:32<00:08,  1.60s/it, loss=1.10, v_num=1]",
                            "Epoch 0:  92%|█████████▏| 23/25 [00:33<00:02,  1.43s/it, loss=1.10, v_num=1]"]
    data = read_at(tmp_path, lines)
    training = data["training"]
    assert training["step"] == 15 and training["step_seconds"] == 2.0
    assert training["total_steps"] is None  # (the epoch's training share is 15: never the bar's 25)
    assert training["paused"] == "evaluation"
    assert "step 2.00 s (a training batch's, as printed at 15/25)" in data["details"]
    assert "Stage train · epoch 0 · 15/15 in the epoch" in data["details"]


def test_a_lightning_1_pass_is_where_the_main_bar_past_its_training_batches_says(tmp_path: Path) -> None:
    """The main bar's newest count past the training's 15 is the validation's (23 - 15 = 8 of 10), newer than the
    ``Validating`` bar's last redraw (0/10): the pass is at 8 of 10."""
    lines = LIGHTNING_1X + ["Epoch 0:  80%|████████  | 20/25 [00:32<00:08,  1.60s/it, loss=1.10, v_num=1]",
                            "Epoch 0:  92%|█████████▏| 23/25 [00:33<00:02,  1.43s/it, loss=1.10, v_num=1]"]
    data = read_at(tmp_path, lines)
    assert "Evaluating after epoch 0 · 15/15 in the epoch: 8/10 of its pass, no result yet" in data["details"]


def test_a_validation_bar_with_the_main_bar_written_after_it_is_two_bars(tmp_path: Path) -> None:
    """A captured log without its carriage returns: the ``Validating`` bar's redraw, then the main bar's on the same
    line (``… 4/10 [00:06<00:14,  1.43s/it]Epoch 0:  80%|…| 20/25 …``). The validation's own count is 4 of 10, the
    main bar's 20 - 15 = 5 the newer; neither bar's count of 25 is the pass's, nor is 20 a training batch."""
    glued = ("Validating:  40%|████      | 4/10 [00:06<00:14,  1.43s/it]"
             "Epoch 0:  80%|████████  | 20/25 [00:36<00:09,  1.80s/it, loss=1.10, v_num=1]")
    lines = [*LIGHTNING_1X, glued]
    data = read_at(tmp_path, lines)
    assert data["training"]["step"] == 15 and data["training"]["paused"] == "evaluation"
    assert "Evaluating after epoch 0 · 15/15 in the epoch: 5/10 of its pass, no result yet" in data["details"]


def test_a_lightning_1_epoch_is_where_its_bar_s_newest_record_says(tmp_path: Path) -> None:
    """The newest main-bar record, ``23/25 [00:33<00:02, 1.43s/it]``, is where the epoch is: 15 training batches and 8
    of the validation's, shown as the bar's own count with both parts, its 2 s left the epoch's (the validation
    included). The training bar's ``00:20`` left at 15/25 is stale once a newer record exists, and the 1.43 s/it is no
    training batch's time: the step time stays the training's 2.00 s."""
    lines = LIGHTNING_1X + ["Epoch 0:  80%|████████  | 20/25 [00:32<00:08,  1.60s/it, loss=1.10, v_num=1]",
                            "Epoch 0:  92%|█████████▏| 23/25 [00:33<00:02,  1.43s/it, loss=1.10, v_num=1]"]
    data = read_at(tmp_path, lines)
    assert data["status_line"] == "epoch 0 · bar 23/25: 15 training + 8 validation batches · evaluating"
    assert data["training"]["trainer_eta_seconds"] == 2.0 and data["training"]["eta_seconds"] is None
    assert "Epoch ends in 2 s (trainer, its validation included)" in data["details"]
    assert data["training"]["step"] == 15 and data["training"]["step_seconds"] == 2.0


def test_a_validation_bar_s_redraw_after_the_main_bar_keeps_that_bar_s_record(tmp_path: Path) -> None:
    """The ``Validating`` bar drawn again after the main bar's 20/25: the pass is at its own 6/10, the newer count, and
    the main bar's newest record stays 20/25 (15 + 5) with its 8 s left; the training's 20 s left at 15/25 is not
    brought back."""
    lines = LIGHTNING_1X + ["Epoch 0:  80%|████████  | 20/25 [00:32<00:08,  1.60s/it, loss=1.10, v_num=1]",
                            "Validating:  60%|██████    | 6/10 [00:03<00:02,  1.50it/s]"]
    data = read_at(tmp_path, lines)
    assert data["status_line"] == "epoch 0 · bar 20/25: 15 training + 5 validation batches · evaluating"
    assert "Evaluating after epoch 0 · 15/15 in the epoch: 6/10 of its pass, no result yet" in data["details"]
    assert data["training"]["trainer_eta_seconds"] == 8.0


def test_the_next_epoch_s_training_ends_the_bar_s_validation_record(tmp_path: Path) -> None:
    """The next epoch's bar is training again: its own count and time left, no validation part."""
    lines = LIGHTNING_1X + ["Epoch 0:  92%|█████████▏| 23/25 [00:33<00:02,  1.43s/it, loss=1.10, v_num=1]",
                            "Epoch 1:  40%|████      | 10/25 [00:20<00:30,  2.00s/it, loss=1.00, v_num=1]"]
    data = read_at(tmp_path, lines)
    assert data["status_line"].startswith("epoch 1 · 10/25 in the epoch")
    assert data["training"]["step"] == 10 and data["training"]["total_steps"] == 25
    assert data["training"]["trainer_eta_seconds"] == 30.0 and data["training"]["paused"] is None


@pytest.mark.parametrize(("name", "after", "done", "batches"), [
    # the main bar's 254 - 246, its validation bar's last redraw above it at 6/62
    ("lightning-deeplearningprojects-file-project11-model-py-epoch0-bar-246-254-of-308-validating-0-6-of-62.log",
     "246/246", 8, 62),
    # the main bar's 107 - 94, written after the validation bar's 12/14 on the same line
    ("lightning-temporal-file-slurm-out-validating-bars-glued-to-epoch0-bar-97-107-of-108.log", "94/94", 13, 14),
    # the main bar's 920 - 860, its validation bar last drawn at 0/79
    ("lightning-tempo-file-mlflow-e2e-readme-epoch1-bar-860-920-of-939-validating-0-of-79.log", "860/860", 60, 79),
])  # fmt: skip
def test_a_real_lightning_1_pass_is_counted_by_the_newest_bar(
        tmp_path: Path, name: str, after: str, done: int, batches: int) -> None:
    data = read_at(tmp_path, body(name))
    epoch = 1 if "mlflow" in name else 0
    line = f"Evaluating after epoch {epoch} · {after} in the epoch: {done}/{batches} of its pass, no result yet"
    assert line in data["details"]


def test_a_bar_that_goes_on_training_after_a_validation_is_training(tmp_path: Path) -> None:
    """A validation in the middle of the epoch (Lightning 2's ``val_check_interval``, whose training bar counts the
    training's batches alone): 10 + 10 is not the bar's 25, so the 20/25 after it is training batch 20."""
    lines = LIGHTNING_1X[:2] + LIGHTNING_1X[3:] + [
        "Epoch 0:  80%|████████  | 20/25 [00:40<00:10,  2.00s/it, loss=1.00, v_num=1]"]
    data = read_at(tmp_path, lines)
    assert data["training"]["step"] == 20 and data["training"]["paused"] is None


@pytest.mark.parametrize(("name", "said", "left"), [
    # a training line read before the validation: its printed time, said to be a training batch's (1.06 it/s); the
    # bar's newest record's time left (254/308 [03:59<00:50]), never the 00:58 printed at 246/308
    ("lightning-deeplearningprojects-file-project11-model-py-epoch0-bar-246-254-of-308-validating-0-6-of-62.log",
     "step 943 ms (a training batch's, as printed at 246/308)", "50 s"),
    ("lightning-tempo-file-mlflow-e2e-readme-epoch1-bar-860-920-of-939-validating-0-of-79.log",
     "step 5.7 ms (a training batch's, as printed at 860/939)", "0 s"),
    # none read: the bar's mean pace at its first tick past the share, said to hold the validation's first batches
    ("lightning-temporal-file-slurm-out-validating-bars-glued-to-epoch0-bar-97-107-of-108.log",
     "step 109 ms (the epoch bar's mean pace at 97/108, 3 validation batches in it)", "0 s"),
])  # fmt: skip
def test_a_real_lightning_1_step_time_says_whose_it_is(tmp_path: Path, name: str, said: str, left: str) -> None:
    data = read_at(tmp_path, body(name))
    assert said in data["details"]
    assert f"Epoch ends in {left} (trainer, its validation included)" in data["details"]
