"""Reading a log by repetition (series.py): a repeated record's numbers judged by their series — the one that ticks
is the position, one fixed after ``/`` its total, the words before a value its name — and a record a logger prints
over two lines. Real excerpts cite their source in tests/data/real/; composed lines have answers worked out by hand."""

from __future__ import annotations

import time
from itertools import pairwise
from pathlib import Path

import pytest

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.series import SeriesWindow, masked
from app.stats.events import TrainStep

REAL = Path(__file__).resolve().parents[2] / "data" / "real"


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def real(name: str) -> list[str]:
    return [line for line in (REAL / name).read_text().splitlines() if not line.startswith("#")]


@pytest.mark.usefixtures("utc_zone")
def test_a_line_s_numbers_are_masked_into_its_template_with_the_words_before_each() -> None:
    template, slots, at = masked("[ Sat Dec 22 19:00:03 2018 ] \tBatch(100/589) done. Loss: 4.1529  lr:0.001000")
    assert template == "[<clock> ] Batch(#/#) done. Loss: # lr:#"
    assert [(s.value, s.name, s.whole, s.total_like) for s in slots] == [
        (100.0, "batch", True, False), (589.0, "", True, True), (4.1529, "loss", False, False), (0.001, "lr", False, False)]
    assert at == 1545505203.0  # 2018-12-22 19:00:03 UTC


def test_a_record_s_clock_is_this_machine_s_local_time_as_the_prefixes_read_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # a log written in Tokyo (UTC+9, no summer time): 2018-12-22 19:00:03 there is 10:00:03 UTC
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert masked("[ Sat Dec 22 19:00:03 2018 ] \tBatch(100/589) done. Loss: 4.1529")[2] == 1545472803.0
        assert masked("2018-12-22 19:00:03,250 - Train - Epoch: [3/20][50/400]")[2] == 1545472803.25
        assert masked("2018-02-30 19:00:03 - Train - Epoch: [3/20][50/400]")[2] is None  # no such day
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_record_s_ctime_clock_is_read_as_the_prefixes_read_it_and_a_name_that_is_no_month_is_no_time() -> None:
    # (composed: ctime's ``%a %b %e %H:%M:%S %Y``; the fraction, as the prefixes keep it; ``Xyz`` names no month)
    assert masked("[ Sat Dec 22 19:00:03.250 2018 ] Batch(100/589) done. Loss: 4.1529")[2] == 1545505203.25
    template, _, at = masked("Sat Xyz 22 19:00:03 2018 Batch(100/589) done. Loss: 4.1529")
    assert at is None
    assert template.startswith("<clock> ")


def test_a_running_average_in_brackets_after_a_value_is_no_slot_of_its_own_and_padding_is_no_other_record() -> None:
    a = masked("Train - Epoch: [3/20][ 50/400]\tTime  0.500 ( 0.510)\tLoss 2.5000e+00 (2.6000e+00)")
    b = masked("Train - Epoch: [3/20][150/400]\tTime  0.490 ( 0.505)\tLoss 2.3000e+00 (2.5000e+00)")
    assert a[0] == b[0] == "Train - Epoch: [#/#][#/#] Time # Loss #"
    assert [s.printed for s in b[1]] == ["3", "20", "150", "400", "0.490", "2.3000e+00"]


def test_the_counter_that_ticks_with_a_fixed_total_is_the_position_once_the_record_repeats() -> None:
    window = SeriesWindow()
    lines = [f"{i}/1000 done, episode steps: {n}, loss: {loss}" for i, n, loss in
             [(120, 40, 0.9), (150, 30, 0.8), (210, 60, 0.7), (230, 20, 0.6)]]
    read = [window.see(line) for line in lines]
    assert read[:2] == [None, None]  # two instances: not yet a series
    assert read[2] is not None and read[3] is not None
    assert (read[2].step, read[3].step) == (210, 230)
    assert read[3].text == "iter: 230/1000, loss: 0.6"  # ``episode steps`` is another count, not the position
    assert 20 not in read[3].ticking


@pytest.mark.parametrize("lines", [
    # a counter with no word and no total: the log does not say what it counts
    ["7 loss: 0.5", "8 loss: 0.4", "9 loss: 0.3", "10 loss: 0.2"],
    # no loss beside the count: a loader's progress, not a training record
    ["Loading shard 1/7 took 1.2s", "Loading shard 2/7 took 1.1s", "Loading shard 3/7 took 1.3s"],
    # a count that does not tick (a rank's id, the same step printed again)
    ["step: 5/10 loss: 0.5", "step: 5/10 loss: 0.4", "step: 5/10 loss: 0.3"],
])
def test_no_position_is_claimed_where_the_series_does_not_say_one(lines: list[str]) -> None:
    window = SeriesWindow()
    assert [window.see(line) for line in lines] == [None] * len(lines)


