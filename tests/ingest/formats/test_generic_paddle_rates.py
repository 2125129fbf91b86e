"""Paddle's printed step time and throughput are read as printed.

PaddleOCR and PaddleX print ``avg_batch_cost: 0.71354 s`` (the iterations' time since the line before over their
count, PaddlePaddle/PaddleOCR tools/program.py: ``train_batch_cost / print_batch_step``) and ``ips: 11.21165
samples/s`` (``total_samples / train_batch_cost``); PaddleDetection ``batch_cost: 24.83382 sec`` and ``ips: 0.51395
images/sec``. The step time is the trainer's own; ips is samples (images) a second, shown under that name.

Real lines, each cited. A name the reader knows whole (``batch_cost``) is not read inside another (``avg_reader_cost``,
the loader's share, stays unread).
"""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep
from tests.reallogs import line

# Light-Towers/noctilucent-lamp, Note/10.AGI/Paddle/paddleX/PaddleX印章文字检测模块实战优化手册.md at commit
# 0f11e3970bff7c6b06fe73f3e7030a511d15c46d, section "10. 训练日志解读": PaddleX 3.1.4's seal-text detection, its
# last training line (the lines after it, the final evaluation and saves, are another matter: the run's end).
PADDLEX = ("[2025/08/30 18:00:18] ppocr INFO: epoch: [100/100], global_step: 100000, lr: 0.000001, loss: 0.091679, "
           "loss_shrink_maps: 0.035711, loss_threshold_maps: 0.041902, loss_binary_maps: 0.007171, loss_cbn: 0.007171, "
           "avg_reader_cost: 0.00148 s, avg_batch_cost: 0.71354 s, avg_samples: 8.0, ips: 11.21165 samples/s, "
           "eta: 0:00:00, max_mem_reserved: 14606 MB, max_mem_allocated: 12963 MB")
# PaddlePaddle/PaddleOCR, docs/ppstructure/model_train/train_kie.en.md at commit 5b54ac460623d7dd23717e39b43b182a359bd606:
# the SER training's first two lines (global steps 10 and 19: the epoch's last line comes 9 after the one before).
PADDLEOCR_KIE = [
    ("[2022/08/08 16:28:28] ppocr INFO: epoch: [1/200], global_step: 10, lr: 0.000006, loss: 1.871535, "
     "avg_reader_cost: 0.28200 s, avg_batch_cost: 0.82318 s, avg_samples: 8.0, ips: 9.71838 samples/s, eta: 0:51:59"),
    ("[2022/08/08 16:28:33] ppocr INFO: epoch: [1/200], global_step: 19, lr: 0.000018, loss: 1.461939, "
     "avg_reader_cost: 0.00042 s, avg_batch_cost: 0.32037 s, avg_samples: 6.9, ips: 21.53773 samples/s, eta: 0:37:55"),
]
PPDET = "generic-ppdet-static-pr1512-iter-0-to-10-every-2-quoted-loss-batch-cost-ips.log"


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(("lines", "step", "seconds", "samples"), [
    ([PADDLEX], 100000, 0.71354, 11.21165),
    (PADDLEOCR_KIE, 19, 0.32037, 21.53773),
])  # fmt: skip
def test_avg_batch_cost_is_the_step_time_and_ips_the_samples_a_second(
        lines: list[str], step: int, seconds: float, samples: float) -> None:
    last = steps(lines)[-1]
    assert (last.step, last.step_seconds, dict(last.figures).get("samples_per_second")) == (step, seconds, samples)
    assert last.interval_average  # (each iteration since the line before at the printed average)


def test_paddledetection_s_ips_in_images_a_second_is_its_samples_a_second() -> None:
    # PaddlePaddle/PaddleDetection PR #1512 (the static trainer's benchmark log): ``batch_cost: 24.83382 sec,
    # ips: 0.32214 images/sec`` on its last line; its batch_cost stays read as before (no interval average)
    last = steps([line(PPDET, "2020-09-25 18:44:31")])[-1]
    assert (last.step, last.step_seconds, dict(last.figures).get("samples_per_second")) == (10, 24.83382, 0.32214)
    assert not last.interval_average


def test_an_ips_without_its_unit_is_no_figure() -> None:
    # PaddleOCR 2.x prints its ips with no unit (tools/program.py's older ``ips: {:.5f}``; a composed line in its
    # shape): what it counts is not said, so it is not read; its batch_cost is
    got = steps([("[2021/01/02 10:00:00] root INFO: epoch: [2/100], iter: 200, lr: 0.001000, loss: 4.500000, "
                  "reader_cost: 0.01000 s, batch_cost: 0.25000 s, samples: 2560, ips: 1024.00000")])
    assert got[-1].step_seconds == 0.25 and "samples_per_second" not in dict(got[-1].figures)


# PaddlePaddle/PaddleRec issue #817 (https://github.com/PaddlePaddle/PaddleRec/issues/817), a criteo run of tools/trainer.py
# pasted with its records run together; one record, cut where the next one's date begins. PaddleRec names its samples
# instances: ``ips: … ins/s``.
PADDLEREC = ("2022-07-28 08:44:26,560 - INFO - epoch: 0, batch_id: 3770, auc:0.768058,  avg_reader_cost: 0.00150 sec, "
             "avg_batch_cost: 32.11232 sec, avg_samples: 512.00000, ips: 15.94403 ins/s")


def test_paddlerec_s_ips_in_instances_a_second_is_its_samples_a_second() -> None:
    last = steps([PADDLEREC])[-1]
    assert (last.step, last.step_seconds, dict(last.figures).get("samples_per_second")) == (3770, 32.11232, 15.94403)


def test_ips_in_a_unit_that_is_no_sample_is_not_read_as_samples() -> None:
    # (composed: Paddle's benchmark rule lets ips be tokens a second, which are no samples)
    composed = ("2022-07-28 08:44:26,560 - INFO - epoch: 0, batch_id: 10, loss: 2.5,  avg_reader_cost: 0.00150 sec, "
                "avg_batch_cost: 0.5 sec, ips: 4096.0 tokens/s")
    assert "samples_per_second" not in dict(steps([composed])[-1].figures)
