"""How a step time no line printed is said to be worked out, where the log's lines carry no date: never "measured from
the lines' times", which they do not have. The trainer's own clock printed on each line (legacy OpenNMT-py's
``10233 s elapsed``, DCGAN-tensorflow's ``time: 18570.1211`` since the training began) is what it is measured from;
MLX-LM-style lines printing ``Tokens/sec`` and ``Trained Tokens`` but no ``It/sec`` give each line's time as the
tokens over the tokens a second; lines timed by their arrival (read live) are said so. Dated lines keep "measured from
the lines' times". Real logs from tests/data/real (cited in their headers) and composed ones, answers by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.coldread import read_cold

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def speed(data: dict[str, object]) -> str:
    """The details' line of the step's time."""
    details = data["details"]
    assert isinstance(details, list)
    return next(line for line in details if line.startswith(("step ", "epoch ")) and "(" in line)


@pytest.mark.parametrize(("name", "shown"), [
    # OpenNMT/OpenNMT-py issue 709: 13400 - 12900 = 500 batches in 10233 - 9861 = 372 s of the trainer's elapsed
    # clock: 0.744 s a batch
    ("generic-opennmt-py-issue709-epoch-1-batches-12900-13400-of-37527-xent-src-tok-s.log",
     "step 744 ms (measured from the trainer's own clock)"),
    # carpedm20/DCGAN-tensorflow issue 175: batch 400 -> 401 in 18570.1211 - 18568.9801 = 1.141 s of its clock
    ("generic-dcgan-tensorflow-issue175-older-print-epoch-14-batches-398-401-of-1093-time-since-start.log",
     "step 1.14 s (measured from the trainer's own clock)"),
])  # fmt: skip
def test_an_undated_log_s_step_time_is_measured_from_the_trainer_s_clock(tmp_path: Path, name: str, shown: str) -> None:
    lines = (REAL / name).read_text(encoding="utf-8").splitlines()
    data = read_cold(tmp_path, lines, name=name)
    assert speed(data).split(" · ")[0] == shown  # (its tokens a second beside it, as printed)
    assert not any("lines' times" in line for line in data["details"])


def test_tokens_over_tokens_a_second_are_the_trainer_s_printed_figures(tmp_path: Path) -> None:
    # 10 iterations a line, 5,000 tokens each at 250 tokens a second: 20 s a line, 2.00 s an iteration
    lines = [f"Iter {n}: Train loss {3.0 - n / 1000:.3f}, Learning Rate 1.000e-05, Tokens/sec 250.000, "
             f"Trained Tokens {n * 500}, Peak mem 5.000 GB" for n in range(10, 210, 10)]
    data = read_cold(tmp_path, lines)
    assert data["training"]["step_seconds"] == pytest.approx(2.0)
    assert speed(data) == "step 2.00 s (worked out from the tokens and tokens a second printed) · 250 tok/s"


def test_dated_lines_keep_their_own_times(tmp_path: Path) -> None:
    # 10 steps a line, lines 20 s apart by their dates: 2.00 s a step, measured from the lines' times
    lines = [f"2024-03-01 10:{n // 30:02d}:{n * 2 % 60:02d} step {n} loss {3.0 - n / 1000:.3f}" for n in range(10, 310, 10)]
    data = read_cold(tmp_path, lines, dated=True)
    assert speed(data) == "step 2.00 s (measured from the lines' times)"
