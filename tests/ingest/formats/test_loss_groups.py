"""A network's loss printed with its own parts in parentheses after its name (loss_groups.py). Composed lines in the
shapes real logs print (tensorlayer/SRGAN's ``g_loss(mse:…, vgg:…, adv:…) d_loss: …``, PyTorch-SRGAN's
``Generator_Loss (Content/Advers/Total): a/b/c``; both real excerpts are in tests/live/test_real_logs.py), the answers
worked out by hand: each part is shown under its loss's name and its own, the other network's loss under its name, and
none is the model's loss; a loss the reader knows printed beside a group stays the loss."""

from __future__ import annotations

from pathlib import Path

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.loss_groups import loss_groups
from app.stats.events import TrainStep
from tests.coldread import read_cold


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


def test_parts_named_inside_the_parentheses_are_read_and_blanked_from_the_rest() -> None:
    text = "step 5 g_loss(mse:0.25, adv:1.5e-3) d_loss: 0.7"
    groups = loss_groups(text)
    assert groups is not None
    assert groups.parts == (("g_loss mse", 0.25), ("g_loss adv", 0.0015))
    # the group's span left blank, of its length, the rest as printed
    assert groups.rest == "step 5 " + " " * len("g_loss(mse:0.25, adv:1.5e-3)") + " d_loss: 0.7"


def test_slashed_parts_are_read_in_the_order_named() -> None:
    groups = loss_groups("D_Loss (Wasserstein/GradP/Total): -1.5/0.25/-1.25")
    assert groups is not None
    assert groups.parts == (("D_Loss Wasserstein", -1.5), ("D_Loss GradP", 0.25), ("D_Loss Total", -1.25))


def test_no_group_where_the_parentheses_hold_no_loss_s_parts() -> None:
    assert loss_groups("epoch 3 loss: 0.52 (0.61)") is None  # a running mean in brackets
    assert loss_groups("loss (avg): 0.52") is None  # one name, no parts
    assert loss_groups("Loss (d/g): 0.12") is None  # two names, one figure: not the parts named
    assert loss_groups("accuracy(top1:0.5, top5:0.9)") is None  # no loss's name before them


def test_a_generator_s_parts_and_the_discriminator_s_loss_are_none_the_loss() -> None:
    # epoch 2 of 10, its step 40 of 50: mse + 1e-3 * adv parts, the discriminator's beside them
    last = steps(["Epoch: [2/10] step: [39/50] time: 1.500s, g_loss(mse:0.020, adv:0.800) d_loss: 1.200",
                  "Epoch: [2/10] step: [40/50] time: 1.400s, g_loss(mse:0.019, adv:0.810) d_loss: 1.100"])[-1]
    assert (last.step, last.loss) == (40, None)
    assert dict(last.figures) == {"loss/g_loss mse": 0.019, "loss/g_loss adv": 0.81, "loss/d_loss": 1.1}


def test_the_model_s_loss_beside_a_group_stays_the_loss() -> None:
    # ``loss`` is a name the reader knows: the model's; the group's parts are shown beside it
    last = steps(["step 10/100 loss: 2.500 kd_loss(ce:2.000, kl:0.500)",
                  "step 11/100 loss: 2.400 kd_loss(ce:1.900, kl:0.500)"])[-1]
    assert (last.step, last.total_steps, last.loss) == (11, 100, 2.4)
    assert dict(last.figures) == {"loss/kd_loss ce": 1.9, "loss/kd_loss kl": 0.5}


def test_lines_each_at_their_epoch_s_last_batch_are_epochs(tmp_path: Path) -> None:
    """A line an epoch, each at the epoch's last batch (``[3/5][100/100]``): epoch 3 of 5, batch 100 of its 100; never a
    step 3 of 5 nor the discriminator's loss as the model's."""
    generator = "Generator_Loss (Content/Advers/Total):"
    data = read_cold(tmp_path, [f"[1/5][100/100] Discriminator_Loss: 0.9000 {generator} 0.0030/1.1000/0.0041",
                                f"[2/5][100/100] Discriminator_Loss: 0.8000 {generator} 0.0020/1.2000/0.0032",
                                f"[3/5][100/100] Discriminator_Loss: 0.7000 {generator} 0.0010/1.3000/0.0023"])
    assert data["status_line"] == "epoch 3/5 · 100/100 in the epoch · no timing"
    training = data["training"]
    assert (training["step"], training["loss"]) == (100, None)
    assert training["figures"] == {"loss/Generator_Loss Content": 0.001, "loss/Generator_Loss Advers": 1.3,
                                   "loss/Generator_Loss Total": 0.0023, "loss/Discriminator_Loss": 0.7}


def test_plain_network_losses_at_each_epoch_s_last_batch_are_epochs_too(tmp_path: Path) -> None:
    # DCGAN's ``[epoch/epochs][batch/batches]`` printed once an epoch, its last batch each time
    data = read_cold(tmp_path, ["[1/5][100/100] Loss_D: 0.9000 Loss_G: 1.1000",
                                "[2/5][100/100] Loss_D: 0.8000 Loss_G: 1.2000",
                                "[3/5][100/100] Loss_D: 0.7000 Loss_G: 1.3000"])
    assert data["status_line"] == "epoch 3/5 · 100/100 in the epoch · no timing"
    assert data["training"]["figures"] == {"loss/Loss_D": 0.7, "loss/Loss_G": 1.3}
