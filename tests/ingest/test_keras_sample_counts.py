"""A Keras bar that counts samples without saying so: its counts move a batch at a time (keras_bars.SampleCounts)."""

from __future__ import annotations

import pytest

from app.ingest.formats.keras_bars import SampleCounts


def read(counts: list[tuple[int, int]]) -> list[bool]:
    samples = SampleCounts()
    return [samples.counts_samples(done, total) for done, total in counts]


@pytest.mark.parametrize(("counts", "said"), [
    # 2960 samples by 32: 32, 640, 1120 share 32, and 2960 is no multiple of it (the last batch short): the third count says
    # so, and the full bar of that total after it counts samples too
    ([(32, 2960), (640, 2960), (1120, 2960), (2960, 2960)], [False, False, True, True]),
    # 60000 by 128 from a bar's first count: 128 is the batch itself (a bar of steps starts at 1), though 60000 / 128 is
    # no whole number either
    ([(128, 60000), (256, 60000), (384, 60000)], [False, False, True]),
    # 8448 = 66 × 128, a multiple of the batch: the first count, 128 itself, says it
    ([(128, 8448), (256, 8448), (384, 8448)], [False, False, True]),
    # steps one at a time (gcd 1): never
    ([(1, 88), (2, 88), (3, 88), (88, 88)], [False, False, False, False]),
    # counts 200 apart of a total that is a multiple of 100, none of them 100 itself: nothing tells them from steps
    ([(300, 1000), (500, 1000), (700, 1000)], [False, False, False]),
    # a batch under 8 (4, 8, 12 of 30): too small to tell from steps
    ([(4, 30), (8, 30), (12, 30)], [False, False, False]),
])  # fmt: skip
def test_counts_a_batch_apart_say_samples(counts: list[tuple[int, int]], said: list[bool]) -> None:
    assert read(counts) == said


def test_a_total_said_to_count_samples_is_samples_from_its_first_bar() -> None:
    samples = SampleCounts()
    samples.said(25000)  # ``Train on 25000 samples``
    assert samples.counts_samples(32, 25000)
    assert not samples.counts_samples(1, 782)  # (another bar's total: steps, as read before)
