"""Loss names glued to a word. Composed lines in the shapes real logs print (each cited), the answers worked out by
hand: a key that names one loss is the loss (taming-transformers' ``aeloss``, Lightning's ``_step`` suffix after it, never
a step); several, a network's each, are none of them the loss and are shown by their names, never summed."""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.ingest.formats.grammar import lookup, loss_words, normalise
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


# Lightning's non-TTY bar with a VQGAN's two losses in its postfix (hustvl/LightningDiT#73 prints
# ``… 0.46it/s, v_num=1, aeloss_step=1.44e+5, discloss_step=0.000]``; taming-transformers logs ``train/aeloss`` and
# ``train/discloss`` with ``on_step=True``, which Lightning's bar names ``…_step``)
_BAR = "Epoch 0:   0%|          | {n}/5005 [00:{s:02d}<3:00:16,  0.46it/s, v_num=1, {post}]"


def test_a_glued_loss_name_is_a_loss_word_and_its_step_suffix_no_step() -> None:
    assert loss_words(normalise("aeloss_step")) == ["ae", "loss"]
    assert loss_words(normalise("discloss_step")) == ["disc", "loss"]
    assert loss_words(normalise("lossG")) == ["loss", "g"]
    assert loss_words(normalise("train/loss_simple_step")) == ["train", "loss", "simple"]
    # a word that only ends so is no loss (LLaMA2-Accessory's ``closs`` is a name of its own), nor is a plural
    assert loss_words(normalise("closs")) is None
    assert loss_words(normalise("losses")) is None
    # ``aeloss_step=2`` is that loss at this step, never the run's step 2
    assert lookup(normalise("aeloss_step"))[0] is None


def test_two_networks_losses_in_a_bar_are_shown_by_name_none_the_loss() -> None:
    got = steps([_BAR.format(n=5, s=11, post="aeloss_step=1.37e+5, discloss_step=0.000"),
                 _BAR.format(n=6, s=12, post="aeloss_step=1.44e+5, discloss_step=0.000")])
    assert [s.step for s in got] == [5, 6]
    last = got[-1]
    assert last.loss is None  # (no sum of the two is made: 1.44e+5 + 0 is printed nowhere)
    assert dict(last.figures) == {"loss/aeloss_step": 144000.0, "loss/discloss_step": 0.0}
    assert last.step_seconds is not None and round(last.step_seconds, 3) == round(1 / 0.46, 3)


def test_one_glued_loss_in_a_bar_is_the_loss() -> None:
    got = steps([_BAR.format(n=5, s=11, post="aeloss_step=1.37e+5"), _BAR.format(n=6, s=12, post="aeloss_step=1.44e+5")])
    assert [(s.step, s.loss) for s in got] == [(5, 137000.0), (6, 144000.0)]


def test_a_plain_loss_beside_the_parts_is_the_loss() -> None:
    # latent-diffusion's bar: ``loss`` (its total, as ``train/loss_step``) beside ``loss_simple`` and ``loss_vlb``
    line = ("Epoch 0:  10%|█         | 101/1000 [01:41<15:00,  1.00it/s, loss=0.0124, v_num=0, "
            "train/loss_simple_step=0.0122, train/loss_vlb_step=0.000453, train/loss_step=0.0124, global_step=100.0]")
    got = steps([line])
    assert got[-1].loss == 0.0124


def test_the_parts_alone_are_shown_by_name() -> None:
    line = ("Epoch 0:  10%|█         | 101/1000 [01:41<15:00,  1.00it/s, v_num=0, train/loss_simple_step=0.0122, "
            "train/loss_vlb_step=0.000453]")
    last = steps([line])[-1]
    assert last.loss is None
    assert dict(last.figures) == {"loss/train/loss_simple_step": 0.0122, "loss/train/loss_vlb_step": 0.000453}


def test_a_loss_s_epoch_mean_beside_its_step_value_is_no_other_loss() -> None:
    # after the first epoch Lightning's bar shows both (``aeloss_step``, this step's; ``aeloss_epoch``, last epoch's mean)
    line = _BAR.format(n=6, s=12, post="aeloss_step=1.44e+5, aeloss_epoch=1.52e+5, discloss_step=0.000, "
                                       "discloss_epoch=0.000")
    last = steps([line])[-1]
    assert dict(last.figures) == {"loss/aeloss_step": 144000.0, "loss/discloss_step": 0.0}


def test_glued_network_losses_on_a_line_are_shown_by_name() -> None:
    # a GAN loop's print (``lossD``, ``lossG``, as pytorch's DCGAN example names its variables), at batch 120 of 500
    got = steps(["[Epoch 3/10] [Batch 119/500] lossD: 0.4498 lossG: 1.2113",
                 "[Epoch 3/10] [Batch 120/500] lossD: 0.4476 lossG: 1.2207"])
    last = got[-1]
    assert (last.step, last.total_steps, last.loss) == (120, 500, None)
    assert dict(last.figures) == {"loss/lossD": 0.4476, "loss/lossG": 1.2207}