def test_an_inner_counter_goes_back_to_zero_where_the_epoch_before_it_moves_on() -> None:
    window = SeriesWindow()
    lines = [f"epoch {e} batch {b}/300 loss {x}" for e, b, x in
             [(1, 100, 0.9), (1, 200, 0.8), (2, 0, 0.7), (2, 100, 0.6)]]
    read = [window.see(line) for line in lines]
    assert read[3] is not None and read[3].text == "Epoch: [2][100/300], loss: 0.6"


def test_st_gcn_batch_lines_under_a_dated_training_epoch_line_are_the_epoch_s_positions() -> None:
    got = steps(real("generic-st-gcn-data-len-issue1-dated-training-epoch-80-tab-batch-0-to-500-of-589-done-loss-lr"
                     "-then-mean-loss-eval.log"))
    last = got[-1]
    assert (last.step, last.total_steps, last.epoch, last.loss, last.lr) == (500, 589, 80, 4.1611, 0.001)
    assert last.at is not None and got[-2].at is not None and last.at - got[-2].at == 207.0  # 19:13:55 -> 19:17:22
    # (the first two batch lines, before the record has repeated, are read as the word rules read them)
    assert [s.step for s in got][-4:] == [200, 300, 400, 500]


def test_keras_rl_s_numbered_progress_is_the_run_s_position_not_an_episode_s_length() -> None:
    got = steps(real("generic-keras-rl-issue51-numbered-steps-18080-to-18092-of-100000-episode-3691-to-3694-episode"
                     "-steps-4.log"))
    last = got[-1]
    assert (last.step, last.total_steps, last.loss) == (18092, 100000, 0.044392)


def _two_line_log() -> list[str]:
    # A logger whose format ends its prefix with a newline: a dated prefix line, then the record's body. Iterations
    # 50, 100, 150, 200 of 400 in epoch 3 of 20, 25 s apart: 0.5 s an iteration.
    lines = [">>> Epoch: [3/20]"]
    for i, (it, loss) in enumerate([(50, 2.5), (100, 2.4), (150, 2.3), (200, 2.2)]):
        lines.append(f"2021-03-01 10:00:{25 * i:02d},000: trainer.py - info(), at Line 12:INFO:" if i < 3 else
                     "2021-03-01 10:01:15,500: trainer.py - info(), at Line 12:INFO:")
        lines.append(f"Train - Epoch: [3/20][{it:3d}/400]\tTime  0.500 ( 0.500)\tLoss {loss:.4e} (2.6000e+00)")
    return lines


def test_a_record_printed_over_two_lines_is_read_with_its_prefix_line_s_clock() -> None:
    # (the first two records are read as the series is known, at the third: each at its own prefix line's clock)
    got = steps(_two_line_log())
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got] == [
        (50, 400, 3, 2.5), (100, 400, 3, 2.4), (150, 400, 3, 2.3), (200, 400, 3, 2.2)]
    assert all(s.at is not None for s in got)
    assert [b.at - a.at for a, b in pairwise(got)] == [25.0, 25.0, 25.5]  # type: ignore[operator]  # (10:00:00 … 10:01:15.500)


def test_a_prefix_line_followed_by_different_bodies_joins_none() -> None:
    window = SeriesWindow()
    lines = _two_line_log()[1:]
    lines[3] = "Validation - Epoch: [3/20] Loss 2.0000e+00"  # the second prefix is followed by another record
    read = [window.see(line) for line in lines]
    assert all(r is None or r.at is None for r in read)


def test_the_generic_reader_s_own_ticking_step_is_kept() -> None:
    # a step the word rules read and the series agrees with: the line is read as before
    lines = [f"step {s} | loss {x} | tokens 1024/4096" for s, x in [(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6)]]
    got = steps(lines)
    assert [s.step for s in got] == [1, 2, 3, 4]


def test_a_count_starts_again_after_an_epoch_said_on_its_own_line_and_the_series_gives_its_total() -> None:
    # the word rules read ``iter: N`` alone; the series adds the fixed 90 after ``batch count: N/`` and the epoch
    # said above (``(total 2)``: the planned epochs), and the count going back to 0 under a new epoch still ticks
    lines = ["Training at epoch 1 (total 2) with lr 0.001",
             *[f"    batch count: {b}/90, iter: {b}, loss: {x}" for b, x in [(30, 0.9), (60, 0.8), (89, 0.7)]],
             "Training at epoch 2 (total 2) with lr 0.001",
             "    batch count: 0/90, iter: 0, loss: 0.6"]
    got = steps(lines)
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got][-2:] == [(89, 90, 1, 0.7), (0, 90, 2, 0.6)]


