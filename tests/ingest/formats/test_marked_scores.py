"""A validation's scores marked with ``#`` (BasicSR and the ESRGAN codes), read at the step just logged."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import detect
from app.ingest.formats.classes import Kin, Named
from app.ingest.formats.marked_scores import (
    heading_alone,
    marked_scores,
    positioned_scores,
    score_under_heading,
)
from tests.coldread import T0, read_cold
from tests.reallogs import body

RETINEXFORMER = "generic-retinexformer-issue6-basicsr-iters-55500-58000-validation-psnr-every-1000.log"


@pytest.mark.parametrize(
    ("line", "scores"),
    [
        # the ESRGAN/mmsr codes: a heading ruled with hashes, its scores after it
        ("# Validation # PSNR: 2.8150e+01", [Named(Kin.EVAL, "psnr", 28.15, "PSNR")]),
        ("# Validation # PSNR: 3.1250e+01, SSIM: 8.7500e-01",
         [Named(Kin.EVAL, "psnr", 31.25, "PSNR"), Named(Kin.EVAL, "ssim", 0.875, "SSIM")]),
        # BasicSR 1.x: the set's name, then each score behind its hash
        ("Validation ValSet,\t\t # psnr: 24.1773", [Named(Kin.EVAL, "psnr", 24.1773, "psnr")]),
        ("Validation Set14,\t\t # psnr: 27.5\t # ssim: 0.75",
         [Named(Kin.EVAL, "psnr", 27.5, "psnr"), Named(Kin.EVAL, "ssim", 0.75, "ssim")]),
        # the best so far beside a score is no figure of this validation
        ("Validation Set5 # psnr: 30.5 Best: 30.75 @ 45000 iter", [Named(Kin.EVAL, "psnr", 30.5, "psnr")]),
        # not a validation's scores: a comment, a heading with nothing after it, per-image figures unnamed, prose
        ("# Validation settings below", None),
        ("# Validation #", None),
        ("# Validation # PSNR: 15.302718: 0001: 15.373255 0002: 16.695826", None),
        ("Validation is run # every 5000 iters", None),
        ("Validation loss: 0.25", None),
    ],
)
def test_a_validation_s_marked_scores_are_read_as_printed(line: str, scores: list[Named] | None) -> None:
    assert marked_scores(line) == scores


def test_basicsr_s_heading_then_a_score_a_line_under_it() -> None:
    assert heading_alone("Validation Set14")
    assert not heading_alone("Validation Set14, # psnr: 27.5")
    assert not heading_alone("Validation of the config passed")
    assert score_under_heading("\t # psnr: 28.1500\tBest: 28.2000 @ 35000 iter") == [Named(Kin.EVAL, "psnr", 28.15, "psnr")]
    assert score_under_heading("\t # ssim: 0.7712\tBest: 0.7712 @ 40000 iter") == [Named(Kin.EVAL, "ssim", 0.7712, "ssim")]
    assert score_under_heading("psnr: 28.15") is None


def test_the_esrgan_codes_validation_is_the_step_s_just_logged(tmp_path: Path) -> None:
    # composed: the older logger's records every 100 iterations, a validation at 40,000 with a save, the next record
    lines = ["20-03-04 10:00:00.000 - INFO: <epoch: 12, iter:  39,900, lr:1.000e-04> l_pix: 3.2500e-02",
             "20-03-04 10:01:00.000 - INFO: <epoch: 12, iter:  40,000, lr:1.000e-04> l_pix: 3.1250e-02",
             "20-03-04 10:02:00.000 - INFO: # Validation # PSNR: 2.8125e+01, SSIM: 8.1250e-01",
             "20-03-04 10:02:00.010 - INFO: Saving models and training states.",
             "20-03-04 10:03:00.000 - INFO: <epoch: 12, iter:  40,100, lr:1.000e-04> l_pix: 3.0000e-02"]
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (training["step"], training["loss"]) == (40100, 0.03)
    assert training["eval"] == {"psnr": {"value": 28.125, "step": 40000}, "ssim": {"value": 0.8125, "step": 40000}}


def test_basicsr_s_scores_under_their_heading_are_the_validation_s(tmp_path: Path) -> None:
    # composed: BasicSR 1.4's records, its heading then a score a line with the best so far, the next record
    lines = [("2023-05-06 08:00:00,000 INFO: [train..][epoch:  3, iter:  10,000, lr:(2.000e-04,)] [eta: 9:00:00, "
             "time (data): 0.250 (0.004)] l_pix: 2.5000e-02 "),
             "2023-05-06 08:00:30,000 INFO: Validation Set14",
             "\t # psnr: 27.7500\tBest: 27.7500 @ 10000 iter",
             "\t # ssim: 0.7500\tBest: 0.7625 @ 5000 iter",
             "",
             "2023-05-06 08:00:30,500 INFO: Saving models and training states.",
             ("2023-05-06 08:01:00,000 INFO: [train..][epoch:  3, iter:  10,100, lr:(2.000e-04,)] [eta: 8:59:30, "
             "time (data): 0.300 (0.005)] l_pix: 2.2500e-02 ")]
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    # the best so far (0.7625 at 5000) is no figure of this validation; 300 ms the step's as printed
    assert (training["step"], training["loss"], training["step_seconds"]) == (10100, 0.0225, 0.3)
    assert training["eval"] == {"psnr": {"value": 27.75, "step": 10000}, "ssim": {"value": 0.75, "step": 10000}}


def test_a_real_basicsr_log_s_validations_are_its_evaluations(tmp_path: Path) -> None:
    lines = body(RETINEXFORMER)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=RETINEXFORMER, at=T0)
    training = data["training"]
    # iteration 58,000 (a thousands separator), l_pix 4.5669e-02, 142 ms as printed, the validation after 58,000's record
    assert (training["step"], training["loss"], training["step_seconds"]) == (58000, 0.045669, 0.142)
    assert training["eval"] == {"psnr": {"value": 22.7344, "step": 58000}}
    assert training["crash"] is None


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # the mmsr codes' validation logger: its position in angle brackets, no learning rate, the scores after it
        ("<epoch: 99, iter:   5,000> psnr: 2.9862e+01.", (99, 5000, [Named(Kin.EVAL, "psnr", 29.862, "psnr")])),
        ("<epoch:1599, iter:  80,000> psnr: 3.1740e+01", (1599, 80000, [Named(Kin.EVAL, "psnr", 31.74, "psnr")])),
        ("<epoch:193, iter: 505,000> psnr: 2.0776e+01 norm_PSNR: 4.0822e+01 mu_PSNR: 3.3844e+01",
         (193, 505000, [Named(Kin.EVAL, "psnr", 20.776, "psnr"), Named(Kin.EVAL, "norm psnr", 40.822, "norm_PSNR"),
                        Named(Kin.EVAL, "mu psnr", 33.844, "mu_PSNR")])),
        ("<epoch:  3, iter:     500> psnr: 2.5000e+01 ssim: 7.5000e-01",
         (3, 500, [Named(Kin.EVAL, "psnr", 25.0, "psnr"), Named(Kin.EVAL, "ssim", 0.75, "ssim")])),
        # the training logger's record: a learning rate in its brackets, losses after them
        ("<epoch: 86, iter: 107,200, lr:2.500e-05> l_g_pix: 1.4819e-03 l_g_fea: 1.0389e+00", None),
        # a loss, a discriminator's output or an unnamed figure after the bare position: no validation's scores
        ("<epoch:  1, iter:   5,000> l_pix: 7.8461e-03", None),
        ("<epoch:  1, iter:   5,000> psnr: 2.5e+01 D_real: -2.5625e+01", None),
        ("<epoch:  1, iter:   5,000> 2.5e+01", None),
        ("<epoch:  1, iter:   5,000>", None),
    ],
)
def test_a_validation_s_own_line_gives_its_position_and_scores(
        line: str, read: tuple[int, int, list[Named]] | None) -> None:
    assert positioned_scores(line) == read


def test_a_validation_s_own_line_is_read_at_the_iteration_it_names(tmp_path: Path) -> None:
    # composed: the training logger's records every 100 iterations, the validation's own line after 40,000's record
    # (its scores that step's, no second reading of them), then the next record; a validation's line that names an
    # iteration the run has passed is no record of it
    lines = ["20-03-04 10:00:00.000 - INFO: <epoch: 12, iter:  39,900, lr:1.000e-04> l_pix: 3.2500e-02",
             "20-03-04 10:01:00.000 - INFO: <epoch: 12, iter:  40,000, lr:1.000e-04> l_pix: 3.1250e-02",
             "20-03-04 10:02:00.000 - INFO: <epoch: 12, iter:  40,000> psnr: 2.8125e+01 ssim: 8.1250e-01",
             "20-03-04 10:03:00.000 - INFO: <epoch: 12, iter:  40,100, lr:1.000e-04> l_pix: 3.0000e-02",
             "20-03-04 10:04:00.000 - INFO: <epoch: 12, iter:  35,000> psnr: 2.0000e+01"]
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (training["step"], training["loss"]) == (40100, 0.03)
    assert training["eval"] == {"psnr": {"value": 28.125, "step": 40000}, "ssim": {"value": 0.8125, "step": 40000}}


def test_a_validation_log_alone_is_read_a_validation_a_step(tmp_path: Path) -> None:
    # composed: the validation logger's file alone, a validation every 5,000 iterations an hour apart: each line the
    # run's position, its scores that iteration's evaluation; no loss printed, none shown
    lines = ["21-01-02 10:00:00.000 - INFO: <epoch:  9, iter:   5,000> psnr: 2.7500e+01",
             "21-01-02 11:00:00.000 - INFO: <epoch: 19, iter:  10,000> psnr: 2.8000e+01",
             "21-01-02 12:00:00.000 - INFO: <epoch: 29, iter:  15,000> psnr: 2.8250e+01"]
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, at=T0)
    training = data["training"]
    assert (training["step"], training["loss"], training["data"]["epoch"]) == (15000, None, 29.0)
    assert training["eval"] == {"psnr": {"value": 28.25, "step": 15000}}
