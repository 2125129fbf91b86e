"""Totals said in other words, and counts that are no run's step: the run's epochs printed once on a header (a
terminal copy's word cut by a space), a header's ``epoch 6/80`` after the latest step, the closing ``15/15`` of one
Keras ``fit`` call a line, an unsized bar's ``11it`` once a pass, RL runs' environment timesteps and a table of trials.

Real excerpts (tests/data/real, each file's source in its header) and composed logs in their shapes, the answers worked
out here by hand from the lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.ingest.formats.classes import planned_epochs
from tests.coldread import T0, read_cold
from tests.reallogs import body


def read(tmp_path: Path, lines: list[str]) -> dict[str, Any]:
    return read_cold(tmp_path, lines, name="run.log", at=T0)


def stage_line(data: dict[str, Any]) -> str:
    return next(line for line in data["details"] if line.startswith("Stage "))


# --- the run's epochs, said once ------------------------------------------------------------------------------


def test_planned_epochs_said_with_the_word_cut_once_by_a_terminal_s_wrap() -> None:
    # mmdetection#3495 copied from an 80-column terminal: ``max: 200 epoc hs``; any one cut of the word reads, two do
    # not (no longer the word), nor a count with no word at all
    assert [planned_epochs(text) for text in (
        "workflow: [('train', 1)], max: 200 epoc hs", "max: 12 e pochs", "max: 12 epoch s", "max: 12 ep oc hs",
        "max: 12 epochsize", "max: 12")] == [200, 12, 12, None, None, None]


def test_real_mmdet_terminal_copy_gives_epoch_1_of_200(tmp_path: Path) -> None:
    """mmdetection#3495: ``max: 200 epoc hs``, then ``Epoch [1][50/175]`` and ``[1][100/175]``: epoch 1 of 200, 100
    of its 175 iterations (57.1 %)."""
    data = read(tmp_path, body("generic-mmdet-issue3495-terminal-copy-max-200-epoc-hs-epoch-1-iter-100-of-175.log"))
    assert stage_line(data) == "Stage train · epoch 1/200 · 100/175 in the epoch (57.1%)"
    assert data["training"]["loss"] == 2.2961


def test_real_kohya_header_after_the_latest_bar_keeps_the_run_s_epochs(tmp_path: Path) -> None:
    """kohya sd-scripts#2137: the bar over all 3280 steps at 205 (epoch 5), then the header ``epoch 6/80``: the run is
    in epoch 6 of 80 now, text and JSON alike, still at step 205 of 3280."""
    data = read(tmp_path, body("generic-kohya-sd-scripts-issue2137-epoch-headers-6-of-80-over-a-bar-of-all-steps-avr-loss-nan.log"))
    assert "Data epoch 6/80" in data["details"]
    assert data["training"]["data"]["epoch"] == 6
    assert stage_line(data) == "Stage train · step 205/3280 (6.2%)"


def test_a_header_past_the_run_s_epochs_is_not_said_of_them(tmp_path: Path) -> None:
    # composed: a header naming epoch 3 after a bar whose epochs are 2 (a new run's, a typo): no ``3/2``
    lines = ["epoch 2/2", "steps:  50%|█████     | 41/82 [00:50<00:50,  1.24s/it, avr_loss=0.1]", "epoch 3"]
    data = read(tmp_path, lines)
    assert "Data epoch 3" in data["details"]


# --- a count that starts again each pass ------------------------------------------------------------------------


def test_real_keras3_closing_lines_of_many_fits_are_each_a_pass_never_the_run_s_step(tmp_path: Path) -> None:
    """TrackNetV4#3: seventeen Keras 3 closing lines, one ``fit`` call each (64/64, 68/68, …, 15/15), no ``Epoch N/M``
    header: the last one is at 15 of its 15 steps; no epoch, no total of the run's, no step 15 of the run's."""
    data = read(tmp_path, body("generic-keras3-tracknetv4-issue3-closing-lines-of-many-fits-no-epoch-headers.log"))
    assert data["status_line"].startswith("15/15 in the pass")
    assert stage_line(data) == "Stage train · 15/15 in the pass"
    training = data["training"]
    assert (training["step_unit"], training["total_steps"], training["data"], training["loss"]) == (
        "pass", None, None, 0.00050339)
    assert not data["training"]["finished"]


def test_real_unsized_bars_one_a_pass_are_each_a_pass(tmp_path: Path) -> None:
    """wav2lip_288x288#33: 26 unsized bars ``Loss: 0.52…: : 11it [00:06,  1.59it/s]``, each a pass of 11 iterations
    starting at 0: not step 11 (nor 286) of the run's; the last loss 0.5399."""
    data = read(tmp_path, body("generic-wav2lip-issue33-unsized-tqdm-11it-per-pass-repeated.log"))
    assert data["status_line"].startswith("11 in the pass")
    assert (data["training"]["step_unit"], round(data["training"]["loss"], 4)) == ("pass", 0.5399)