def test_a_step_that_stays_beside_iterations_with_no_total_is_kept() -> None:
    # litgpt's ``Epoch 1 | iter 46 step 1 | …``: iterations of one optimizer step (gradient accumulation); the
    # ticking ``iter`` has no total, so the step the words name stays the position
    got = steps(real("generic-litgpt-issue1224-lora-val-na.log"))
    assert {s.step for s in got} == {1}


def test_an_episode_s_length_that_goes_back_is_no_position() -> None:
    # keras-rl's line shape with episodes of changing length: ``episode steps`` goes 337, 446, 393 (back), while the
    # run's count before it ticks to its fixed 50000
    lines = [f"{n}/50000: episode: {e}, duration: 1.7s, episode steps: {k}, loss: {x}" for n, e, k, x in
             [(39160, 569, 13, 7.8), (39497, 570, 337, 5.2), (39943, 571, 446, 5.5), (40336, 572, 393, 7.2)]]
    got = steps(lines)
    assert (got[-1].step, got[-1].total_steps, got[-1].loss) == (40336, 50000, 7.2)


def test_a_running_clock_is_one_number_and_gives_a_step_the_word_rules_read_its_time() -> None:
    # BMSG-GAN's ``Elapsed [H:MM:SS.ffffff] batch: N  d_loss: …  g_loss: …``: the word rules read the batch but not the
    # bracketed clock; the series names it (``elapsed``). Batches 100 -> 400, 100 s apart: 1 s a batch.
    template, slots, _ = masked("Elapsed [0:13:20.000000] batch: 300  d_loss: 0.500000  g_loss: 2.000000")
    assert template == "Elapsed [#] batch: # d_loss: # g_loss: #"
    assert (slots[0].value, slots[0].clock, slots[0].name) == (800.0, True, "elapsed")
    lines = [f"Elapsed [0:{m}.000000] batch: {b}  d_loss: 0.500000  g_loss: 2.000000"
             for m, b in [("10:00", 100), ("11:40", 200), ("13:20", 300), ("15:00", 400)]]
    got = steps(lines)
    assert [(s.step, s.elapsed_seconds) for s in got][-2:] == [(300, 800.0), (400, 900.0)]


def test_a_count_with_a_total_beside_an_epoch_is_the_epoch_s_not_the_run_s_step() -> None:
    # fairseq's ``epoch 001:   2800 / 160368 loss=…, num_updates=2800``: the words read the run's updates and the epoch;
    # the 160368 after the count in the epoch is that epoch's batches, no total of the updates
    lines = [f"epoch 001:   {n} / 160368 loss=9.1, num_updates={n}, lr=3e-05" for n in (2800, 2900, 3000, 3100)]
    got = steps(lines)
    assert [(s.step, s.total_steps) for s in got] == [(2800, None), (2900, None), (3000, None), (3100, None)]


def test_legacy_paddle_s_cost_is_the_loss_and_its_pass_the_epoch() -> None:
    got = steps(real("generic-paddle-book-cifar-readme-pass-0-batch-0-to-300-cost-classification-error-dots-then-test-with"
                     "-pass-0.log"))
    last = got[-1]
    assert (last.step, last.total_steps, last.epoch, last.loss) == (300, None, 0.0, 1.668833)
    assert [s.loss for s in got][-2:] == [1.783041, 1.668833]  # (the test line's error is no step)


def test_a_batch_that_starts_again_under_the_next_pass_is_that_pass_s_position() -> None:
    # Passes of about 250 batches, printed every 100: the third line shows the record; the batch counts 0, 100, 200,
    # then 0, 100 again under pass 1, which moved on while the batch went back.
    lines = [f"Pass {p}, Batch {b}, Cost {c}, {{'classification_error_evaluator': 0.5}}"
             for p, b, c in [(0, 0, 2.3), (0, 100, 2.1), (0, 200, 1.9), (1, 0, 1.8), (1, 100, 1.7)]]
    window = SeriesWindow()
    read = [window.see(line) for line in lines]
    assert read[:2] == [None, None]
    assert [(r.step, r.epoch) for r in read[2:] if r is not None] == [(200, True), (0, True), (100, True)]
    assert read[4] is not None and read[4].text.startswith("epoch: 1, iter: 100, cost: 1.7")
    last = steps(lines)[-1]
    assert (last.step, last.epoch, last.loss) == (100, 1.0, 1.7)


def test_a_named_cost_is_no_loss_and_a_loss_beside_a_cost_wins() -> None:
    # A loader's ``reader_cost`` ticking beside a batch is no training record; ``loss`` and ``cost`` on one line: the loss.
    window = SeriesWindow()
    assert [window.see(f"batch {b} reader_cost: 0.0{b // 100}") for b in (100, 200, 300, 400)] == [None] * 4
    last = steps([f"Pass 0, Batch {b}, loss {x}, cost {x + 1}" for b, x in [(0, 2.5), (10, 2.4), (20, 2.3)]])[-1]
    assert (last.step, last.loss) == (20, 2.3)


