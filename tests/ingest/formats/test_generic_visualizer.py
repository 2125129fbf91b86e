"""pytorch-CycleGAN-and-pix2pix's visualizer lines: ``(epoch: E, iters: I, time: T, data: D)`` and the model's losses.

``iters`` that rises from record to record beside its epoch is the count so far in it (app/ingest/formats/series.py; said
once, MLX's ``iters: 400``, it is the run's length); ``time`` is seconds per image; every ``name: value`` after the header
is one of the model's losses, none of them "the" loss.
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

# Composed in the visualizer's own format (CycleGAN's eight losses), lines 100 images apart, 0.5 s an image.
CYCLEGAN = [
    f"(epoch: 3, iters: {i}, time: 0.500, data: 0.002) D_A: 0.2{k} G_A: 0.31 cycle_A: 1.40 idt_A: 0.6 D_B: 0.25 "
    "G_B: 0.42 cycle_B: 2.3 idt_B: 1.1 "
    for k, i in enumerate((100, 200, 300))
]


def test_the_visualizer_s_line_is_a_step_with_its_time_and_its_losses(tmp_path: Path) -> None:
    data = read_cold(tmp_path, CYCLEGAN)
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"]) == (300, None, None, 0.5)
    assert data["status_line"].startswith("step 300 · ")
    assert "Losses D_A 0.22 · G_A 0.31 · cycle_A 1.4 · idt_A 0.6 · D_B 0.25 · G_B 0.42 · cycle_B 2.3 · " \
           "idt_B 1.1" in data["details"]


def test_a_real_pix2pix_style_log_reads_its_epoch_s_images_time_and_losses(tmp_path: Path) -> None:
    # Parallel-GAN issue #3: epoch 0 at 13600 images, then epoch 1 at 300, 400, 500; 0.064 s an image
    name = "generic-parallel-gan-issue3-pix2pix-visualizer-epoch-0-iters-13600-then-epoch-1-iters-300-to-500-five-losses.log"
    data = read_cold(tmp_path, body(name))
    training = data["training"]
    assert (training["step"], training["total_steps"], training["loss"], training["step_seconds"]) == (500, None, None, 0.064)
    assert "Data epoch 1" in data["details"]
    assert "Losses G_GAN 9.472 · D_real 0 · D_fake 0 · recon_VGG 8.571 · G_L1 5.221" in data["details"]
    assert not training["finished"]