def test_one_unsized_bar_going_on_is_the_run_s_count_and_its_close_once_drawn_again_too(tmp_path: Path) -> None:
    # composed: one bar counting on (each redraw past the last), its closing state drawn twice as tqdm does: the run's
    # step 30; a second pass that starts again makes them passes
    one = [f"Loss: 0.5: : {n}it [00:0{n // 10}, 10.0it/s]" for n in (10, 20, 30, 30)]
    assert read(tmp_path, one)["status_line"].startswith("step 30")
    assert read(tmp_path, [*one, "Loss: 0.4: : 5it [00:00, 10.0it/s]"])["status_line"].startswith("5 in the pass")


# --- RL totals and trials ---------------------------------------------------------------------------------------


def test_real_tune_table_of_two_running_trials_is_said_to_be_two(tmp_path: Path) -> None:
    """ray#33150's table: APPO trials 00000 (iter 3, 30.3035 s, ts 46550, reward 190.75) and 00001 (iter 1, ts 15850,
    reward 25.9221), both RUNNING."""
    data = read(tmp_path, body("rllib-tune-ray-issue33150-trial-table-two-appo-trials-running.log"))
    assert ("Trials 2, the first followed: APPO_CartPole-v1_29116_00000 iter 3 · reward 190.75 · ts 46,550; "
            "APPO_CartPole-v1_29116_00001 iter 1 · reward 25.9221 · ts 15,850") in data["details"]
    figures = data["training"]["figures"]
    assert (figures["trial/APPO_CartPole-v1_29116_00001/iter"], figures["total/timesteps"]) == (1, 46550)


def test_real_ddpg_iteration_8_cut_before_its_timesteps_total_gives_its_own_sampled_count(tmp_path: Path) -> None:
    """ray PR #3498: iteration 7's ``timesteps_total: 7000``, a status line, then iteration 8's block cut after
    ``time_total_s`` (no ``timesteps_total``): its ``num_steps_sampled: 8000`` under ``info:`` is its count."""
    data = read(tmp_path, body("rllib-ray-pr3498-ddpg-status-line-then-result-iter-8-cut-before-timesteps-total.log"))
    assert "Totals timesteps 8,000" in data["details"]
    assert (data["training"]["step"], data["training"]["figures"]["total/timesteps"]) == (8, 8000)


# --- running counts and memory printed beside a step ---------------------------------------------------------


def test_real_running_token_counts_are_shown_as_printed_totals(tmp_path: Path) -> None:
    """MLX-LM (Azure dev-summit README run: ``Iter 500: … Trained Tokens 31121``) and Megatron-DeepSpeed (BigScience
    tr11 chronicles: ``consumed tokens:  97985069056``): the tokens trained on so far, each under its printed name."""
    data = read(tmp_path, body("generic-mlx-lm-azure-devsummit-file-readme-phi35-done-500.log"))
    assert "Totals trained tokens 31,121" in data["details"]
    data = read(tmp_path, body("generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-loss-spike.log"))
    assert "Totals consumed tokens 97,985,069,056" in data["details"]
    assert data["training"]["figures"]["total/consumed tokens"] == 97985069056


def test_tinygrad_s_memory_over_every_device_and_its_ops_as_printed(tmp_path: Path) -> None:
    # composed in tinygrad's llama shape (examples/mlperf/model_train.py): ``1454.57 GB used``, ``394520.83 GFLOPS``
    lines = [f"   {n} 4.40 s run, 11.8750 loss, 0.000000000005 LR, 1454.57 GB used, 394520.83 GFLOPS" for n in (1, 2, 3)]
    data = read(tmp_path, lines)
    assert data["format"] == "tinygrad"
    assert "Memory used 1454.57 GB (as printed)" in data["details"]
    assert data["training"]["figures"]["rate/GFLOPS"] == 394520.83