TURI = "generic-turicreate-issue2218-ascii-table-iteration-loss-elapsed-time-rows-1-7-elided-then-47509-to-47522.log"


def test_an_ascii_table_s_header_names_the_columns_of_its_rows() -> None:
    got = steps(real(TURI))
    assert [(s.step, s.loss, s.elapsed_seconds) for s in got] == [
        (1, 9.083, 12.0), (7, 9.027, 22.8), (47509, 1.432, 82039.8), (47515, 1.484, 82050.4), (47522, 1.437, 82062.1)]
    assert all(s.total_steps is None and s.epoch is None for s in got)


def test_a_table_s_rows_under_another_header_or_of_other_cells_are_not_named_by_it() -> None:
    # Rows named by their header: iterations 10, 20, 30, loss falling, elapsed in seconds. A second table of other
    # columns (no position word) replaces the header: its rows are read as nothing; a row of fewer cells is left alone.
    window = SeriesWindow()
    header = "| Iteration | Loss | Elapsed Time |"
    rows = [f"| {i} | {x} | {t} |" for i, x, t in [(10, 2.0, 5.0), (20, 1.8, 10.0), (30, 1.7, 15.5)]]
    read = [window.see(line) for line in [header, *rows]]
    assert read[3] is not None and read[3].text == "iter: 30, loss: 1.7, elapsed time: 15.5s"
    other = ["| Train Accuracy | Loss |", *(f"| 0.{n} | {x} |" for n, x in [(5, 1.6), (6, 1.5), (7, 1.4)])]
    assert [window.see(line) for line in other] == [None] * 4
    assert [window.see(f"| {i} | {x} | 1 |") for i, x in [(40, 1.3), (50, 1.2), (60, 1.1)]] == [None] * 3


PIX2PIX = "generic-pix2pix-nvs-open4d-log-epochs-1-to-4-iters-reset-each-epoch-gan-losses-no-loss-word.log"


def test_a_loop_s_own_report_under_its_epoch_with_losses_named_only_as_printed_is_its_step() -> None:
    # pix2pix's visualizer: ``(epoch: E, iters: I, time: T, data: D) G_GAN: … G_L1: … D_real: … D_fake: …``, no word
    # "loss"; ``iters`` ticks by 100 (its print frequency) and starts again each epoch (522 samples an epoch)
    read = steps(real(PIX2PIX))
    assert [(s.epoch, s.step) for s in read] == [
        (1, 100), (1, 200), (1, 300), (1, 400), (1, 500), (2, 78), (2, 178), (2, 278), (2, 378), (2, 478),
        (3, 56), (3, 156), (3, 256), (3, 356), (3, 456), (4, 34), (4, 134)]
    # ``time`` is the iteration's as printed (0.226, 0.230, 0.354 rising is a step's time wavering, no clock)
    assert [s.step_seconds for s in read[5:8]] == [0.226, 0.230, 0.354]
    assert read[-1].step_seconds == 0.219
    assert read[-1].loss is None  # (none of them is "the" loss)
    assert dict(read[-1].figures) == {"loss/G_GAN": 0.732, "loss/G_L1": 42.349, "loss/D_real": 0.337, "loss/D_fake": 0.431}
    assert "loss/data" not in dict(read[-1].figures)  # (its loading time)


def test_a_count_named_as_a_plural_that_ticks_under_an_epoch_is_no_planned_total() -> None:
    # composed: CycleGAN's record shape; ``iters: 300`` said again as 400, 500 is the position (read from the first
    # line on, once its series is known), never "300 planned"
    lines = [f"(epoch: 2, iters: {i}, time: 0.5{k}0, data: 0.001) D_A: 0.2{k} G_A: 0.3{k} cycle_A: 1.{k}"
             for k, i in enumerate((300, 400, 500, 600))]
    events = GenericParser().feed(lines)
    assert [(s.epoch, s.step) for s in events if isinstance(s, TrainStep)] == [(2, 300), (2, 400), (2, 500), (2, 600)]
    assert not [e for e in events if getattr(e, "total_steps", None)]


def test_a_plan_said_once_beside_no_series_stays_the_run_s_total_and_an_epoch_record_without_losses_is_no_step() -> None:
    # MLX's banner ``iters: 1000`` once: the run's length; an epoch's record of one value and no loss word, its count
    # ticking, is no step record (one value is no record of a model's losses)
    events = GenericParser().feed(["Starting training..., iters: 1000"])
    assert [getattr(e, "total_steps", None) for e in events if type(e).__name__ == "RunInfo"] == [1000]
    lines = [f"(epoch: 1, iters: {i}, time: 0.5, data: 0.001) acc: 0.{i // 100}" for i in (100, 200, 300, 400)]
    assert steps(lines) == []
