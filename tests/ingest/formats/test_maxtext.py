"""MaxText's ``completed step:`` lines: the step, its measured seconds, tokens and TFLOP/s per device, the loss.

Real lines, each cited, and the real log tests/data/real/maxtext-*.log read end to end.
"""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser, detect
from app.stats.events import TrainStep
from tests.reallogs import body


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in create_parser("maxtext").feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(("text", "want"), [
    # AI-Hypercomputer/maxtext PR #2232 (docs/guides/understand_logs_and_metrics.md, its example line)
    (("completed step: 9, seconds: 5.667, TFLOP/s/device: 134.924, Tokens/s/device: 8672.758, total_weights: 196608, "
      "loss: 10.374"), (9, 5.667, 8672.758, 134.924, 10.374)),
    # AI-Hypercomputer/maxtext PR #761 (its description's example: the line before total_weights was printed)
    ("completed step: 9, seconds: 1.341, TFLOP/s/device: 257.929, Tokens/s/device: 36653.244, loss: 0.000",
     (9, 1.341, 36653.244, 257.929, 0.0)),
    # AI-Hypercomputer/maxtext issue #8 (a v3-8 run in 2023: ``TFLOP/s``, no tokens printed)
    ("completed step: 15107, seconds: 2.167, TFLOP/s: 36.722, loss: 2.191", (15107, 2.167, None, 36.722, 2.191)),
])  # fmt: skip
def test_real_lines_give_the_step_its_seconds_throughput_and_loss(
    text: str, want: tuple[int, float, float | None, float, float]
) -> None:
    (step,) = steps([text])
    assert (step.step, step.step_seconds, step.tokens_per_second, dict(step.figures)["tflops"], step.loss) == want
    assert step.per_device is (want[2] is not None)
    assert step.mfu is None and step.total_steps is None  # neither is printed


def test_real_glog_log_reads_the_loss_not_the_perplexity_nor_the_weights() -> None:
    lines = body("maxtext-pr4847-glog-completed-step-profiler.log")
    assert detect(lines) == "maxtext"
    last = steps(lines)[-1]
    assert (last.step, last.loss, last.step_seconds, last.tokens_per_second) == (3, 12.979, 10.344, 19006.461)


@pytest.mark.parametrize("lines", [
    # AI-Hypercomputer/maxtext PR #2232 (docs/guides/understand_logs_and_metrics.md, section 3.3, the startup block as shown)
    ["Per train step:", " Total TFLOPs: 764.67 ", " split as 94.54% learnable weight flops and 5.46% attention flops"],
    # PR #3053's "Outputs:" block, its first lines (tests/data/real/maxtext-pr3053-…)
    ["Per train step:", " Total TFLOPs: 104.77 ", " split as 55.92% learnable weight flops and 44.08% attention flops",
     ("I0131 11:17:43.038159 136759033735168 max_utils.py:695] Total memory size: 6.4 GB, Output size: 0.2 GB, Temp size: "
      "6.2 GB, Argument size: 0.2 GB, Host temp size: 0.0 GB.")],
    # composed: the older versions' one-line form of the same print, behind absl's prefix
    [("I0306 06:31:32.217803 135530450430272 train.py:480] Per train step, total TFLOPs will be 1033.20, split as 96.17% "
      "learnable weight flops and 3.83% attention flops")],
])  # fmt: skip
def test_maxtext_s_startup_before_its_first_step_is_known_as_maxtext(lines: list[str]) -> None:
    assert detect(lines) == "maxtext"
