"""A bare ``time`` far into the run that rises every record by about one step's time is the run's clock, however small
its rise beside its value (DCGAN-tensorflow's older ``Epoch: [14] [ 398/1093] time: 18566.6816``, its
``time.time() - start_time``: tests/data/real/generic-dcgan-tensorflow-issue175-…); the step's time comes from its
differences. A per-step time keeps its meaning (torchvision's MetricLogger ``time: 0.297``, art-DCGAN's ``Time: 0.266``,
tests/data/real). Composed spellings; the answers worked out by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.generic import GenericParser
from app.stats.events import TrainStep


def steps(lines: list[str]) -> list[TrainStep]:
    return [e for e in GenericParser().feed(lines) if isinstance(e, TrainStep)]


@pytest.mark.parametrize(("lines", "elapsed"), [
    # the lines: rises of 1.1313, 1.1672, 1.1410 s a batch on a clock of 18566 s
    ([f"Epoch: [14] [ {b}/1093] time: {t}, d_loss: 1.38566971, g_loss: 0.67304140"
      for b, t in ((398, "18566.6816"), (399, "18567.8129"), (400, "18568.9801"), (401, "18570.1211"))], 18570.1211),
    # printed every 10 batches: 5.0 s a record, 0.5 s a batch, on a clock of 7200 s
    ([f"Epoch: [3] [{b}/500] time: {t}, d_loss: 1.2, g_loss: 0.7" for b, t in ((100, 7200.0), (110, 7205.1), (120, 7210.0))],
     7210.0),
    # a clock of minutes named bare, beside a plain step
    (["step 3000 loss 2.31 time 3600.5s", "step 3001 loss 2.30 time 3601.7s", "step 3002 loss 2.29 time 3602.8s"], 3602.8),
])  # fmt: skip
def test_a_clock_far_into_the_run_is_no_step_s_time(lines: list[str], elapsed: float) -> None:
    got = steps(lines)
    assert got[-1].elapsed_seconds == pytest.approx(elapsed)
    assert got[-1].step_seconds is None  # (the tracker takes the step's time from the clock's differences)
    assert all(s.step_seconds is None or s.step_seconds < 60 for s in got)


@pytest.mark.parametrize("lines", [
    # a MetricLogger's per-iteration time rising three times: still the iteration's (its template says so)
    ["Epoch: [0]  [ 10/500]  eta: 0:02:20  lr: 0.1  loss: 6.9 (6.9)  time: 0.2970  data: 0.0100",
     "Epoch: [0]  [ 20/500]  eta: 0:02:20  lr: 0.1  loss: 6.8 (6.9)  time: 0.2990  data: 0.0100",
     "Epoch: [0]  [ 30/500]  eta: 0:02:20  lr: 0.1  loss: 6.7 (6.8)  time: 0.3010  data: 0.0100"],
    # a slow step's own time of minutes that wavers by more than a thousandth of it
    ["step 10 loss 2.31 time 120.0s", "step 11 loss 2.30 time 121.5s", "step 12 loss 2.29 time 123.4s"],
])  # fmt: skip
def test_a_step_s_own_time_stays_a_step_s_time(lines: list[str]) -> None:
    got = steps(lines)
    assert got[-1].elapsed_seconds is None
    assert got[-1].step_seconds is not None
