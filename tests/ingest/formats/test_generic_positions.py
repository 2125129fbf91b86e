"""Where a loop is, said in other shapes: a bracketed position that ends the record without its percentage, and a
Python dict's whole-number epoch as the position of a loop that logs once an epoch. Composed lines in the shapes of
the print formats cited in tests/data/printformats/, the answers worked out by hand."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_a_bracketed_position_ending_the_record_is_where_the_epoch_is() -> None:
    # the PyTorch quickstart's ``loss: {loss:>7f}  [{current:>5d}/{size:>5d}]``: samples done of the epoch's
    got = steps(["loss: 2.299719  [   64/60000]", "loss: 2.281030  [ 6464/60000]", "train_loss=1.75 [128/500]"])
    assert [(s.step, s.total_steps, s.loss) for s in got] == [(64, 60000, 2.299719), (6464, 60000, 2.28103),
                                                              (128, 500, 1.75)]


def test_a_bracket_inside_the_record_or_without_a_loss_is_no_position() -> None:
    # a list printed mid-record, a count with nothing measured beside it, a zero total
    assert steps(["loss: 0.5 [3/4] acc: 0.9", "done [64/60000]", "loss: 0.5 [0/0]"]) == []


def test_a_python_dict_s_whole_epoch_with_its_loss_is_the_epoch_s_record() -> None:
    got = steps([str({"epoch": 0, "loss": 2.875}), str({"epoch": 1, "loss": 2.4375})])
    assert [(s.step, s.loss) for s in got] == [(0, 2.875), (1, 2.4375)]


def test_a_python_dict_s_share_of_an_epoch_is_no_epoch_record() -> None:
    # an HF Trainer's ``'epoch': 0.75`` is a step's share of its epoch, no position of its own
    assert steps([str({"loss": 1.5, "epoch": 0.75})]) == []


def test_an_epoch_said_alone_with_its_loss_on_the_line_under_it_is_that_epoch_s_record() -> None:
    got = steps(["Epoch 1/10", " Loss: 1.0000", " Accuracy : 0.5000", "-" * 30,
                 "Epoch 2/10", " Loss: 0.5000", " Accuracy : 0.6667", "-" * 30])
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got] == [(1, 10, 1, 1.0), (2, 10, 2, 0.5)]


def test_a_document_s_epoch_key_is_no_epoch_said_alone() -> None:
    # a trainer_state.json read as lines: its ``"epoch": 2.0,`` and ``"loss": 0.5,`` are keys of one record, no step
    assert steps(["    {", '      "epoch": 2.0,', '      "loss": 0.5,', '      "grad_norm": 1.5', "    },"]) == []


def test_two_losses_named_for_their_parts_in_long_words_are_no_one_loss() -> None:
    # a GAN's ``Discriminator Loss``/``Generator Loss`` beside ``Epoch [2/50] Batch 200/469``: where it is, no loss
    got = steps(["Epoch [2/50]\t\t\tBatch 100/469 Discriminator Loss: 0.6000 Generator Loss: 0.9000",
                 "Epoch [2/50]\t\t\tBatch 200/469 Discriminator Loss: 0.5500 Generator Loss: 1.1000"])
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got] == [(100, 469, 2, None), (200, 469, 2, None)]


def test_two_bracketed_pairs_are_the_epoch_of_the_epochs_then_the_batch_of_its_batches() -> None:
    # the DCGAN tutorial's ``[%d/%d][%d/%d]\tLoss_D: …\tLoss_G: …``: two losses, none the model's
    got = steps(["[2/5][50/1583]\tLoss_D: 0.5000\tLoss_G: 3.0000", "[2/5][100/1583]\tLoss_D: 0.4567\tLoss_G: 3.2100"])
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got] == [(50, 1583, 2, None), (100, 1583, 2, None)]
    assert {"loss/Loss_D": 0.4567, "loss/Loss_G": 3.21}.items() <= dict(got[-1].figures).items()


def test_part_losses_beside_a_position_without_its_total_are_a_record_of_parts() -> None:
    # CycleGAN's ``Epoch [3], Step [150], D1 Loss: …, D2 Loss: …, G Loss: …``; a single part is no such record
    got = steps(["Epoch [3], Step [150], D1 Loss: 0.6500, D2 Loss: 0.7000, G Loss: 2.3456", "Step [160], G Loss: 2.3"])
    assert [(s.step, s.epoch, s.loss) for s in got] == [(150, 3, None)]
    assert {"loss/D1 Loss": 0.65, "loss/D2 Loss": 0.7, "loss/G Loss": 2.3456}.items() <= dict(got[0].figures).items()


def test_a_count_then_a_bracketed_position_is_the_epoch_then_its_batch() -> None:
    # ali-mnist's ``sys.stdout.write("\r%3d: [%5d / %5d] loss: %f")``, redrawn on one line
    got = steps(["\r  2: [  100 /   600] loss: 0.750000\r  2: [  200 /   600] loss: 0.693147"])
    assert [(s.step, s.total_steps, s.epoch, s.loss) for s in got] == [(200, 600, 2, 0.693147)]


def test_a_bar_s_description_in_brackets_is_the_position_and_its_unsized_count_another_unit() -> None:
    # DeepSpeaker's ``Train Epoch:  19 [  512000/  819200 ( 62%)]\tLoss: 0.011020: : 1000it [37:36,  2.26s/it]``
    got = steps(["Train Epoch:  19 [  512000/  819200 ( 62%)]\tLoss: 0.011020: : 1000it [37:36,  2.26s/it]"])
    assert [(s.step, s.total_steps, s.epoch, s.loss, s.step_seconds) for s in got] == [(512000, 819200, 19, 0.01102, None)]


def test_a_slash_whose_first_number_stays_while_its_second_grows_is_the_epoch_then_its_batch() -> None:
    # CosyVoice's and WeNet's executor print ``TRAIN Batch {epoch}/{batch}``: two lines show it — 15 stays, 37600 grows
    # to 37700 — and the first is read again with them (the run's count from batch 37600, 52.503 s later 37700)
    events = GenericParser().feed([
        "2024-10-18 20:47:35,180 DEBUG TRAIN Batch 15/37600 loss 1.247700 acc 0.343740 lr 0.00055931",
        "2024-10-18 20:48:27,683 DEBUG TRAIN Batch 15/37700 loss 1.389090 acc 0.288246 lr 0.00055927",
        "2024-10-18 20:49:20,001 DEBUG TRAIN Batch 16/0 loss 1.3 acc 0.3 lr 0.00055920"])
    got = [e for e in events if isinstance(e, TrainStep)]
    # (the first line as first read, then read again once the second showed what it is; the next epoch starts at 0)
    assert [(s.step, s.total_steps, s.epoch) for s in got] == [
        (15, 37600, None), (37600, None, 15), (37700, None, 15), (0, None, 16)]
    assert got[1].at is not None and got[2].at is not None and round(got[2].at - got[1].at, 3) == 52.503
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("StageStart") == kinds.index("TrainStep") + 1  # (the count starts anew from the line read again)


def test_a_slash_whose_first_number_ticks_or_that_repeats_as_it_was_is_a_count_of_its_total() -> None:
    # ``Batch 10/500`` then ``20/500``: a count of a fixed total; the same line printed again (another rank) changes
    # nothing; a total that grows while the count moves on is still the count's
    assert [(s.step, s.total_steps) for s in steps(["Batch 10/500 loss 1.0", "Batch 20/500 loss 0.9"])] == [
        (10, 500), (20, 500)]
    assert [(s.step, s.total_steps) for s in steps(["Batch 15/37700 loss 1.3", "Batch 15/37700 loss 1.5"])] == [
        (15, 37700), (15, 37700)]
    assert [(s.step, s.total_steps) for s in steps(["Batch 10/500 loss 1.0", "Batch 20/600 loss 0.9"])] == [
        (10, 500), (20, 600)]


def test_a_count_to_a_total_after_a_whole_epoch_that_prints_none_is_the_epoch_s() -> None:
    # composed in OpenNMT's (Lua) shape: ``Epoch 2 ; Iteration 4000/77776 ; …``; the count starts again each epoch, its
    # total the epoch's iterations (no total of epochs printed): no run's end at 77776
    got = steps(["Epoch 1 ; Iteration 77000/77776 ; Learning rate 1.0000 ; Source tokens/s 1270 ; Perplexity 14.37",
                 "Epoch 2 ; Iteration 1000/77776 ; Learning rate 1.0000 ; Source tokens/s 1274 ; Perplexity 8.29"])
    assert [(s.epoch, s.step, s.total_steps, s.ends_at_total, s.tokens_per_second) for s in got] == [
        (1.0, 77000, 77776, False, 1270.0), (2.0, 1000, 77776, False, 1274.0)]


def test_a_count_after_a_fractional_epoch_stays_the_run_s() -> None:
    # an epoch that is no whole number (``epoch 1.5``) is the place in the epoch already (as torch-rnn's ``Epoch 1.06 /
    # 50, i = 60 / 47800``): the count beside it is the run's
    got = steps(["epoch 1.5, iteration 120/9000, loss 2.5"])
    assert [(s.step, s.total_steps, s.ends_at_total) for s in got] == [(120, 9000, True)]


def test_an_epoch_cut_short_to_ep_that_leads_its_record_is_the_epoch() -> None:
    # ``Ep 3/100``, ``Ep. 21``, ``EP 4``: the epoch, never a step of the run (a loop that logs once an epoch)
    got = steps(["Ep 1/100 loss 3.2101", "Ep 2/100 loss 2.9933", "Ep 3/100 | loss 2.7712"])
    assert [(s.step, s.total_steps, s.epoch, s.epoch_total, s.loss) for s in got] == [
        (1, 100, 1.0, 100, 3.2101), (2, 100, 2.0, 100, 2.9933), (3, 100, 3.0, 100, 2.7712)]
    got = steps(["Ep. 20 loss 0.5301", "Ep. 21 loss 0.5222", "Iter. 300 loss 1.25"])
    assert [(s.step, s.epoch, s.loss) for s in got][:2] == [(20, 20.0, 0.5301), (21, 21.0, 0.5222)]


def test_ep_inside_a_name_or_a_path_is_no_epoch() -> None:
    # (``model.ep.20`` a file's name, ``step 5`` the record's own position)
    got = steps(["step 5 loss 1.0 ckpt model.ep.20", "step 6 loss 0.9"])
    assert [(s.step, s.epoch) for s in got] == [(5, None), (6, None)]


def test_a_figure_said_of_the_epoch_named_after_it_is_that_epoch_s_record() -> None:
    # ``Average train loss for epoch 10 is 8.69`` (DuReader's baseline), ``Train loss of epoch 11: 8.29``: the epoch's
    # record, the epoch its position; a line that names the epoch with no figure (``Training the model for epoch 10``,
    # ``Evaluating the model after epoch 10``) is none
    got = steps(["Training the model for epoch 10", "Average train loss for epoch 10 is 8.69",
                 "Evaluating the model after epoch 10", "Train loss of epoch 11: 8.29"])
    assert [(s.step, s.epoch, s.loss) for s in got] == [(10, 10.0, 8.69), (11, 11.0, 8.29)]
