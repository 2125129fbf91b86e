"""The trainer's running clock printed value first (legacy OpenNMT-py's ``…; 3595 src tok/s; 3669 tgt tok/s;  10233 s
elapsed``, the LightGBM CLI's line ``2.436162 seconds elapsed, finished 1000 iteration`` after an iteration's metrics, XGBoost's
CLI's ``boosting round 9, 40.8379 sec elapsed`` before round 9 begins): the
time since it began; a step's time is the clock between two records over the steps between them, never the clock over
the step count from zero (a log may begin mid-run). Where the count starts again with an epoch, the clock started again
with it only if it went back.

Real: OpenNMT/OpenNMT-py issues #709 and #528 and its library doc's log, the Yoruba ADR run's results file (OpenNMT-py
0.x's ``… sec``), lightgbm-org/LightGBM issue #886 (tests/data/real, their headers; their snapshots in
tests/live/test_real_logs.py). Composed: lines whose reading is worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.run_clock import boosted_clock, finished_clock, value_elapsed
from app.stats.events import TrainStep
from tests.coldread import read_cold
from tests.reallogs import REAL


@pytest.mark.parametrize(("text", "seconds"), [
    ("Epoch  1, 13400/37527; acc:   1.89; ppl: 20872.71; xent:   9.95; 3595 src tok/s; 3669 tgt tok/s;  10233 s elapsed",
     10233.0),
    # (as Eurus-Holmes/MNMT issue 8's run printed it)
    ("Epoch 10,   450/  725; acc:   0.00; ppl:   1.83; 6295 src tok/s; 6835 tgt tok/s;     43 s elapsed", 43.0),
    # OpenNMT-py since 0.4: its unit alone, ending the record behind its tokens a second
    ("Step 9900/100000; acc:  88.36; ppl:  1.57; xent: 0.45; lr: 0.00100; 294/312 tok/s;  35748 sec", 35748.0),
    ("Step 250/  400; acc:  17.07; ppl: 310.41; xent: 5.74; lr: 1.00000; 347/344 tok/s;    504 sec", 504.0),
    ("step 40 | loss 2.1 | 12.5 seconds elapsed", 12.5),
    ("step 40 | loss 2.1 | 90 sec elapsed", 90.0),
    # none printed; a word that only begins so; two clocks on one record (whose is whose?)
    ("Epoch  1,    50/ 1000; acc:   4.48; ppl: 350.75; 3599 src tok/s", None),
    ("step 3 | 12 s elapsedness", None),
    ("step 3 | 12 s elapsed | 4 s elapsed", None),
    ("step 3 | loss 2.1 | 0.52 sec", None),  # (a time with its unit alone, not behind tokens a second: any step's)
])  # fmt: skip
def test_a_clock_printed_value_first(text: str, seconds: float | None) -> None:
    assert value_elapsed(text) == seconds


@pytest.mark.parametrize(("text", "clock"), [
    ("[LightGBM] [Info] 2.436162 seconds elapsed, finished 1000 iteration", (2.436162, 1000)),  # (LightGBM issue 39's)
    ("[LightGBM] [Info] 311.474028 seconds elapsed, finished iteration 20", (311.474028, 20)),
    # only a line that ends so: more after it is another line
    ("[LightGBM] [Info] 3.704867 seconds elapsed, finished iteration 1 of 100", None),
    ("[LightGBM] [Info] Finished loading data in 25.605581 seconds", None),
])  # fmt: skip
def test_lightgbm_s_clock_line(text: str, clock: tuple[float, int] | None) -> None:
    assert finished_clock(text) == clock


def test_lightgbm_s_2017_metric_lines_are_its_loss_and_evaluation() -> None:
    # the training set's binary log loss is the iteration's loss; its AUC no figure; the validation set's its evaluation;
    # the clock line after them the iteration's clock
    events = GenericParser().feed([
        "[LightGBM] [Info] Iteration:18, training auc : 0.647672",
        "[LightGBM] [Info] Iteration:18, training binary_logloss : 0.206054",
        "[LightGBM] [Info] Iteration:18, valid_1 auc : 0.594637",
        "[LightGBM] [Info] Iteration:18, valid_1 binary_logloss : 0.211334",
        "[LightGBM] [Info] 282.279991 seconds elapsed, finished iteration 18",
    ])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.elapsed_seconds) for s in steps] == [(18, 0.206054, 282.279991)]
    assert steps[0].loss_note == "training binary_logloss"
    evals = {getattr(e, "name", None): getattr(e, "value", None) for e in events if not isinstance(e, TrainStep)}
    assert evals == {"valid_1_auc": 0.594637, "valid_1_binary_logloss": 0.211334}


@pytest.mark.parametrize(("text", "clock"), [
    ("boosting round 9, 40.8379 sec elapsed", (40.8379, 9)),
    ("boosting round 0, 0 sec elapsed", (0.0, 0)),
    ("boosting round 9, 40.8379 sec elapsed, 3 trees", None),  # only a line that ends so
    ("boosting round 9", None),
])  # fmt: skip
def test_xgboost_s_clock_line(text: str, clock: tuple[float, int] | None) -> None:
    assert boosted_clock(text) == clock


def test_composed_xgboost_cli_rounds_timed_by_their_clock_undated(tmp_path: Path) -> None:
    # XGBoost's CLI prints ``boosting round k, T sec elapsed`` as round k begins (rounds 0..k-1 done), after round
    # k-1's metrics; no time of day here. A log begun mid-run: rounds 20..23, the clock at 100.0, 104.0, 109.0, 112.0
    # as rounds 21..24 begin (so at the ends of rounds 20..23): (112 - 100) / (23 - 20) = 4.0 s a round, never 112 / 24
    lines = []
    for k, clock in enumerate((100.0, 104.0, 109.0, 112.0)):
        lines += [f"[{20 + k}]\ttest-error:0.0272\ttrain-error:0.0102", f"boosting round {21 + k}, {clock} sec elapsed"]
    data = read_cold(tmp_path, lines)
    assert data["training"]["step"] == 23
    assert "step 4.00 s (worked out: the trainer's clock, 12.00 s over 3 steps)" in data["details"]


def test_composed_xgboost_clock_before_another_round_is_not_the_last_round_s() -> None:
    # a clock as round 5 begins, read under round 9's metrics, is no clock of round 9
    events = GenericParser().feed([
        "[8]\ttest-error:0.0272\ttrain-error:0.0102",
        "boosting round 9, 36.0 sec elapsed",
        "[9]\ttest-error:0.0272\ttrain-error:0.0102",
        "boosting round 5, 40.0 sec elapsed",
    ])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.elapsed_seconds) for s in steps] == [(8, 36.0), (9, None)]


def test_composed_lightgbm_cli_iterations_timed_by_their_clock(tmp_path: Path) -> None:
    # LightGBM's CLI of 2016: each iteration's metrics, then the seconds since training began and that iteration; the
    # clock at 120 s at iteration 50 (a log begun mid-run): 3 iterations from 120.0 to 126.0 s, 2.0 s each, never
    # 126 / 53 = 2.38 s
    lines = []
    for k, (loss, clock) in enumerate(((0.305, 120.0), (0.301, 122.0), (0.298, 124.0), (0.296, 126.0))):
        lines += [f"[LightGBM] [Info] Iteration:{50 + k}, training's log loss: {loss}",
                  f"[LightGBM] [Info] {clock:.6f} seconds elapsed, finished {50 + k} iteration"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"]) == (53, 0.296)
    assert training["step_seconds"] == pytest.approx(2.0)


def test_composed_lightgbm_clock_of_another_iteration_is_not_this_one_s() -> None:
    # a clock line naming iteration 9 under iteration 10's metrics is no clock of iteration 10
    events = GenericParser().feed([
        "[LightGBM] [Info] Iteration:9, training's log loss: 0.41",
        "[LightGBM] [Info] 10.000000 seconds elapsed, finished 9 iteration",
        "[LightGBM] [Info] Iteration:10, training's log loss: 0.40",
        "[LightGBM] [Info] 20.000000 seconds elapsed, finished 9 iteration",
    ])
    steps = [e for e in events if isinstance(e, TrainStep)]
    assert [(s.step, s.elapsed_seconds) for s in steps] == [(9, 10.0), (10, None)]


def test_lightgbm_issue886_step_time_is_the_clock_between_iterations(tmp_path: Path) -> None:
    # (311.474028 - 266.050109) s over iterations 17 -> 20: 45.42 s over 3, 15.14 s each; never 311.47 / 20 = 15.57 s
    name = "generic-lightgbm-issue886-cli-parallel-iterations-17-20-binary-logloss-seconds-elapsed-finished-iteration.log"
    lines = [line for line in (REAL / name).read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    text = "\n".join(read_cold(tmp_path, lines)["details"])
    assert "step 15.14 s (worked out: the trainer's clock, 45.42 s over 3 steps)" in text
    assert "15.57" not in text


def _opennmt(rows: list[tuple[int, int, float, int]]) -> list[str]:
    return [f"Epoch {e:2d}, {b:5d}/ 1501; acc:   0.00; ppl: {ppl:6.2f}; 3312 src tok/s; 4251 tgt tok/s; {t:6d} s elapsed"
            for e, b, ppl, t in rows]


def test_composed_opennmt_py_run_clock_goes_on_over_the_epoch_s_end(tmp_path: Path) -> None:
    # the clock since the training began (840 s at epoch 1's batch 1500, 870 s at epoch 2's batch 50): the count went
    # back, the clock did not, so the 30 s are the 51 batches' between them (1501 - 1500 + 50), never the clock over the
    # new count (870 s × 51 / 50): (898 - 783) s over 50 + 50 + 51 + 50 batches, 0.572 s each
    lines = _opennmt([(1, 1400, 171.61, 783), (1, 1450, 169.08, 811), (1, 1500, 162.19, 840),
                      (2, 50, 150.99, 870), (2, 100, 149.27, 898)])
    training = read_cold(tmp_path, lines)["training"]
    assert training["step"] == 100
    assert training["step_seconds"] == pytest.approx(115 / 201, rel=1e-3)


def test_composed_opennmt_py_epoch_clock_starts_again_with_the_epoch(tmp_path: Path) -> None:
    # the clock of the epoch alone (69 s at batch 700 of 725, 5 s at the next epoch's batch 50): it went back with the
    # count, so its 5 s are the new epoch's 50 batches', at that pace for the 75 since the line before (7.5 s):
    # (5 + 7.5 + 5) s over 50 + 75 + 50 batches, 0.1 s each
    lines = [f"Epoch {e:2d}, {b:5d}/  725; acc:   0.00; ppl:   1.84; 5306 src tok/s; 5757 tgt tok/s; {t:6d} s elapsed"
             for e, b, t in ((9, 650, 64), (9, 700, 69), (10, 50, 5), (10, 100, 10))]
    training = read_cold(tmp_path, lines)["training"]
    assert training["step"] == 100
    assert training["step_seconds"] == pytest.approx(0.1, rel=1e-3)


def test_composed_opennmt_py_0_4_clock_times_undated_records(tmp_path: Path) -> None:
    # its records with no logger's date, the clock since the start ending each: (110 - 50) s over 300 steps, 0.2 s each;
    # never 110 s over step 400 from zero (0.275 s)
    lines = [f"Step {step}/ 1000; acc:  40.00; ppl: 50.00; xent: 3.91; lr: 1.00000; 347/344 tok/s; {clock:6d} sec"
             for step, clock in ((100, 50), (200, 70), (300, 90), (400, 110))]
    training = read_cold(tmp_path, lines)["training"]
    assert training["step"] == 400
    assert training["step_seconds"] == pytest.approx(0.2)
