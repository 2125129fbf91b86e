"""A quiet log's hour of tok/h: the points sampled on past its newest time are kept, not redone."""

from __future__ import annotations

from app.stats.history import RateHistory


def test_points_past_the_newest_time_are_the_same_kept_or_sampled_afresh() -> None:
    calls: list[float] = []

    def rate(t: float) -> float | None:
        calls.append(t)
        return 1000.0 - (t - 10_000) if t < 12_000 else None

    kept, fresh = RateHistory(), RateHistory()
    for history in (kept, fresh):
        history.start(10_000)
        history.sample_until(10_600, rate)
    for now in (10_700, 11_000, 12_500, 16_000, 11_500, 20_000):
        calls.clear()
        assert kept.view(now, 10_600, rate, key=1) == fresh.view(now, 10_600, rate)
    kept.view(20_010, 10_600, rate, key=1)
    calls.clear()
    kept.view(20_020, 10_600, rate, key=1)
    assert calls == []  # no boundary since: nothing sampled again (boundaries fall every 30 s)
    kept.view(20_040, 10_600, rate, key=1)
    assert calls == [20_040]  # one new boundary, one sample (not the hour's 120)
    calls.clear()
    kept.view(20_040, 10_600, rate, key=2)  # the figures changed: sampled afresh
    assert len(calls) == 121  # the hour back from 20,040 (both ends)