def test_real_rsl_rl_blocks_give_the_environment_s_steps_rate_and_mean_reward(tmp_path: Path) -> None:
    """rsl_rl's ``Learning iteration N/M`` block on three repositories: mjlab PR #1021 (``Total steps: 1608``, ``Steps
    per second: 101``, ``Mean reward: -7.91``), IsaacLab #5084 (iteration 1 of 10: 512, 1581, -4.08), and a hover task
    (issue 45: ``Computation: 46045 steps/s``, ``Mean reward: 4006.23``, no total printed): the environment's figures,
    never the run's steps; its value function's and entropy's losses beside the surrogate loss (the loss) under their
    names (``Mean value loss: 0.4399``, ``Mean entropy loss: 41.4604``; ``Value function loss: 736518.8656``)."""
    for name, step, figures in (
        ("generic-rsl-rl-mjlab-pr1021-learning-iteration-66-of-30000-one-block.log", 66,
         {"total/timesteps": 1608, "rate/Steps per second": 101, "reward": -7.91,
          "figure/Mean value loss": 0.4399, "figure/Mean entropy loss": 41.4604}),
        ("generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log", 1,
         {"total/timesteps": 512, "rate/Steps per second": 1581, "reward": -4.08,
          "figure/Mean value loss": 19.6685, "figure/Mean entropy loss": 1.3166}),
        ("generic-rsl-rl-hover-issue45-learning-iteration-156025-computation-steps-s.log", 156025,
         {"rate/Steps per second": 46045, "reward": 4006.23, "figure/Value function loss": 736518.8656}),
    ):
        training = read(tmp_path, body(name))["training"]
        assert (training["step"], training["figures"]) == (step, figures), name


# --- figures printed under names of their own ---------------------------------------------------------------


def test_mingpt_s_iteration_time_is_the_step_s(tmp_path: Path) -> None:
    # composed in minGPT's chargpt shape (karpathy/minGPT projects/chargpt: ``iter_dt {dt * 1000:.2f}ms; iter {n}: train
    # loss {loss:.5f}``), every second iteration: the printed 6000.00 ms is the step's time
    lines = [f"iter_dt {dt}ms; iter {n}: train loss {loss}" for n, dt, loss in (
        (2, "7797.46", "2.60938"), (4, "5743.34", "2.49033"), (6, "6000.00", "2.42024"))]
    data = read(tmp_path, lines)
    assert (data["training"]["step"], data["training"]["step_seconds"], data["training"]["loss"]) == (6, 6.0, 2.42024)
    assert "step 6.00 s (as printed)" in data["details"]


def test_a_network_s_loss_beside_its_scaler_s_is_the_loss_and_nan_says_so(tmp_path: Path) -> None:
    # composed in a medical-segmentation trainer's shape: ``train iter: N loss_net: … loss_scale: …``; from iteration 100
    # the loss is nan: the run diverged there
    lines = ["02:29:53: train iter: 0 loss_net: 0.9443 loss_scale: 32768.0000 norm: 21.8862",
             "02:31:56: train iter: 100 loss_net: nan loss_scale: 785.4200 norm: nan",
             "02:33:59: train iter: 200 loss_net: nan loss_scale: 1.0000 norm: nan"]
    data = read(tmp_path, lines)
    assert data["state"] == "diverged"
    assert "Loss not a number since step 100" in data["details"]


def test_a_sub_batch_counter_inside_the_progress_brackets_keeps_the_epoch_s_position(tmp_path: Path) -> None:
    # composed in the PyTorch MNIST example's shape with a sub-batch counter inside the brackets: ``Train Epoch: 0
    # [7010/7010 Srno: 2 (100%)]<TAB>Loss: 0.110357``: epoch 0, batch 7010 of its 7010
    lines = [f"Train Epoch: 0 [{n}/7010 Srno: {k} (100%)]\tLoss: {loss}"
             for n, k, loss in ((7009, 2, "0.171052"), (7010, 0, "0.096523"), (7010, 2, "0.110357"))]
    data = read(tmp_path, lines)
    assert stage_line(data) == "Stage train · epoch 0 · 7010/7010 in the epoch"
    assert data["training"]["loss"] == 0.110357


