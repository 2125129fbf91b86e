"""A bar whose description names a split after what it counts is an evaluation pass, never the training position nor
its step time: ``Epoch 3/300 val: 100%|…| 300/300 [00:01<00:00, 250.00it/s]`` after the epoch's ``Epoch
3/300 train: …| 2400/2400 [00:20<00:00, 120.00it/s]``, a bracketed split (``Epoca 2/100 [Val]: …| 129/129``, real:
sebastian-c-2001/Face_Coco, Preprocesare/wandb/run-20251130_112828-jzwv6jq0/files/output.log), as Lightning's
``Validating:`` bar and a bar that starts with its split were already read. The run stays at the training bar's count
and pace; a pass cut before its total is the run evaluating. The other lines are composed; answers read off by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainingPause, TrainStep

_FACE_COCO = [
    "Epoca 1/100 [Train]: 100%|██████████| 389/389 [02:07<00:00,  3.05it/s]",
    "Epoca 1/100 [Val]: 100%|██████████| 129/129 [00:56<00:00,  2.28it/s]",
    "",
    "Epoca 1 | Val Loss: 0.096405 | Val MAE: 0.1124 | Acuratețe Val: 88.76%",
    "Epoca 2/100 [Train]: 100%|██████████| 389/389 [01:33<00:00,  4.15it/s]",
    "Epoca 2/100 [Val]: 100%|██████████| 129/129 [00:39<00:00,  3.25it/s]",
]


@pytest.mark.parametrize(("lines", "steps", "seconds", "pause"), [
    # Face_Coco's bracketed [Val] bar: the training bars' 389/389 at 1/4.15 s, never 129/129 at 1/3.25 s
    (_FACE_COCO, [389, 389], 1 / 4.15, (129, 129)),
    # the split as the description's last word, a pass under way: 140 of its 300 batches, the run at 2400/2400
    (["Epoch 3/300 train: 100%|██████████| 2400/2400 [00:20<00:00, 120.00it/s]",
      "Epoch 3/300 val:   0%|          | 0/300 [00:00<?, ?it/s]",
      "Epoch 3/300 val:  47%|████▋     | 140/300 [00:00<00:00, 250.00it/s]"], [2400], 1 / 120.0, (140, 300)),
    # the same, a test split and a dev split
    (["Epoch 2 train: 100%|██████████| 50/50 [00:10<00:00,  5.00it/s]",
      "Epoch 2 test:  40%|████      | 4/10 [00:01<00:01,  3.00it/s]"], [50], 1 / 5.0, (4, 10)),
    (["epoch 7 train: 100%|██████████| 80/80 [00:16<00:00,  5.00it/s]",
      "epoch 7 dev: 100%|██████████| 20/20 [00:02<00:00, 10.00it/s]"], [80], 1 / 5.0, (20, 20)),
])  # fmt: skip
def test_a_bar_named_for_its_split_is_an_evaluation_pass(lines: list[str], steps: list[int], seconds: float,
                                                         pause: tuple[int, int]) -> None:
    events = GenericParser().feed(lines)
    trained = [e for e in events if isinstance(e, TrainStep)]
    assert [e.step for e in trained] == steps
    assert trained[-1].step_seconds == pytest.approx(seconds, rel=1e-3)
    last = [e for e in events if isinstance(e, TrainingPause)][-1]
    assert (last.reason, last.done, last.batches) == ("evaluation", *pause)


@pytest.mark.parametrize("head", [
    "Epoch 3 | train loss 0.52 | val loss 0.48",  # a split's figure named in the description: a training record's
    "Epoch 3 val_loss=0.48",  # a split's figure, not the pass's name
    "Epoch 3 interval",  # a word that starts like a split's name
])  # fmt: skip
def test_a_description_naming_a_split_s_figure_is_still_the_training_bar(head: str) -> None:
    events = GenericParser().feed([f"{head}: 100%|██████████| 40/40 [00:08<00:00,  5.00it/s]"])
    assert [e.step for e in events if isinstance(e, TrainStep)] == [40]
    assert not [e for e in events if isinstance(e, TrainingPause)]