def test_an_evaluation_named_as_the_record_s_stage_is_an_evaluation(tmp_path: Path) -> None:
    # composed in icefall's shape (k2-fsa/icefall's train.py: ``Epoch {e}, validation: {loss_info}``): the validation's
    # loss 8.6, then batch 50's own loss 1.621; a litgpt-style ``val: n/a`` (no figure after the colon) is no evaluation
    lines = [("2024-05-17 01:46:36,929 INFO [train.py:1066] (0/8) Epoch 1, validation: loss=8.6, simple_loss=6.902, "
              "over 944034.00 frames. "),
             ("2024-05-17 01:48:24,230 INFO [train.py:1034] (0/8) Epoch 1, batch 50, loss[loss=1.621, simple_loss=1.207, "
              "over 49372.00 frames. ], tot_loss[loss=3.721, over 2196903.96 frames. ], batch size: 138, lr: 2.48e-02")]
    data = read(tmp_path, lines)
    assert data["training"]["eval"] == {"val_loss": {"value": 8.6, "step": None}}
    assert data["training"]["loss"] == 1.621
    litgpt = [f"Epoch 1 | iter {n} step 1 | loss train: 3.724, val: n/a | iter time: 45.73 ms" for n in (46, 47, 48)]
    data = read(tmp_path, litgpt)
    assert (data["training"]["step"], data["training"]["eval"]) == (1, None)  # (its optimizer step, as before)


def test_detectron_s_json_stats_give_the_iteration_s_time_and_memory(tmp_path: Path) -> None:
    # composed in Detectron's (Caffe2) shape (facebookresearch/Detectron utils/training_stats.py logs ``json_stats:`` and
    # the record; its figures as strings in later versions): ``time`` the iterations' mean seconds, ``mem`` as printed
    lines = [('json_stats: {"accuracy_cls": "0.999023", "eta": "0:00:20", "iter": 59980, "loss": "0.031790", '
              '"lr": "0.000025", "mb_qsize": 0, "mem": 2744, "time": "0.218661"}'),
             ('json_stats: {"accuracy_cls": "0.999023", "eta": "0:00:00", "iter": 59999, "loss": "0.030110", '
              '"lr": "0.000025", "mb_qsize": 0, "mem": 2744, "time": "0.218700"}')]
    data = read(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"], training["step_seconds"]) == (59999, 0.03011, 0.2187)
    assert "Memory 2744 (as printed)" in data["details"]


def test_scores_alone_before_the_first_step_are_an_evaluation_settings_are_not(tmp_path: Path) -> None:
    # composed in DGL's GraphSAGE example shape (``Eval Acc {:.4f}``, ``Best Eval Acc {:.4f} Test Acc {:.4f}``, then
    # ``Epoch {:05d} | Step {:05d} | Loss {:.4f} | …``): a paste that begins with the last evaluation shows it, at no step
    steps = [f"Epoch 00003 | Step {n:05d} | Loss 0.3660 | Train Acc 0.8906 | Speed (samples/sec) 510.8764"
             for n in (0, 20, 40)]
    data = read(tmp_path, ["Eval Acc 0.8398", "Best Eval Acc 0.8398 Test Acc 0.7468", *steps])
    assert data["training"]["eval"] == {"eval_acc": {"value": 0.8398, "step": None},
                                        "best_eval_acc": {"value": 0.8398, "step": None},
                                        "test_acc": {"value": 0.7468, "step": None}}
    # a setting named after the evaluation is no score: nothing evaluated
    assert read(tmp_path, ["eval_steps: 500", "val_check_interval: 1.0", *steps])["training"]["eval"] is None


def test_an_epoch_s_mean_training_loss_said_alone_is_shown_beside_its_evaluation(tmp_path: Path) -> None:
    # composed in the PyTorch examples' shape (``Train Epoch: 0 [n/N (100%)]<TAB>Loss: …``, then the epoch's averages
    # on lines of their own, ``Train Error: Avg loss: …`` and ``Test Error: Avg loss: …``)
    lines = [f"Train Epoch: 0 [{n}/7010 (100%)]\tLoss: 0.110357" for n in (7008, 7009, 7010)]
    data = read(tmp_path, [*lines, "Train Error: Avg loss: 0.232530 ", "", "Test Error: Avg loss: 0.062938"])
    assert data["training"]["eval"] == {"train_avg_loss": {"value": 0.23253, "step": None},
                                        "test_loss": {"value": 0.062938, "step": None}}
    assert data["training"]["loss"] == 0.110357  # (the batches' own loss stays the loss)
